import { configDefaults, defineProject } from "vitest/config";

// scaffold.test.ts generates a package under .scratch/ and runs its tests itself.
export default defineProject({ test: { exclude: [...configDefaults.exclude, ".scratch/**"] } });
