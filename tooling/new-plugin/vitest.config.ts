import { defineProject } from "vitest/config";

// The generator test runs a generated package's tests, typecheck and lint in child processes.
export default defineProject({ test: { testTimeout: 300_000 } });
