// Every import of a published package names a package it declares: what its published code (the
// files src/index.ts reaches; their .d.ts keep type-only imports) needs is in dependencies or
// peerDependencies; tests and their helpers may also use devDependencies and the root's (the
// workspace's test harness). A package that works in the workspace only because pnpm linked a
// sibling at the root fails for the first npm user.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { type Manifest, publishablePackages, readManifest, repoRoot } from "./workspace";

const builtins = new Set(builtinModules);

/** The package a bare specifier names ("@a/b/c" → "@a/b", "yaml/util" → "yaml"); null for others. */
export function packageOf(specifier: string): string | null {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:")) return null;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] as string);
  return builtins.has(name) ? null : name;
}

/** Module specifiers of a file: static imports and exports (type-only too) and import() calls. */
export function importsOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** The files the entry reaches through relative imports: what the package publishes. */
export function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of importsOf(readFileSync(file, "utf8"))) {
      if (!spec.startsWith(".")) continue;
      const base = path.resolve(path.dirname(file), spec.replace(/\.js$/, ""));
      const next = [`${base}.ts`, path.join(base, "index.ts")].find((f) => existsSync(f));
      if (next) queue.push(next);
    }
  }
  return seen;
}

/**
 * The source files a package's `exports` name (a package with subpaths only, such as
 * dynamic-resource-allocation's `./cel`, has no src/index.ts); src/index.ts when none does.
 */
function publishedEntries(dir: string, manifest: Manifest): string[] {
  const exports = (manifest.exports ?? {}) as Record<string, unknown>;
  const entries = Object.values(exports)
    .filter((target): target is string => typeof target === "string" && target.startsWith("./src/"))
    .map((target) => path.join(repoRoot, dir, target));
  return entries.length > 0 ? entries : [path.join(repoRoot, dir, "src/index.ts")];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .map((f) => path.join(dir, f));
}

const rootDev = Object.keys(readManifest(path.join(repoRoot, "package.json")).devDependencies ?? {});

describe("imports are declared dependencies", () => {
  it("reads imports, type-only imports and import() calls", () => {
    expect(
      importsOf(
        'import type { A } from "@x/types/sub";\nimport b from "./b";\nexport * from "yaml";\nconst k = await import("@kubesched/kube");',
      ).map(packageOf),
    ).toEqual(["@x/types", null, "yaml", "@kubesched/kube"]);
    expect(packageOf("node:fs")).toBeNull();
    expect(packageOf("fs")).toBeNull();
  });

  for (const pkg of publishablePackages()) {
    const m = pkg.manifest;
    it(`${m.name} (${pkg.dir})`, () => {
      const runtime = new Set([
        m.name,
        ...Object.keys(m.dependencies ?? {}),
        ...Object.keys(m.peerDependencies ?? {}),
        ...Object.keys(m.optionalDependencies ?? {}),
      ]);
      const dev = new Set([...runtime, ...Object.keys(m.devDependencies ?? {}), ...rootDev]);
      const problems: string[] = [];
      const published = new Set(publishedEntries(pkg.dir, m).flatMap((entry) => [...reachable(entry)]));
      for (const file of sourceFiles(path.join(repoRoot, pkg.dir, "src"))) {
        const allowed = published.has(file) ? runtime : dev;
        for (const spec of importsOf(readFileSync(file, "utf8"))) {
          const name = packageOf(spec);
          if (name && !allowed.has(name)) {
            problems.push(
              `${path.relative(repoRoot, file)} imports "${spec}", but ${name} is not in ${published.has(file) ? "dependencies or peerDependencies" : "the package's or the root's dependencies"}`,
            );
          }
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
