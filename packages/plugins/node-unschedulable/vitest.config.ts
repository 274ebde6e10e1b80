import { defineProject } from "vitest/config";

// Every harness call is replayed through the assembled scheduler (the engine conformance suite).
export default defineProject({ test: { setupFiles: ["../../../tooling/conformance/engine-setup.ts"] } });
