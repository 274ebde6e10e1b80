import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { trimObject } from "@kubesched/scheduler";
import { afterAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { InputBudget } from "./input-reader";
import { type JsonPart, JsonSplitter } from "./json-stream";
import { loadSnapshotFiles, loadSnapshotTexts, SnapshotLoadError } from "./load";
import { type RawObject, type ReadOptions, readObjects } from "./read-objects";
import { type YamlPart, YamlSplitter } from "./yaml-stream";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "kubesched-read-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function read(
  name: string,
  text: string,
  opts: ReadOptions = {},
): { objects: RawObject[]; errors: string[] } {
  const errors: string[] = [];
  const objects = [...readObjects({ name, text }, errors, opts)];
  return { objects, errors };
}

/** Every item of a big document handed on alone (the streaming path), whatever the size. */
const itemByItem: ReadOptions = { wholeDocumentChars: 0 };

/** How snapshots were read before streaming: the YAML library over the whole text, JSON.parse. */
function readWhole(name: string, text: string): { objects: RawObject[]; errors: string[] } {
  const errors: string[] = [];
  const objects: RawObject[] = [];
  const expand = (v: unknown, origin: string): void => {
    if (v === null || v === undefined) return;
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        expand(x, `${origin}, item ${i + 1}`);
      });
      return;
    }
    if (typeof v !== "object") {
      errors.push(`${origin}: expected a Kubernetes object, got ${typeof v}`);
      return;
    }
    const o = v as { kind?: unknown; apiVersion?: unknown; items?: unknown };
    if (typeof o.kind === "string" && o.kind.endsWith("List") && Array.isArray(o.items)) {
      const itemKind = o.kind === "List" ? undefined : o.kind.slice(0, -4);
      const apiVersion = typeof o.apiVersion === "string" ? { apiVersion: o.apiVersion } : {};
      o.items.forEach((item, i) => {
        const it = item as { kind?: unknown } | null;
        const x =
          it && typeof it === "object" && itemKind && it.kind === undefined
            ? { ...apiVersion, ...it, kind: itemKind }
            : item;
        expand(x, `${origin}, item ${i + 1}`);
      });
      return;
    }
    objects.push({ obj: trimObject(v as Record<string, unknown>), origin });
  };
  if (name.endsWith(".json")) {
    try {
      expand(JSON.parse(text), name);
    } catch (e) {
      errors.push(`${name}: invalid JSON: ${(e as Error).message}`);
    }
    return { objects, errors };
  }
  parseAllDocuments(text).forEach((doc, i) => {
    const origin = `${name}: document ${i + 1}`;
    if (doc.errors.length > 0) {
      for (const e of doc.errors)
        errors.push(`${origin}: invalid YAML: ${(e.message.split("\n")[0] ?? "").replace(/:$/, "")}`);
      return;
    }
    expand(doc.toJS({ maxAliasCount: 1000 }), origin);
  });
  return { objects, errors };
}

const kubectlList = (indent: string) => `apiVersion: v1
items:
${indent}- apiVersion: v1
${indent}  kind: Pod
${indent}  metadata:
${indent}    name: a
${indent}    annotations:
${indent}      note: |
${indent}        - a line that looks like an item
${indent}
${indent}        after a blank line
${indent}      kubectl.kubernetes.io/last-applied-configuration: '{"kind":"Pod"}'
${indent}    managedFields:
${indent}    - manager: kubectl
${indent}  spec:
${indent}    containers:
${indent}    - name: c
${indent}      args: ["x",
${indent}        "y"]
${indent}      env:
${indent}      - name: A
${indent}        value: "multi
${indent}          line"
# a comment at column 0
${indent}- apiVersion: v1
${indent}  kind: Node
${indent}  metadata: { name: n }

${indent}- {apiVersion: v1, kind: Namespace, metadata: {name: team}}
kind: List
metadata:
  resourceVersion: ""
`;

