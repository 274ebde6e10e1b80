// The sweep's worker process in a checkout, which has no build: sweep-worker.ts through tsx's
// require hook. bin/kubesched.js registers tsx's loader with module.register(), which holds for
// its own process only (a worker is started with node's flags, not with the hooks registered at
// run time), so a worker cannot import TypeScript the way bin/kubesched.js does; the require hook
// is the worker's own. The published package runs dist/sweep-worker.js and does not ship this file.
// Plugin packages of the workspace (their entries are TypeScript too) are required the same way.
require("tsx/cjs/api").register();
const { fileURLToPath } = require("node:url");
const { sweepWorker } = require("./sweep-worker.ts");

module.exports = sweepWorker(async (url) => require(fileURLToPath(url)));
