// Every plugin package (in-tree and contrib) follows the plugin package template.
import { basename } from "node:path";
import { describe, expect, it } from "vitest";
import rootConfig from "../../../vitest.config";
import { checkPluginPackage, matchesProjectGlob, pluginPackageDirs } from "./conventions";
import { workspaceRoot } from "./generate";

export const rootProjects = (rootConfig.test?.projects ?? []).filter(
  (p): p is string => typeof p === "string",
);

describe("the plugin package template", () => {
  const dirs = pluginPackageDirs(workspaceRoot);

  it("finds the in-tree and contrib plugin packages", () => {
    expect(dirs.map((d) => basename(d))).toEqual(
      expect.arrayContaining(["node-resources-fit", "coscheduling"]),
    );
    expect(dirs.length).toBeGreaterThanOrEqual(24);
  });

  it.each(dirs.map((d) => [basename(d), d] as const))("%s follows it", (_name, dir) => {
    expect(checkPluginPackage(dir, workspaceRoot, rootProjects)).toEqual([]);
  });

  it("matches vitest project globs within one path segment", () => {
    expect(
      matchesProjectGlob("packages/plugins/*/vitest.config.ts", "packages/plugins/x/vitest.config.ts"),
    ).toBe(true);
    expect(matchesProjectGlob("packages/*/vitest.config.ts", "packages/plugins/x/vitest.config.ts")).toBe(
      false,
    );
  });
});