describe("readObjects: YAML", () => {
  it("a kind: List read item by item gives what reading it whole gives (items at column 0 or 2)", () => {
    for (const indent of ["", "  "]) {
      const text = kubectlList(indent);
      const split = read("k.yaml", text, itemByItem);
      expect(split.errors).toEqual([]);
      expect(split).toEqual(readWhole("k.yaml", text));
      expect(split.objects.map((o) => o.origin)).toEqual([
        "k.yaml: document 1, item 1",
        "k.yaml: document 1, item 2",
        "k.yaml: document 1, item 3",
      ]);
      // Trimmed as it is read: managedFields and last-applied-configuration are gone.
      expect(split.objects[0]?.obj.metadata).toEqual({
        name: "a",
        annotations: { note: "- a line that looks like an item\n\nafter a blank line\n" },
      });
    }
  });

  it("typed lists, root sequences and lists among documents, item by item", () => {
    const text = `kind: PodList
items:
- metadata: { name: p1 }
  spec: { containers: [{ name: c }] }
---
- kind: Node
  metadata: { name: n1 }
- kind: Node
  metadata: { name: n2 }
---
kind: Pod
metadata: { name: alone }
items:
- 1
`;
    const split = read("t.yaml", text, itemByItem);
    expect(split).toEqual(readWhole("t.yaml", text));
    expect(split.objects.map((o) => `${o.obj.kind} @ ${o.origin}`)).toEqual([
      "Pod @ t.yaml: document 1, item 1",
      "Node @ t.yaml: document 2, item 1",
      "Node @ t.yaml: document 2, item 2",
      "Pod @ t.yaml: document 3",
    ]);
  });

  it("counts documents as the YAML library does", () => {
    const cases = [
      "a: 1\n",
      "---\na: 1\n",
      "a: 1\n---\n",
      "---\n---\n",
      "# c\n---\na: 1\n",
      "a: 1\n...\n---\nb: 1\n",
      "a: 1\n...\nb: 2\n",
      "",
      "# only a comment\n",
      "%YAML 1.2\n---\na: 1\n",
      "--- a\n--- b\n",
      "a: 1\n---\n# c\n",
      "a: 1\n...\n...\n",
      "---\n...\n",
      "kind: Node\nmetadata: {name: n}\n---\r\nkind: Node\r\nmetadata: {name: m}\r\n",
    ];
    for (const text of cases)
      expect(read("d.yaml", text), JSON.stringify(text)).toEqual(readWhole("d.yaml", text));
  });

  it("reads every snapshot of the repository as the YAML library reads it, errors included", () => {
    const files = [
      "examples/cluster.yaml",
      "examples/preemption.yaml",
      "examples/workloads/deployment.yaml",
      "examples/workloads/web-pod.yaml",
      "examples/gang-scheduling/cluster.yaml",
      "examples/elastic-quota/cluster.yaml",
      ...fs
        .readdirSync(path.join(root, "examples/invalid/clusters"))
        .map((f) => `examples/invalid/clusters/${f}`),
      "packages/cluster/test-fixtures/dir/01-nodes.yaml",
      "packages/cluster/test-fixtures/dir/02-pods.json",
    ];
    for (const f of files) {
      const text = fs.readFileSync(path.join(root, f), "utf8");
      const name = f.endsWith(".txt") ? f.replace(/\.txt$/, ".yaml") : f;
      const whole = readWhole(name, text);
      expect(read(name, text), f).toEqual(whole);
      if (!name.endsWith(".json")) expect(read(name, text, itemByItem), f).toEqual(whole);
    }
  });

  it("errors of a list read item by item name the item, with the line in the input", () => {
    const text =
      "kind: List\nitems:\n- kind: Node\n  metadata: { name: n\n- kind: Node\n  metadata: *other\n";
    expect(read("e.yaml", text, itemByItem).errors).toEqual([
      "e.yaml: document 1, item 1: invalid YAML: Flow map in block collection must be sufficiently indented and end with a } at line 5, column 1",
      "e.yaml: document 1, item 2: invalid YAML: Unresolved alias (the anchor must be set before the alias): other",
    ]);
    // A later document's errors are at its own lines too.
    expect(read("e.yaml", "a: 1\n---\nb: [\n", {}).errors[0]).toMatch(
      /^e\.yaml: document 2: invalid YAML: .* at line 4, column 1$/,
    );
  });

  it("anchors and aliases within a document still work (the YAML library reads them, with its alias limit)", () => {
    const text = "kind: Node\nmetadata: { name: n, labels: &l { a: b } }\nspec: { x: *l }\n";
    expect(read("a.yaml", text).objects[0]?.obj).toEqual({
      kind: "Node",
      metadata: { name: "n", labels: { a: "b" } },
      spec: { x: { a: "b" } },
    });
    const bomb = `a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n`;
    expect(read("bomb.yaml", bomb).errors).toEqual([
      "bomb.yaml: document 1: invalid YAML: Excessive alias count indicates a resource exhaustion attack",
    ]);
  });

  it("one object larger than the per-object limit is an error, not a memory spike", () => {
    const big = `kind: ConfigMap\ndata:\n${"  k: v\n".repeat(2000)}`;
    expect(read("b.yaml", big, { maxObjectChars: 4096, wholeDocumentChars: 1024 }).errors).toEqual([
      "b.yaml: document 1 (from line 1) is larger than 4Ki and is not a list of items: no Kubernetes object is that big",
    ]);
    expect(read("l.yaml", `x${"y".repeat(10_000)}`, { maxObjectChars: 4096 }).errors[0]).toMatch(
      /^l\.yaml: line 1 is longer than/,
    );
  });
});

