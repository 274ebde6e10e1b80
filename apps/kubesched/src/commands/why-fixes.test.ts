// The proof of `kubesched why`'s verified fixes (issue 24's "Done when"): every fix why prints, on
// the bundled example and on random clusters, is applied to the snapshot by hand — the printed
// kubectl commands and manifest edits carried out on the YAML documents by this file's own code,
// not by the counterfactual engine — and `kubesched simulate` then places the pod where why said.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SimulationResult, WhyReport } from "@kubesched/cluster";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments, stringify } from "yaml";
// The random clusters of the cluster package's property tests (a test utility, not its API).
import { randomCluster } from "../../../../packages/cluster/src/random-cluster.test-util";
import { repoRoot, runFromRoot, whyReportReader } from "./why-cli.test-util";

const tmp = mkdtempSync(join(tmpdir(), "kubesched-why-fixes-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = runFromRoot;

// Every -o json report below must be valid against the schema `why --schema` prints.
let report: (json: string) => WhyReport;
beforeAll(async () => {
  report = await whyReportReader();
});

// biome-ignore lint/suspicious/noExplicitAny: YAML documents edited by path, as a user edits them
type Doc = Record<string, any>;

function nameOf(d: Doc): string {
  return d.metadata?.name ?? "";
}

function podDoc(docs: Doc[], ns: string, name: string): number {
  const i = docs.findIndex(
    (d) => d.kind === "Pod" && (d.metadata?.namespace ?? "default") === ns && nameOf(d) === name,
  );
  expect(i, `pod ${ns}/${name}`).toBeGreaterThanOrEqual(0);
  return i;
}

function nodeDoc(docs: Doc[], name: string): Doc {
  const d = docs.find((x) => x.kind === "Node" && nameOf(x) === name);
  expect(d, `node ${name}`).toBeDefined();
  return d as Doc;
}

const cordonTaint = "node.kubernetes.io/unschedulable";

/** `spec.containers[0].resources.requests.cpu` → the object holding the last key, and that key. */
function at(doc: Doc, path: string): { holder: Doc; key: string } {
  const keys = path.split(".").flatMap((p) => {
    const m = /^([^[]+)((?:\[\d+\])*)$/.exec(p);
    return m ? [m[1] as string, ...[...(m[2] ?? "").matchAll(/\[(\d+)\]/g)].map((x) => Number(x[1]))] : [p];
  });
  let cur: Doc = doc;
  for (const k of keys.slice(0, -1)) {
    cur[k] ??= {};
    cur = cur[k];
  }
  return { holder: cur, key: String(keys.at(-1)) };
}

/** Carries out one printed command or manifest edit on the documents, as a user would. */
function carryOut(docs: Doc[], line: string, pod: { ns: string; name: string }): Doc[] {
  let m = /^kubectl uncordon (\S+)$/.exec(line);
  if (m) {
    // kubectl clears spec.unschedulable; the node lifecycle controller then drops the cordon taint.
    const n = nodeDoc(docs, m[1] as string);
    delete n.spec.unschedulable;
    n.spec.taints = (n.spec.taints ?? []).filter((t: Doc) => t.key !== cordonTaint);
    return docs;
  }
  m = /^kubectl taint nodes (\S+) ([^=:\s]+)(?:=([^:\s]*))?:(\w+)-$/.exec(line);
  if (m) {
    const [, node, key, value, effect] = m;
    const n = nodeDoc(docs, node as string);
    n.spec.taints = n.spec.taints.filter(
      (t: Doc) => !(t.key === key && (t.value ?? "") === (value ?? "") && t.effect === effect),
    );
    return docs;
  }
  m = /^kubectl taint nodes (\S+) ([^=:\s]+)(?:=([^:\s]*))?:(\w+)$/.exec(line);
  if (m) {
    const [, node, key, value, effect] = m;
    const n = nodeDoc(docs, node as string);
    n.spec.taints = [...(n.spec.taints ?? []), { key, ...(value ? { value } : {}), effect }];
    return docs;
  }
  m = /^kubectl label nodes (\S+) ([^=\s]+)=(\S*)$/.exec(line);
  if (m) {
    const n = nodeDoc(docs, m[1] as string);
    n.metadata.labels = { ...n.metadata.labels, [m[2] as string]: m[3] };
    return docs;
  }
  m = /^kubectl delete pod -n (\S+) (\S+)( {2}# its controller re-creates it)?$/.exec(line);
  if (m) {
    const [old] = docs.splice(podDoc(docs, m[1] as string, m[2] as string), 1) as [Doc];
    if (m[3]) {
      // Re-created pending, after everything else.
      const { nodeName: _, ...spec } = old.spec;
      docs.push({ ...old, spec, status: {} });
    }
    return docs;
  }
  m = /^kubectl patch pod -n (\S+) (\S+) --type=json -p '(.*)'$/.exec(line);
  if (m) {
    const d = docs[podDoc(docs, m[1] as string, m[2] as string)] as Doc;
    for (const op of JSON.parse(m[3] as string) as { op: string; path: string; value: unknown }[]) {
      expect(op.op).toBe("add");
      if (op.path === "/spec/tolerations/-") d.spec.tolerations.push(op.value);
      else if (op.path === "/spec/tolerations") d.spec.tolerations = op.value;
      else throw new Error(`unexpected patch path ${op.path}`);
    }
    return docs;
  }
  m = /^add nodes? (.+) with the labels, taints and allocatable of (\S+) \(its node pool\)$/.exec(line);
  if (m) {
    const like = nodeDoc(docs, m[2] as string);
    for (const name of (m[1] as string).split(", ")) {
      const labels = { ...like.metadata.labels };
      if (labels["kubernetes.io/hostname"] !== undefined) labels["kubernetes.io/hostname"] = name;
      const taints = (like.spec?.taints ?? []).filter((t: Doc) => t.key !== cordonTaint);
      docs.push({
        apiVersion: "v1",
        kind: "Node",
        metadata: { name, labels },
        spec: taints.length > 0 ? { taints } : {},
        status: { capacity: like.status.capacity, allocatable: like.status.allocatable },
      });
    }
    return docs;
  }
  m = /^edit the pod's manifest \(or its controller's pod template\): (\S+): (.*)$/.exec(line);
  if (m) {
    const d = docs[podDoc(docs, pod.ns, pod.name)] as Doc;
    const [, path, value] = m as unknown as [string, string, string];
    const { holder, key } = at(d, path);
    const requirement = /^remove the requirement on (\S+)$/.exec(value)?.[1];
    const term = /^remove the term with topologyKey (\S+)$/.exec(value)?.[1];
    if (value === "(remove)") delete holder[key];
    else if (requirement !== undefined) {
      const t = holder[key];
      for (const f of ["matchExpressions", "matchFields"]) {
        t[f] = (t[f] ?? []).filter((e: Doc) => e.key !== requirement);
        if (t[f].length === 0) delete t[f];
      }
      // An empty term matches no node: it goes, and the required affinity with the last one.
      if (Object.keys(t).length === 0) {
        holder.splice(Number(key), 1);
        if (holder.length === 0)
          delete d.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution;
      }
    } else if (term !== undefined) {
      holder[key] = holder[key].filter((t: Doc) => t.topologyKey !== term);
      if (holder[key].length === 0) delete holder[key];
    } else holder[key] = key === "maxSkew" ? Number(value) : value;
    return docs;
  }
  throw new Error(`a printed fix this test cannot carry out: ${line}`);
}

function readDocs(text: string): Doc[] {
  return parseAllDocuments(text)
    .map((d) => d.toJSON() as Doc | null)
    .filter((d): d is Doc => d !== null);
}

let files = 0;
/** Applies every command of every fix, one fix at a time, and simulates as the CLI does. */
async function proveByHand(snapshot: Doc[], r: WhyReport, label: string): Promise<void> {
  const pod = { ns: r.pod.namespace, name: r.pod.name };
  // --fix-alone: the other pending pods are not there.
  const alone = (d: Doc) =>
    d.kind !== "Pod" ||
    d.spec?.nodeName ||
    (nameOf(d) === pod.name && (d.metadata?.namespace ?? "default") === pod.ns);
  for (const fix of r.fixes ?? []) {
    let docs = structuredClone(r.fixSearch?.withPendingPods === false ? snapshot.filter(alone) : snapshot);
    for (const line of fix.kubectl) docs = carryOut(docs, line, pod);
    const file = join(tmp, `fixed-${files++}.yaml`);
    writeFileSync(file, docs.map((d) => stringify(d)).join("---\n"));
    const sim = await run("simulate", "--cluster", file, "-o", "json");
    expect(sim.code, sim.stderr).toBe(0);
    const placed = (JSON.parse(sim.stdout) as SimulationResult).pods.find(
      (p) => p.namespace === pod.ns && p.name === pod.name,
    );
    expect({ fix: `${label}: ${fix.description}`, node: placed?.node }).toEqual({
      fix: `${label}: ${fix.description}`,
      node: fix.node,
    });
  }
}

describe("kubesched why: verified fixes", { timeout: 180_000 }, () => {
  it("on the bundled example, render-xl gets at least two fixes, each placing it where why says when applied by hand", async () => {
    const table = await run("why", "default/render-xl", "--cluster", "examples/cluster.yaml");
    expect(table.stderr).toBe("");
    expect(table.stdout).toContain(
      "Fixes (each proven by simulating the changed cluster with every pending pod):\n" +
        "  1. [pod] add the toleration dedicated=gpu:NoSchedule: the pod lands on gpu-c2\n" +
        "       other pods that would no longer fit: none\n",
    );
    const json = await run("why", "default/render-xl", "--cluster", "examples/cluster.yaml", "-o", "json");
    const r = report(json.stdout);
    expect(r.fixes?.length).toBeGreaterThanOrEqual(2);
    expect(r.fixSearch).toMatchObject({ budgetSeconds: 60, exhausted: false });
    expect(r.fixes?.map((f) => [f.kind, f.target, f.size, f.node])).toEqual([
      ["AddToleration", "pod", 1, "gpu-c2"],
      ["SetTaintEffect", "cluster", 1, "gpu-c2"],
      ["SetContainerRequests", "pod", 2, "node-b2"],
    ]);
    // Sizes never decrease down the list.
    const sizes = r.fixes?.map((f) => f.size) ?? [];
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    await proveByHand(readDocs(readFileSync(join(repoRoot, "examples/cluster.yaml"), "utf8")), r, "example");
  });

  it("proves cluster-side fixes too: uncordon, a label, moving a named pod, nodes like an existing one", async () => {
    const snapshot = `apiVersion: v1
kind: Node
metadata: {name: cordoned, labels: {kubernetes.io/hostname: cordoned, disk: ssd}}
spec: {unschedulable: true, taints: [{key: node.kubernetes.io/unschedulable, effect: NoSchedule}]}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: hdd, labels: {kubernetes.io/hostname: hdd, disk: hdd}}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: full, labels: {kubernetes.io/hostname: full, disk: ssd}}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: filler, namespace: default}
spec: {nodeName: full, containers: [{name: c, image: x, resources: {requests: {cpu: "1500m"}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: app, namespace: default}
spec:
  nodeSelector: {disk: ssd}
  containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
`;
    const file = join(tmp, "cluster-side.yaml");
    writeFileSync(file, snapshot);
    const r = report(
      (await run("why", "default/app", "--cluster", file, "-o", "json", "--max-fixes", "10")).stdout,
    );
    const kinds = r.fixes?.map((f) => f.kind) ?? [];
    expect(kinds).toEqual(
      expect.arrayContaining(["Uncordon", "SetNodeLabel", "RemoveNodeSelectorKey", "MovePods", "AddNodes"]),
    );
    const moved = r.fixes?.find((f) => f.kind === "MovePods");
    // filler, re-created by its controller, lands on hdd (it has no nodeSelector): nothing displaced.
    expect(moved).toMatchObject({
      node: "full",
      moved: [{ pod: "default/filler", node: "hdd" }],
      displaces: [],
    });
    await proveByHand(readDocs(snapshot), r, "cluster-side");

    const one = report(
      (await run("why", "default/app", "--cluster", file, "-o", "json", "--max-fixes", "1")).stdout,
    );
    expect(one.fixes).toHaveLength(1);
    expect(one.fixes?.[0]?.size).toBe(1);
  });

  it("--fix-alone proves fixes with the pod alone: removing gpu-c2's taint then suffices", async () => {
    const out = await run(
      "why",
      "default/render-xl",
      "--cluster",
      "examples/cluster.yaml",
      "-o",
      "json",
      "--fix-alone",
    );
    const r = report(out.stdout);
    expect(r.fixSearch?.withPendingPods).toBe(false);
    expect(r.fixes?.map((f) => [f.kind, f.node])).toContainEqual(["RemoveTaint", "gpu-c2"]);
    await proveByHand(readDocs(readFileSync(join(repoRoot, "examples/cluster.yaml"), "utf8")), r, "alone");
  });

  it("--no-fixes leaves them out; --fix-budget 0 says the budget ran out", async () => {
    const ex = ["default/render-xl", "--cluster", "examples/cluster.yaml", "-o", "json"];
    const none = report((await run("why", ...ex, "--no-fixes")).stdout);
    expect(none.fixes).toBeUndefined();
    expect(none.fixSearch).toBeUndefined();
    const out = await run("why", ...ex, "--fix-budget", "0");
    expect(report(out.stdout).fixSearch).toEqual({
      budgetSeconds: 0,
      exhausted: true,
      tried: 0,
      withPendingPods: true,
      note: expect.stringContaining("the time budget (0 s of wall-clock time) ran out"),
    });
    const table = await run(
      "why",
      "default/render-xl",
      "--cluster",
      "examples/cluster.yaml",
      "--fix-budget",
      "0",
    );
    expect(table.stdout).toContain("  none found\n  (the time budget (0 s of wall-clock time) ran out with");
    const bad = await run("why", ...ex, "--max-fixes", "0");
    expect(bad.code).toBe(2);
    const small = join(tmp, "small.yaml");
    writeFileSync(
      small,
      "apiVersion: v1\nkind: Pod\nmetadata: {name: small}\nspec: {containers: [{name: c, image: x}]}\n",
    );
    const fits = report(
      (await run("why", "-f", small, "--cluster", "examples/cluster.yaml", "-o", "json")).stdout,
    );
    expect([fits.fixes, fits.fixSearch?.note]).toEqual([[], "the pod fits a node: no fix needed"]);
    // A pod that is only a manifest (-f): its fixes are edits of the manifest, never a kubectl
    // patch of a pod the cluster does not have.
    const gpu = join(tmp, "gpu.yaml");
    writeFileSync(
      gpu,
      "apiVersion: v1\nkind: Pod\nmetadata: {name: gpu-job, namespace: default}\nspec:\n  nodeSelector: {accelerator: nvidia}\n  containers: [{name: c, image: x, resources: {requests: {cpu: 100m}}}]\n",
    );
    const manifest = report(
      (await run("why", "-f", gpu, "--cluster", "examples/cluster.yaml", "--max-fixes", "20", "-o", "json"))
        .stdout,
    );
    const toleration = manifest.fixes?.find((f) => f.kind === "AddToleration");
    expect(toleration?.kubectl).toEqual([
      expect.stringMatching(
        /^edit the pod's manifest \(or its controller's pod template\): spec\.tolerations: add \{/,
      ),
    ]);
    expect(
      manifest.fixes?.flatMap((f) => f.kubectl).filter((k) => k.startsWith("kubectl patch pod")),
    ).toEqual([]);
  });

  it("on random clusters, every printed fix places the pod where why says when applied by hand (with the other pending pods or, for odd seeds, alone)", async () => {
    let proven = 0;
    const kinds = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), async (seed) => {
        const c = randomCluster({ seed, nodes: 6, running: 6, pending: 8 });
        const docs: Doc[] = [
          ...c.nodes.map((n) => ({ apiVersion: "v1", kind: "Node", ...n })),
          ...c.pods.map((p) => ({ apiVersion: "v1", kind: "Pod", ...p })),
        ];
        const file = join(tmp, `random-${seed}.yaml`);
        writeFileSync(file, docs.map((d) => stringify(d)).join("---\n"));
        const sim = JSON.parse(
          (await run("simulate", "--cluster", file, "-o", "json")).stdout,
        ) as SimulationResult;
        const stuck = sim.pods.find((p) => p.outcome === "Unschedulable");
        if (stuck === undefined) return;
        const alone = seed % 2 === 1 ? ["--fix-alone"] : [];
        const out = await run(
          "why",
          `${stuck.namespace}/${stuck.name}`,
          "--cluster",
          file,
          "-o",
          "json",
          ...alone,
        );
        expect(out.stderr).toBe("");
        const r = report(out.stdout);
        proven += r.fixes?.length ?? 0;
        for (const f of r.fixes ?? []) kinds.add(f.kind);
        await proveByHand(docs, r, `seed ${seed}`);
      }),
      { numRuns: 20, seed: 24 },
    );
    // The property is not vacuous: fixes were found and proven.
    expect(proven).toBeGreaterThan(5);
    // Pod and cluster changes both, several kinds.
    expect(kinds.size).toBeGreaterThan(5);
  });
});
