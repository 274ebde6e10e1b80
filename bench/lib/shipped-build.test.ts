// The bench's loader compiles the workspace's TypeScript as tsup ships it: no keepNames wrappers
// (`__name(...)`, which tsx adds to every function), an inline source map; other files untouched.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module without types (node loads it as a hook).
import { load } from "./shipped-build-hooks.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "kubesched-shipped-build-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const source = `import type { Pod } from "@kubesched/api";
export class Counter { n = 0; constructor(private readonly step: number) {} add(): number { return (this.n += this.step); } }
export const names = (pods: readonly Pod[]) => pods.map((p) => p.metadata?.name);
`;

type Load = (
  url: string,
  context: object,
  next: (url: string, context: object) => Promise<{ source: string }>,
) => Promise<{ format?: string; source: string; shortCircuit?: boolean }>;

describe("bench/lib/shipped-build", () => {
  it("compiles a workspace .ts file without keepNames, with an inline source map", async () => {
    const file = join(tmp, "counter.ts");
    writeFileSync(file, source);
    const r = await (load as Load)(pathToFileURL(file).href, {}, () => {
      throw new Error("not handed on");
    });
    expect(r.format).toBe("module");
    expect(r.shortCircuit).toBe(true);
    expect(r.source).not.toContain("__name");
    expect(r.source).not.toContain("@kubesched/api"); // the type-only import is gone
    expect(r.source).toContain("sourceMappingURL=data:application/json");
  });

  it("hands other files on", async () => {
    const r = await (load as Load)("file:///x/node_modules/y/z.ts", {}, async () => ({ source: "next" }));
    expect(r.source).toBe("next");
  });

  it("runs a workspace module under node as the bench starts its processes", {
    timeout: 60_000,
  }, async () => {
    const file = join(tmp, "main.ts");
    writeFileSync(
      file,
      `${source}\nconsole.log(new Counter(2).add() + new Counter(3).add(), String(Counter).includes("__name"));\n`,
    );
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "--import", pathToFileURL(join(here, "shipped-build.mjs")).href, file],
      { timeout: 60_000 },
    );
    expect(stdout.trim()).toBe("5 false");
  });
});