describe("readObjects: JSON", () => {
  const pod = (name: string) => ({ kind: "Pod", metadata: { name }, spec: { containers: [{ name: "c" }] } });

  it("a list's items, a root array, a typed list whose kind comes last, one object", () => {
    const cases = [
      JSON.stringify(
        { apiVersion: "v1", items: [pod("a"), { kind: "Node", metadata: { name: "n" } }], kind: "List" },
        null,
        4,
      ),
      JSON.stringify([pod("a"), [pod("b")], { kind: "List", items: [pod("c")] }]),
      JSON.stringify({ items: [{ metadata: { name: 'q"\\' } }], apiVersion: "v1", kind: "PodList" }),
      JSON.stringify({ kind: "PodList", items: [] }),
      JSON.stringify(pod("one")),
      JSON.stringify({ kind: "Pod", metadata: { name: "x" }, items: [1, 2] }),
      JSON.stringify({}),
      "[]",
      '"a string"',
      "42",
    ];
    for (const text of cases) expect(read("c.json", text), text).toEqual(readWhole("c.json", text));
  });

  it("splits the same wherever the chunks break (strings, escapes, numbers)", () => {
    const text = JSON.stringify({
      kind: "List",
      items: [
        pod('a\\"b'),
        { kind: "Node", metadata: { name: "n", labels: { "x\\\\": "\\" } }, n: -1.5e3 },
        7,
        "s",
      ],
      metadata: { resourceVersion: "" },
    });
    const parts = (chunk: number): JsonPart[] => {
      const out: JsonPart[] = [];
      const s = new JsonSplitter((p) => out.push(p), 1 << 20);
      for (let i = 0; i < text.length; i += chunk) s.feed(text.slice(i, i + chunk));
      s.end();
      return out;
    };
    const whole = parts(text.length);
    for (const n of [1, 2, 3, 7]) expect(parts(n), `chunks of ${n}`).toEqual(whole);
    expect(whole.filter((p) => p.type === "element")).toHaveLength(4);
  });

  it("structure errors say what and where; an element's own error has its line", () => {
    const errs = (text: string) => read("c.json", text).errors;
    expect(errs('[{"a": 1} {"b": 2}]')).toEqual([
      'c.json: invalid JSON: expected "," or "]" after an array element, found "{" at line 1, column 11',
    ]);
    expect(errs('{"kind": "List", "items": [1]} x')).toEqual([
      'c.json: invalid JSON: unexpected "x" after the JSON value at line 1, column 32',
    ]);
    expect(errs('{"kind": "Pod",')).toEqual(["c.json: invalid JSON: unexpected end of input at line 1"]);
    expect(errs('{"items": [\n  {"a": 1},\n  {"b": }\n]}')[0]).toMatch(
      /^c\.json: invalid JSON: .*(at line 3, column 9|\(in the value from line 3\))$/,
    );
    expect(errs("[1,]")).toEqual(['c.json: invalid JSON: unexpected "]" at line 1, column 4']);
  });

  it("one element larger than the per-object limit is an error", () => {
    const text = JSON.stringify([{ kind: "ConfigMap", data: "x".repeat(10_000) }]);
    expect(read("c.json", text, { maxObjectChars: 4096 }).errors).toEqual([
      "c.json: item 1 (from line 1) is larger than 4Ki: no Kubernetes object is that big",
    ]);
  });
});

