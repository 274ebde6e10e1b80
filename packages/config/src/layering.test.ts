// The layer rule (upstream: pkg/scheduler/framework/runtime imports apis/config, never the
// reverse): @kubesched/config sits right above the plugin API. It may use @kubesched/api and
// @kubesched/framework, never the runtime, the engine or a plugin package: plugin args
// declarations reach it through the registry at run time.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const allowed = new Set(["@kubesched/api", "@kubesched/framework", "@kubesched/tsconfig"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** The package names a file imports (static and dynamic imports, re-exports). */
function importedPackages(text: string): string[] {
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1] ?? "");
  return specifiers
    .filter((s) => !s.startsWith(".") && !s.startsWith("node:"))
    .map((s) => (s.startsWith("@") ? s.split("/").slice(0, 2).join("/") : (s.split("/")[0] ?? s)));
}

describe("@kubesched/config's layer", () => {
  it("depends on no workspace package above the plugin API (no runtime, no plugin)", () => {
    const pkg = JSON.parse(readFileSync(join(here, "..", "package.json"), "utf8")) as Record<
      string,
      Record<string, string> | undefined
    >;
    const deps = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"].flatMap(
      (k) => Object.keys(pkg[k] ?? {}),
    );
    expect(deps.filter((d) => d.startsWith("@kubesched/") && !allowed.has(d))).toEqual([]);
  });

  it("imports no workspace package above the plugin API in any source or test file", () => {
    const offending = sourceFiles(here).flatMap((file) =>
      importedPackages(readFileSync(file, "utf8"))
        .filter((p) => p.startsWith("@kubesched/") && !allowed.has(p))
        .map((p) => `${file.slice(here.length + 1)} imports ${p}`),
    );
    expect(offending).toEqual([]);
  });
});
