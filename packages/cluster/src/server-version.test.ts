// The server version a snapshot records (server-version.ts), read from every shape of List the
// loader reads: a YAML document parsed whole, a big YAML list streamed item by item, JSON.
import { describe, expect, it } from "vitest";
import { loadSnapshotTexts, SnapshotLoadError } from "./load";
import { readObjects } from "./read-objects";
import { serverVersionAnnotation, snapshotList } from "./server-version";

const info = { major: "1", minor: "35", gitVersion: "v1.35.2", platform: "linux/amd64" };
const node = { apiVersion: "v1", kind: "Node", metadata: { name: "n1" } };
const yamlList = (n: number) =>
  [
    "apiVersion: v1",
    "items:",
    ...Array.from({ length: n }, (_, i) => `- {apiVersion: v1, kind: Node, metadata: {name: n${i}}}`),
    "kind: List",
    "metadata:",
    "  annotations:",
    `    ${serverVersionAnnotation}: '${JSON.stringify(info)}'`,
    "",
  ].join("\n");

describe("the server version a snapshot records", () => {
  it("is read from a List's annotation, in YAML and JSON, and the List's items load as before", () => {
    const fromJSON = loadSnapshotTexts([
      { name: "s.json", text: JSON.stringify(snapshotList([node], info)) },
    ]);
    expect(fromJSON.serverVersion).toEqual({ info, origin: "s.json" });
    expect(fromJSON.objects.map((o) => o.kind)).toEqual(["Node"]);
    const fromYAML = loadSnapshotTexts([{ name: "s.yaml", text: yamlList(2) }]);
    expect(fromYAML.serverVersion).toEqual({ info, origin: "s.yaml: document 1" });
    expect(fromYAML.objects).toHaveLength(2);
  });

  it("is read from a big YAML list streamed item by item (kubectl writes metadata after items)", () => {
    const lists: unknown[] = [];
    const objects = [
      ...readObjects({ name: "big.yaml", text: yamlList(50) }, [], {
        wholeDocumentChars: 100,
        onListMetadata: (m) => lists.push(m),
      }),
    ];
    expect(objects).toHaveLength(50);
    expect(lists).toEqual([{ annotations: { [serverVersionAnnotation]: JSON.stringify(info) } }]);
  });

  it("is absent from files that record none; a snapshot without a version writes none", () => {
    expect(
      loadSnapshotTexts([{ name: "s.json", text: JSON.stringify(snapshotList([node])) }]).serverVersion,
    ).toBe(undefined);
    expect(snapshotList([node]).metadata).toEqual({});
  });

  it("two inputs that record different versions: the first, with a warning", () => {
    const other = { ...info, gitVersion: "v1.34.0" };
    const r = loadSnapshotTexts([
      { name: "a.json", text: JSON.stringify(snapshotList([node], info)) },
      { name: "b.json", text: JSON.stringify(snapshotList([], other)) },
    ]);
    expect(r.serverVersion?.info.gitVersion).toBe("v1.35.2");
    expect(r.warnings).toContain("b.json: records server version v1.34.0, a.json v1.35.2; using the first");
  });

  it("an annotation that is not a /version answer is an error naming the field", () => {
    const list = {
      ...snapshotList([node]),
      metadata: { annotations: { [serverVersionAnnotation]: '{"major":"1"}' } },
    };
    let errors: string[] = [];
    try {
      loadSnapshotTexts([{ name: "s.json", text: JSON.stringify(list) }]);
    } catch (e) {
      if (e instanceof SnapshotLoadError) errors = e.errors;
    }
    expect(errors).toEqual([
      `s.json: metadata.annotations["kubesched.io/server-version"]: expected the JSON of an API server's /version with its gitVersion, got "{\\"major\\":\\"1\\"}"`,
    ]);
  });
});
