import { defineConfig } from "tsup";
import { baseConfig } from "../../tsup.config.base";

// The CLI bundles the workspace packages (their exports point at src/ in the workspace) and
// their third-party dependencies, so `node apps/kubesched/dist/bin.js` runs after `pnpm build`
// without a publish. Some of those dependencies are CommonJS (prom-client): give the ESM
// bundle a `require` for them.
export default defineConfig({
  ...baseConfig,
  entry: ["src/index.ts", "src/bin.ts"],
  external: [],
  noExternal: [/.*/],
  banner: {
    js: 'import { createRequire as __kubeschedCreateRequire } from "node:module";\nconst require = __kubeschedCreateRequire(import.meta.url);',
  },
});
