import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { getDefaultPlugins } from "./default-plugins";
import { featureGateSpec, featuresAt, supportedReleases } from "./feature-gates";
import { releaseDifferences } from "./release-differences";

const names = (release: (typeof supportedReleases)[number]) =>
  getDefaultPlugins(featuresAt(release)).multiPoint.enabled.map((p) => p.name);

describe("default plugins per release", () => {
  it("DynamicResources from 1.34 (before DefaultPreemption), NodeDeclaredFeatures from 1.36", () => {
    expect(names("1.33")).not.toContain("DynamicResources");
    expect(names("1.33")).not.toContain("NodeDeclaredFeatures");
    for (const r of ["1.34", "1.35", "1.36", "1.37"] as const) {
      const n = names(r);
      expect(n.indexOf("DynamicResources"), r).toBe(n.indexOf("DefaultPreemption") - 1);
    }
    expect(names("1.35")).not.toContain("NodeDeclaredFeatures");
    expect(names("1.36")).toContain("NodeDeclaredFeatures");
    expect(names("1.37")).toContain("NodeDeclaredFeatures");
  });
});

describe("releaseDifferences", () => {
  it("a gated row starts where its gate turns on by default", () => {
    for (const d of releaseDifferences) {
      if (d.gate === null) continue;
      const on = supportedReleases.filter((r) => featureGateSpec(d.gate as string, r)?.default === true);
      expect(on[0], d.what).toBe(d.since);
    }
  });

  it("the README's table of what differs between releases lists every row", () => {
    const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
    const start = readme.indexOf("## Kubernetes releases");
    const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
    const rows = section
      .split("\n")
      .filter((l) => l.startsWith("| 1."))
      .map((l) =>
        l
          .split("|")
          .slice(1, -1)
          .map((c) => c.trim()),
      );
    expect(rows).toEqual(releaseDifferences.map((d) => [d.since, d.what, d.change]));
  });
});
