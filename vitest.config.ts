import { defineConfig } from "vitest/config";

// One run across every package: each package folder is a project named after its package. The
// globs name the packages' configs so that grouping folders (packages/plugins) are not projects
// of their own that would run their packages' tests a second time.
export default defineConfig({
  test: {
    projects: [
      "packages/*/vitest.config.ts",
      "packages/plugins/*/vitest.config.ts",
      "packages/plugins-contrib/*/vitest.config.ts",
      "apps/*/vitest.config.ts",
      "tooling/*/vitest.config.ts",
      "bench",
    ],
    reporters: process.env.CI ? ["default", ["json", { outputFile: "test-results.json" }]] : ["default"],
  },
});
