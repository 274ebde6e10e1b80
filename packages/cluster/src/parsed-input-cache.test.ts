// Snapshot files parsed once (parsed-input-cache.ts): a load served from memory returns what
// reading the file again returns — objects, warnings, the recorded server version, the input size
// limit — as objects of its own; a changed file, a file with errors and a text are read again.
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type LoadOptions, loadSnapshotFiles, SnapshotLoadError } from "./load";
import { ParsedInputCache } from "./parsed-input-cache";
import { serverVersionAnnotation } from "./server-version";

const dir = mkdtempSync(path.join(tmpdir(), "kubesched-parsed-inputs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const info = { major: "1", minor: "35", gitVersion: "v1.35.2", platform: "linux/amd64" };
const snapshot = (cpu: string) => `apiVersion: v1
items:
- apiVersion: v1
  kind: Node
  metadata: {name: n1, labels: {zone: a}}
  status: {allocatable: {cpu: "${cpu}", memory: 8Gi, pods: "110"}}
- apiVersion: v1
  kind: Pod
  metadata: {name: p1, namespace: other}
  spec: {containers: [{name: c, image: i, resources: {requests: {cpu: 500m}}}]}
- {apiVersion: v1, kind: Secret, metadata: {name: s}}
kind: List
metadata:
  annotations:
    ${serverVersionAnnotation}: '${JSON.stringify(info)}'
`;

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

function load(file: string, opts: LoadOptions = {}) {
  return loadSnapshotFiles([path.basename(file)], dir, opts);
}

function loadErrors(file: string, opts: LoadOptions): SnapshotLoadError {
  try {
    load(file, opts);
  } catch (e) {
    if (e instanceof SnapshotLoadError) return e;
    throw e;
  }
  throw new Error("expected a SnapshotLoadError");
}

describe("ParsedInputCache", () => {
  it("loads a file read before as reading it again would: objects, warnings, server version", () => {
    const file = write("a.yaml", snapshot("4"));
    const fresh = load(file);
    expect(fresh.warnings).toEqual([
      "a.yaml: document 1, item 3: kind Secret is not used by the scheduler; skipped",
    ]);
    const parsedInputs = new ParsedInputCache();
    const first = load(file, { parsedInputs });
    const again = load(file, { parsedInputs });
    expect(parsedInputs.size).toBe(1);
    expect(first).toEqual(fresh);
    expect(again).toEqual(fresh);
    expect(again.serverVersion).toEqual({ info, origin: "a.yaml: document 1" });
  });

  it("gives each load objects of its own: what one run changes, the next does not see", () => {
    const file = write("b.yaml", snapshot("4"));
    const parsedInputs = new ParsedInputCache();
    const first = load(file, { parsedInputs });
    const pod = first.objects.find((o) => o.kind === "Pod")?.obj as { spec: { nodeName?: string } };
    pod.spec.nodeName = "n1";
    const node = first.objects.find((o) => o.kind === "Node")?.obj as {
      metadata: { labels: Record<string, string> };
    };
    node.metadata.labels.zone = "changed";
    expect(load(file, { parsedInputs })).toEqual(load(file));
  });

  it("serves a file from memory while its size and modification time stay, reads it again when they change", () => {
    const file = write("c.yaml", snapshot("4"));
    const then = new Date("2026-01-01T00:00:00Z");
    utimesSync(file, then, then);
    const parsedInputs = new ParsedInputCache();
    load(file, { parsedInputs });
    // Same size, same modification time, other text: the parsed objects are served.
    writeFileSync(file, snapshot("8"));
    utimesSync(file, then, then);
    const cpu = (r: ReturnType<typeof load>) =>
      (r.objects.find((o) => o.kind === "Node")?.obj as { status?: { allocatable?: { cpu?: string } } })
        ?.status?.allocatable?.cpu;
    expect(cpu(load(file, { parsedInputs }))).toBe("4");
    // A new modification time: read again.
    const later = new Date("2026-01-02T00:00:00Z");
    utimesSync(file, later, later);
    expect(cpu(load(file, { parsedInputs }))).toBe("8");
    writeFileSync(file, snapshot("16"));
    expect(cpu(load(file, { parsedInputs }))).toBe("16");
  });

  it("counts a file served from memory against --max-input-size", () => {
    const file = write("d.yaml", snapshot("4"));
    const parsedInputs = new ParsedInputCache();
    load(file, { parsedInputs });
    const e = loadErrors(file, { parsedInputs, maxInputBytes: 100 });
    expect(e.sizeLimit).toEqual({ input: "d.yaml", limit: 100 });
    expect(e.errors).toEqual(loadErrors(file, { maxInputBytes: 100 }).errors);
  });

  it("keeps no file whose reading found errors: each load reports them in full", () => {
    const file = write("e.yaml", `${snapshot("4")}---\nkind: Pod\nmetadata: {name: [\n`);
    const parsedInputs = new ParsedInputCache();
    const first = loadErrors(file, { parsedInputs });
    expect(first.errors.length).toBeGreaterThan(0);
    expect(parsedInputs.size).toBe(0);
    expect(loadErrors(file, { parsedInputs }).errors).toEqual(first.errors);
  });

  it("reads texts (a sweep's node pool) every time", () => {
    const parsedInputs = new ParsedInputCache();
    const file = write("f.yaml", snapshot("4"));
    const pool = { name: "pool", text: "apiVersion: v1\nkind: Node\nmetadata: {name: pool-1}\n" };
    const r = load(file, { parsedInputs, additionalInputs: [pool] });
    expect(r.objects.map((o) => o.obj.metadata?.name)).toEqual(["n1", "p1", "pool-1"]);
    expect(parsedInputs.size).toBe(1);
  });
});
