import type { Options } from "tsup";

/**
 * The one build configuration every package spreads (changesets' baseConfig pattern).
 * Swapping tsup for another bundler touches this file only.
 */
export const baseConfig: Options = {
  entry: ["src/index.ts"],
  format: ["esm"],
  target: "node22",
  platform: "node",
  dts: true,
  sourcemap: true,
  clean: true,
  treeshake: true,
  splitting: false,
  // Workspace packages export src/*.ts; published packages depend on each other's dist.
  external: [/^@kubesched\//],
};
