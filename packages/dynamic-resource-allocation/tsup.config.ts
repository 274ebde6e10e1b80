import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base";

// One entry per subpath, as upstream's packages: cel and structured.
export default defineConfig({
  ...baseConfig,
  entry: { cel: "src/cel/index.ts", structured: "src/structured/index.ts" },
});
