import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base";

// The CLI's own code only: the core and plugin packages, client-node and the other dependencies are
// imported at run time from node_modules (tsup leaves dependencies external), so the versions a user
// installs are the ones that run.
export default defineConfig({
  ...baseConfig,
  entry: ["src/index.ts", "src/bin.ts"],
});
