import { defineProject } from "vitest/config";

// *.test-d.ts: type tests (what declarations infer), which the API report cannot pin.
export default defineProject({ test: { typecheck: { enabled: true, include: ["src/**/*.test-d.ts"] } } });
