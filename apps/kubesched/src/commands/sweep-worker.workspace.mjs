// The sweep's worker process in a checkout, which has no build: sweep-worker.ts through tsx's ESM
// loader, registered here as bin/kubesched.js registers it (module.register() holds for the
// process that calls it: a worker registers its own). Plugin packages of the workspace (their
// entries are TypeScript too) are imported the same way. The published package runs
// dist/sweep-worker.js and does not ship this file.
//
// ESM, not tsx's require hook: compiled to CommonJS, every call across modules goes through the
// getters esbuild gives CommonJS exports, and a cell ran about twice as slowly in such a worker
// as in the CLI's own (ESM) process (bench/README.md).
import { register } from "tsx/esm/api";

register();
const { sweepWorker } = await import("./sweep-worker.ts");

export default sweepWorker();
