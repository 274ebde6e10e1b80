// Registers bench/lib/shipped-build-hooks.mjs: the bench's processes run the workspace's
// TypeScript as the published packages ship it. tsx (which still resolves every import) compiles
// with esbuild's keepNames, which wraps every function and class in a `__name(fn, "name")` call
// when it is created; tsup's builds (the dist users run) do not. In a DRA workload those calls
// were ~8 % of the CPU profile (closures made per device and per node), a cost of the harness.
// Use: node --import tsx --import ./bench/lib/shipped-build.mjs bench/workload.ts ...
import { register } from "node:module";

register("./shipped-build-hooks.mjs", import.meta.url);
