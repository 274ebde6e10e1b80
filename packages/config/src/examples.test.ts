// Every KubeSchedulerConfiguration under examples/ round-trips through the one declaration:
// decode → defaults → encode → decode gives the same configuration, and encoding it again gives
// the same v1 JSON. Files that do not decode are the invalid examples (examples/invalid).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { FieldError } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { DocumentError, decodeConfiguration, parseDocumentText } from "./decode";
import { setDefaults } from "./defaults";
import { configToYAML, encodeConfig } from "./encode";
import { loadConfig } from "./load";
import { fakeRegistry } from "./test-registry";
import { Kind } from "./types";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const examples = join(repo, "examples");

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlFiles(join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

const configs = yamlFiles(examples).filter((f) =>
  new RegExp(`^kind:\\s*${Kind}\\s*$`, "m").test(readFileSync(f, "utf8")),
);

/** The fake registry plus every plugin the file names (out-of-tree ones, as plugins without args). */
function registryFor(raw: unknown): ReturnType<typeof fakeRegistry> {
  const names = (decodeConfiguration(raw, []).profiles ?? []).flatMap((p) => [
    ...Object.values(p.plugins ?? {}).flatMap((set) => (set?.enabled ?? []).map((e) => e.name)),
    ...(p.pluginConfig ?? []).map((c) => c.name),
  ]);
  const known = fakeRegistry();
  return fakeRegistry(...new Set(names.filter((n) => !known.has(n))));
}

function decodeAndDefault(raw: unknown, registry: ReturnType<typeof fakeRegistry>) {
  const errors: FieldError[] = [];
  const cfg = setDefaults(decodeConfiguration(raw, errors), { registry }, errors);
  return { cfg, errors };
}

describe("the example configurations round-trip", () => {
  it("finds them", () => {
    const names = configs.map((f) => relative(examples, f));
    expect(names).toEqual(
      expect.arrayContaining(["config/default.yaml", "gang-scheduling/scheduler-config.yaml"]),
    );
  });

  for (const file of configs) {
    const name = relative(repo, file);
    it(name, () => {
      let raw: unknown;
      try {
        raw = parseDocumentText(readFileSync(file, "utf8"));
        decodeConfiguration(raw, []);
      } catch (e) {
        // Not a v1 document at all (apiVersion or kind): only an invalid example may be one.
        expect(e).toBeInstanceOf(DocumentError);
        expect(name).toMatch(/^examples\/invalid\//);
        return;
      }
      const registry = registryFor(raw);
      const first = decodeAndDefault(raw, registry);
      if (first.errors.length > 0) {
        expect(name).toMatch(/^examples\/invalid\//);
        return;
      }
      const encoded = encodeConfig(first.cfg, registry);
      const second = decodeAndDefault(JSON.parse(JSON.stringify(encoded)), registry);
      expect(second.errors).toEqual([]);
      expect(second.cfg).toEqual(first.cfg);
      expect(encodeConfig(second.cfg, registry)).toEqual(encoded);
      if (!name.startsWith("examples/invalid/")) {
        // A valid example also loads (decoding, defaults and validation) from its printed YAML.
        expect(loadConfig(configToYAML(first.cfg, registry), { registry })).toEqual(first.cfg);
      }
    });
  }
});
