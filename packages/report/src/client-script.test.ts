// The page's script: the workspace's generated copy is the bundle of src/client/ (what dist/ gets
// at build time), and nothing in it can end its <script> element early.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { bundleClient, clientScriptModule } from "./client-bundle";

const generated = fileURLToPath(new URL("./client-script.generated.ts", import.meta.url));

describe("the report's client script", () => {
  const bundle = bundleClient();
  const fresh = clientScriptModule(bundle);

  it("src/client-script.generated.ts is the bundle of src/client/ (UPDATE_CLIENT_SCRIPT=1 rewrites it)", () => {
    if (process.env.UPDATE_CLIENT_SCRIPT === "1") writeFileSync(generated, fresh);
    const stale = readFileSync(generated, "utf8") !== fresh;
    expect(
      stale,
      "src/client-script.generated.ts is stale: UPDATE_CLIENT_SCRIPT=1 npx vitest run --project @kubesched/report",
    ).toBe(false);
  });

  it("is one self-contained IIFE that cannot end its <script> element early", () => {
    expect(bundle).toMatch(/^"use strict";\(\(\)=>\{.*\}\)\(\);\n$/s);
    expect(bundle).not.toMatch(/<\/script|<!--/i);
    expect(bundle).not.toMatch(/\bimport\b|\brequire\(/);
  });
});
