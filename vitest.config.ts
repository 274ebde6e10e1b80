import { defineConfig } from "vitest/config";

// One run across every package: each package folder is a project named after its package.
export default defineConfig({
  test: {
    projects: ["packages/*", "packages/plugins/*", "apps/*", "bench"],
    reporters: process.env.CI ? ["default", ["json", { outputFile: "test-results.json" }]] : ["default"],
  },
});
