// A package's `bin` must name a file a fresh clone has: pnpm links every workspace bin at install
// time, before anything is built, and warns ("Failed to create bin at …/node_modules/.bin/X.
// ENOENT … dist/bin.js") for each one whose file is missing. The published bin is the built one
// (publishConfig.bin under dist/), which `pnpm pack` puts in the packed manifest.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, workspacePackages } from "./workspace";

type Bins = string | Record<string, string> | undefined;
const targets = (bin: Bins): string[] => (typeof bin === "string" ? [bin] : Object.values(bin ?? {}));

/** The files git tracks: what a fresh clone has. */
const tracked = new Set(
  execFileSync("git", ["ls-files", "-z"], { cwd: repoRoot, encoding: "utf8" }).split("\0").filter(Boolean),
);

describe("workspace bins", () => {
  const withBins = workspacePackages().filter(
    (p) => p.manifest.bin !== undefined || (p.manifest.publishConfig as { bin?: Bins } | undefined)?.bin,
  );

  it("some packages have bins (the CLI, the plugin scaffolder)", () => {
    expect(withBins.map((p) => p.manifest.name)).toEqual(
      expect.arrayContaining(["@kubesched/cli", "create-kubesched-plugin"]),
    );
  });

  for (const { dir, manifest } of withBins) {
    it(`${manifest.name}: each bin is a file of a fresh clone, run by node; the published one is built`, () => {
      for (const target of targets(manifest.bin as Bins)) {
        const file = path.posix.join(dir, target);
        expect(tracked.has(file), `${file} is not tracked by git`).toBe(true);
        expect(readFileSync(path.join(repoRoot, file), "utf8")).toMatch(/^#!\/usr\/bin\/env node\n/);
      }
      const published = targets((manifest.publishConfig as { bin?: Bins } | undefined)?.bin);
      expect(published.length).toBeGreaterThan(0);
      for (const target of published) expect(target).toMatch(/^\.\/dist\//);
    });
  }
});
