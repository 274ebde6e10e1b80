// KubeSchedulerConfiguration is declared once (types.ts): decoding, defaults, validation, the JSON
// Schema and encoding each import that declaration, and no other source file declares fields.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const read = (file: string) => readFileSync(join(here, file), "utf8");

/** The names a file imports from `from` (values and types). */
function namesImported(text: string, from: string): string[] {
  return [...text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*"([^"]+)"/g)]
    .filter((m) => m[2] === from)
    .flatMap((m) => (m[1] ?? "").split(",").map((n) => n.replace(/^\s*type\s+/, "").trim()))
    .filter(Boolean);
}

describe("the one declaration", () => {
  for (const file of ["decode.ts", "defaults.ts", "validation.ts", "schema.ts", "encode.ts"]) {
    it(`${file} derives from it`, () => {
      expect(namesImported(read(file), "./types")).toContain("configuration");
    });
  }

  it("is the only place that declares fields (TypeBox's Type)", () => {
    const sources = readdirSync(here).filter((f) => f.endsWith(".ts") && !f.includes(".test"));
    const declaring = sources.filter((f) => namesImported(read(f), "@kubesched/framework").includes("Type"));
    expect(declaring).toEqual(["types.ts"]);
  });
});