describe("readObjects: what is read", () => {
  it("binary data (a NUL byte) stops reading at once", () => {
    expect(read("z.yaml", "kind: Node\n\0\0\0").errors).toEqual([
      "z.yaml: line 2: not a text file (a NUL byte); expected YAML or JSON",
    ]);
    if (fs.existsSync("/dev/zero")) {
      const errors: string[] = [];
      expect([...readObjects({ name: "/dev/zero", path: "/dev/zero" }, errors)]).toEqual([]);
      expect(errors).toEqual(["/dev/zero: line 1: not a text file (a NUL byte); expected YAML or JSON"]);
    }
  });

  it("the input size limit counts the bytes read over every input, and stops the load", () => {
    const a = path.join(tmp, "a.yaml");
    const b = path.join(tmp, "b.yaml");
    fs.writeFileSync(a, "kind: Node\nmetadata: { name: a }\n".repeat(1));
    fs.writeFileSync(b, `${"# padding\n".repeat(100)}kind: Node\nmetadata: { name: b }\n`);
    expect(loadSnapshotFiles(["a.yaml", "b.yaml"], tmp, { maxInputBytes: 2000 }).objects).toHaveLength(2);
    let err: unknown;
    try {
      loadSnapshotFiles(["a.yaml", "b.yaml"], tmp, { maxInputBytes: 1000 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SnapshotLoadError);
    expect((err as SnapshotLoadError).errors).toEqual([
      "b.yaml: the input is larger than the input size limit (1000 bytes in total)",
    ]);
    expect((err as SnapshotLoadError).sizeLimit).toEqual({ input: "b.yaml", limit: 1000 });
    expect(() =>
      loadSnapshotTexts([{ name: "t.yaml", text: "x: 1\n".repeat(10) }], { maxInputBytes: 10 }),
    ).toThrow("t.yaml: the input is larger than the input size limit (10 bytes in total)");
  });

  it.skipIf(process.platform === "win32")("a FIFO is read as it is written, up to the limit", async () => {
    const fifo = path.join(tmp, "pipe.yaml");
    execFileSync("mkfifo", [fifo]);
    const writer = spawn("sh", ["-c", `printf 'kind: Node\\nmetadata: { name: f }\\n' > '${fifo}'`]);
    const r = loadSnapshotFiles(["pipe.yaml"], tmp);
    expect(r.objects.map((o) => o.obj.metadata?.name)).toEqual(["f"]);
    await new Promise((resolve) => writer.on("close", resolve));
    const flood = spawn("sh", ["-c", `yes 'a: b' > '${fifo}' 2>/dev/null`]);
    expect(() => loadSnapshotFiles(["pipe.yaml"], tmp, { maxInputBytes: 1 << 20 })).toThrow(
      "pipe.yaml: the input is larger than the input size limit (1Mi in total)",
    );
    flood.kill();
  });

  it("a directory named as a file is an error naming it", () => {
    const errors: string[] = [];
    expect([...readObjects({ name: "d", path: tmp }, errors, { budget: new InputBudget(1e6) })]).toEqual([]);
    expect(errors).toEqual(["d: is a directory"]);
  });
});

describe("YamlSplitter", () => {
  it("hands on the same parts wherever the chunks break", () => {
    const text = kubectlList("");
    const parts = (chunk: number): YamlPart[] => {
      const out: YamlPart[] = [];
      const s = new YamlSplitter((p) => out.push(p), { wholeDocumentChars: 0, maxObjectChars: 1 << 20 });
      for (let i = 0; i < text.length; i += chunk) s.feed(text.slice(i, i + chunk));
      s.end();
      return out;
    };
    const whole = parts(text.length);
    expect(whole.map((p) => p.type)).toEqual(["item", "item", "item", "envelope"]);
    for (const n of [1, 5, 64]) expect(parts(n), `chunks of ${n}`).toEqual(whole);
  });
});
