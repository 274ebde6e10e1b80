// The supported Node.js majors: 20 (end of life since April 2026, kept until the next minor
// release: CI machines still run it), 22 and 24. Every published package and the workspace root
// declare them in `engines.node`, and the build targets the oldest (.ci/node-versions runs the CLI
// and tests on 22 and 24, the main run on the machine's Node.js).
import { readFileSync } from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";
import { publishablePackages, readManifest, repoRoot } from "./workspace";

const supported = ["20.19.0", "22.12.0", "24.0.0"];
const unsupported = ["18.20.0"];

describe("engines.node", () => {
  const manifests = [
    { dir: ".", manifest: readManifest(path.join(repoRoot, "package.json")) },
    ...publishablePackages(),
  ];

  it.each(manifests.map((p) => [p.dir, p.manifest] as const))("%s: Node.js 20, 22 and 24", (_, manifest) => {
    const range = (manifest.engines as { node?: string } | undefined)?.node;
    expect(range).toBe(">=20");
    for (const v of supported) expect(semver.satisfies(v, range as string), v).toBe(true);
    for (const v of unsupported) expect(semver.satisfies(v, range as string), v).toBe(false);
  });

  it("the build targets Node.js 20", () => {
    expect(readFileSync(path.join(repoRoot, "tsup.config.base.ts"), "utf8")).toContain('target: "node20"');
  });
});
