import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base";

// The CLI bundles the workspace packages (their exports point at src/ in the workspace),
// so `node apps/kubesched/dist/bin.js` runs after `pnpm build` without a publish.
export default defineConfig({
  ...baseConfig,
  entry: ["src/index.ts", "src/bin.ts"],
  external: [],
  noExternal: [/^@kubesched\//],
});
