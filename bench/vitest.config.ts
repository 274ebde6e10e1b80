import { defineProject } from "vitest/config";

// The benchmark harness's pure helpers (throughput sampler); the benchmarks themselves run with `pnpm bench`.
export default defineProject({ test: { name: "bench", include: ["*.test.ts", "lib/**/*.test.ts"] } });
