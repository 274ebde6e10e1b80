// The root vitest config's project globs: each plugin package must be matched by exactly one.
import rootConfig from "../../../vitest.config";

export const rootProjects: readonly string[] = (rootConfig.test?.projects ?? []).filter(
  (p): p is string => typeof p === "string",
);
