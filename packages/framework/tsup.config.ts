import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base";

// Two entries: the plugin API (main) and the columnar fast path (subpath, @beta).
export default defineConfig({
  ...baseConfig,
  entry: { index: "src/index.ts", columnar: "src/columnar/index.ts" },
});
