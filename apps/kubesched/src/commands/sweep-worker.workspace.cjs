// The sweep's worker thread in a checkout, which has no build: sweep-worker.ts through tsx's
// require hook. Node 20 applies `--import` loaders and module.register() hooks to the main
// thread only, so a worker thread cannot import TypeScript the way bin/kubesched.js does; the
// require hook is the thread's own. The published package runs dist/sweep-worker.js and does not
// ship this file.
// Plugin packages of the workspace (their entries are TypeScript too) are required the same way.
require("tsx/cjs/api").register();
const { fileURLToPath } = require("node:url");
const { sweepWorker } = require("./sweep-worker.ts");

module.exports = sweepWorker(async (url) => require(fileURLToPath(url)));
