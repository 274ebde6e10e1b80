import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base";

// The CLI's own code only: the core and plugin packages, client-node and the other dependencies are
// imported at run time from node_modules (tsup leaves dependencies external), so the versions a user
// installs are the ones that run.
export default defineConfig({
  ...baseConfig,
  // The sweep's worker thread is a file of its own (dist/sweep-worker.js), next to the chunk that starts it.
  entry: { index: "src/index.ts", bin: "src/bin.ts", "sweep-worker": "src/commands/sweep-worker.ts" },
});
