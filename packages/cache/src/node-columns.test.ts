// The snapshot's NodeColumns are maintained incrementally by Cache.updateSnapshot (the NodeInfos
// it replaced, a rebuild when nodes come and go): after any sequence of cache operations they must
// equal columns built from scratch over the same node list, and every entry must equal its
// NodeInfo's fields.
import type { Node, Pod, Taint } from "@kubesched/api";
import { type NodeInfo, seededRandom } from "@kubesched/framework";
import type { NodeColumns } from "@kubesched/framework/columnar";
import { makeNode, makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { newCache } from "./cache";
import { newSnapshot, nodeColumnsOf, Snapshot } from "./snapshot";

const labelKeys = ["topology.kubernetes.io/zone", "rack", "constructor"];
const taints: Taint[][] = [
  [],
  [{ key: "a", value: "1", effect: "NoSchedule" }],
  [{ key: "a", value: "1", effect: "NoSchedule", timeAdded: "2026-01-01T00:00:00Z" }],
  [
    { key: "b", effect: "PreferNoSchedule" },
    { key: "a", value: "1", effect: "NoSchedule" },
  ],
];

/** Every column entry of every node, as plain values (label and taint ids as their values). */
function view(c: NodeColumns): unknown[] {
  const out: unknown[] = [];
  const labels = labelKeys.map((k) => c.labelColumn(k));
  for (let i = 0; i < c.size; i++) {
    const scalars: Record<string, [number, number]> = {};
    for (const name of c.scalarNames()) {
      const s = c.scalar(name)!;
      if (s.allocatable[i] !== 0 || s.requested[i] !== 0)
        scalars[name] = [s.allocatable[i]!, s.requested[i]!];
    }
    out.push({
      name: c.nodeInfos[i]!.nodeName,
      index: c.indexOf(c.nodeInfos[i]!),
      alloc: [
        c.allocatableMilliCPU[i],
        c.allocatableMemory[i],
        c.allocatableEphemeralStorage[i],
        c.allowedPodNumber[i],
      ],
      req: [c.requestedMilliCPU[i], c.requestedMemory[i], c.requestedEphemeralStorage[i]],
      nonZero: [c.nonZeroRequestedMilliCPU[i], c.nonZeroRequestedMemory[i]],
      counts: [c.podCount[i], c.imageCount[i], c.usedPortCount[i], c.unschedulable[i], c.generation[i]],
      taints: c.taintSet(c.taintSetIds[i]!).map((t) => `${t.key}=${t.value ?? ""}:${t.effect}`),
      labels: labels.map((l) => (l.valueIds[i]! < 0 ? null : l.values[l.valueIds[i]!])),
      scalars,
    });
  }
  return out;
}

/** What the columns must hold for a NodeInfo. */
function expected(ni: NodeInfo, i: number): unknown {
  const scalars: Record<string, [number, number]> = {};
  const names = new Set([
    ...(ni.allocatable.scalarResources?.keys() ?? []),
    ...(ni.requested.scalarResources?.keys() ?? []),
  ]);
  for (const name of names) {
    const a = ni.allocatable.scalar(name);
    const r = ni.requested.scalar(name);
    if (a !== 0 || r !== 0) scalars[name] = [a, r];
  }
  const labels = ni.node?.metadata?.labels ?? {};
  return {
    name: ni.nodeName,
    index: i,
    alloc: [
      ni.allocatable.milliCPU,
      ni.allocatable.memory,
      ni.allocatable.ephemeralStorage,
      ni.allocatable.allowedPodNumber,
    ],
    req: [ni.requested.milliCPU, ni.requested.memory, ni.requested.ephemeralStorage],
    nonZero: [ni.nonZeroRequested.milliCPU, ni.nonZeroRequested.memory],
    counts: [
      ni.pods.length,
      ni.imageStates.size,
      ni.usedPorts.len(),
      ni.unschedulable ? 1 : 0,
      ni.generation,
    ],
    taints: ni.taints.map((t) => `${t.key}=${t.value ?? ""}:${t.effect}`),
    labels: labelKeys.map((k) =>
      Object.hasOwn(labels, k) && typeof labels[k] === "string" ? labels[k] : null,
    ),
    scalars,
  };
}

function randomNode(r: ReturnType<typeof seededRandom>, i: number, gen: number): Node {
  const b = makeNode()
    .name(`n${i}`)
    .capacity({
      cpu: `${2 + r.intn(6)}`,
      memory: `${4 + r.intn(8)}Gi`,
      pods: `${10 + r.intn(10)}`,
      ...(r.intn(3) === 0 ? { "example.com/gpu": `${1 + r.intn(3)}` } : {}),
    });
  if (r.intn(4) > 0) b.label("topology.kubernetes.io/zone", `z${r.intn(3)}`);
  if (r.intn(2) === 0) b.label("rack", `r${(i + gen) % 5}`);
  if (r.intn(10) === 0) b.label("constructor", "c");
  const t = taints[r.intn(taints.length)]!;
  if (t.length > 0) b.taints(t.map((x) => ({ ...x })));
  if (r.intn(8) === 0) b.unschedulable();
  if (r.intn(5) === 0) b.images({ [`img${r.intn(3)}`]: 100 * 1024 * 1024 });
  return b.obj();
}

function randomPod(r: ReturnType<typeof seededRandom>, k: number, node: string): Pod {
  const b = makePod().name(`p${k}`).uid(`p${k}`).namespace("ns").node(node);
  const req: Record<string, string> = {};
  if (r.intn(4) > 0) req.cpu = `${100 * (1 + r.intn(5))}m`;
  if (r.intn(4) > 0) req.memory = `${256 * (1 + r.intn(4))}Mi`;
  if (r.intn(6) === 0) req["example.com/gpu"] = "1";
  if (r.intn(8) === 0) req["ephemeral-storage"] = "1Gi";
  if (Object.keys(req).length > 0) b.req(req);
  else b.container("pause");
  if (r.intn(6) === 0) b.hostPort(8000 + r.intn(3));
  return b.obj();
}

describe("NodeColumns", () => {
  it("built over a node list hold each NodeInfo's fields", () => {
    const r = seededRandom(7);
    const nodes = Array.from({ length: 20 }, (_, i) => randomNode(r, i, 0));
    const pods = Array.from({ length: 40 }, (_, k) => randomPod(r, k, `n${r.intn(20)}`));
    const s = newSnapshot(pods, nodes);
    const c = s.columns();
    expect(view(c)).toEqual(s.nodeInfoList.map((ni, i) => expected(ni, i)));
    // Equal taint lists share a set (timeAdded does not count); no taints is set 0.
    const ids = new Map<string, number>();
    for (let i = 0; i < c.size; i++) {
      const key = JSON.stringify(c.taintSet(c.taintSetIds[i]!).map((t) => [t.key, t.value, t.effect]));
      if (ids.has(key)) expect(c.taintSetIds[i]).toBe(ids.get(key));
      ids.set(key, c.taintSetIds[i]!);
      if (s.nodeInfoList[i]!.taints.length === 0) expect(c.taintSetIds[i]).toBe(0);
    }
  });

  it("maintained by Cache.updateSnapshot equal columns rebuilt from scratch, through random changes", () => {
    for (const seed of [1, 2, 3]) {
      const r = seededRandom(seed);
      const cache = newCache();
      const s = new Snapshot();
      const live = new Map<string, Pod>();
      let nodeCount = 12;
      for (let i = 0; i < nodeCount; i++) cache.addNode(randomNode(r, i, 0));
      cache.updateSnapshot(s);
      s.columns(); // built now, maintained from here on
      let k = 0;
      for (let step = 0; step < 200; step++) {
        const op = r.intn(10);
        if (op < 5) {
          const p = randomPod(r, k++, `n${r.intn(nodeCount)}`);
          cache.addPod(p);
          live.set(p.metadata!.name!, p);
        } else if (op < 7 && live.size > 0) {
          const names = [...live.keys()];
          const p = live.get(names[r.intn(names.length)]!)!;
          cache.removePod(p);
          live.delete(p.metadata!.name!);
        } else if (op < 8) {
          const i = r.intn(nodeCount);
          cache.updateNode(cache.dump().nodes.get(`n${i}`)!.node!, randomNode(r, i, step));
        } else if (op < 9) {
          cache.addNode(randomNode(r, nodeCount++, step));
        } else {
          // Labels read for the first time mid-way are built over the current nodes.
          s.columns().labelColumn(`late-${step % 3}`);
        }
        if (r.intn(3) === 0) {
          cache.updateSnapshot(s);
          const cols = s.columns();
          expect(view(cols)).toEqual(view(nodeColumnsOf(s.nodeInfoList)));
          expect(view(cols)).toEqual(s.nodeInfoList.map((ni, i) => expected(ni, i)));
        }
      }
    }
  });
});
