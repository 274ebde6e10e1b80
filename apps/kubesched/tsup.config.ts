import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base";

// The CLI's own code only: the core and plugin packages, client-node and the other dependencies are
// imported at run time from node_modules (tsup leaves dependencies external), so the versions a user
// installs are the ones that run.
export default defineConfig([
  {
    ...baseConfig,
    entry: { index: "src/index.ts", bin: "src/bin.ts" },
    // The worker's files are the other build's (the two run at once).
    clean: ["!sweep-worker.*"],
  },
  {
    ...baseConfig,
    // The sweep's worker process is a file of its own (dist/sweep-worker.js), next to the chunk that starts it.
    entry: { "sweep-worker": "src/commands/sweep-worker.ts" },
    // esbuild's tree-shaking only. esbuild keeps the names a bundled module imports from an external
    // one even where the worker calls nothing that uses them (an import of a name the package lacks
    // must still fail); tsup's second pass (rollup) dropped them and warned that dist/sweep-worker.js
    // imports names it never uses. No declarations: nothing imports the worker's types.
    treeshake: false,
    dts: false,
    clean: false,
  },
]);
