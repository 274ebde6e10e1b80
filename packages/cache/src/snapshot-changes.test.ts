// Cache.updateSnapshot's incremental bookkeeping: the affinity lists patched for the nodes that
// flipped must equal a rebuild over the node list (same order), and Snapshot.changedSince must
// report every NodeInfo whose contents changed, or null when nodes were added or removed.
import type { Node, Pod } from "@kubesched/api";
import { type NodeInfo, seededRandom } from "@kubesched/framework";
import {
  makePod,
  PodAffinityWithRequiredReq,
  PodAntiAffinityWithPreferredReq,
  PodAntiAffinityWithRequiredReq,
} from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { newCache } from "./cache";
import { newSnapshot, Snapshot } from "./snapshot";

const zoneLabel = "topology.kubernetes.io/zone";

function mkNode(i: number, zone: number, extra = ""): Node {
  return { metadata: { name: `n${i}`, labels: { [zoneLabel]: `z${zone}`, extra } } };
}

function expectListsRebuilt(s: Snapshot): void {
  const withAffinity: NodeInfo[] = [];
  const withRequiredAnti: NodeInfo[] = [];
  const pvcs = new Set<string>();
  for (const ni of s.nodeInfoList) {
    if (ni.podsWithAffinity.length > 0) withAffinity.push(ni);
    if (ni.podsWithRequiredAntiAffinity.length > 0) withRequiredAnti.push(ni);
    for (const k of ni.pvcRefCounts.keys()) pvcs.add(k);
  }
  expect(s.havePodsWithAffinityNodeInfoList).toHaveLength(withAffinity.length);
  for (const [i, ni] of withAffinity.entries()) expect(s.havePodsWithAffinityNodeInfoList[i]).toBe(ni);
  expect(s.havePodsWithRequiredAntiAffinityNodeInfoList).toHaveLength(withRequiredAnti.length);
  for (const [i, ni] of withRequiredAnti.entries()) {
    expect(s.havePodsWithRequiredAntiAffinityNodeInfoList[i]).toBe(ni);
  }
  expect(s.usedPVCSet).toEqual(pvcs);
}

describe("Snapshot.changedSince", () => {
  it("answers only for snapshots a cache maintains", () => {
    const s = newSnapshot([], [mkNode(0, 0)]);
    expect(s.changedSince(-1).nodes).toBeNull();
    expect(s.changedSince(s.changedSince(-1).token).nodes).toBeNull();
  });

  it("reports changed nodes, and null after nodes are added or removed", () => {
    const cache = newCache();
    const s = new Snapshot();
    for (let i = 0; i < 4; i++) cache.addNode(mkNode(i, i % 2));
    cache.updateSnapshot(s);
    const t0 = s.changedSince(-1);
    expect(t0.nodes).toBeNull();
    expect(s.changedSince(t0.token)).toEqual({ token: t0.token, nodes: [] });

    cache.addPod(makePod().name("p1").uid("p1").node("n2").obj());
    cache.updateSnapshot(s);
    const t1 = s.changedSince(t0.token);
    expect(t1.nodes).toEqual([s.get("n2")]);
    expect(t1.nodes![0]).toBe(s.get("n2"));
    expect(s.changedSince(t1.token).nodes).toEqual([]);

    cache.updateNode(mkNode(1, 1), mkNode(1, 1, "x"));
    cache.addPod(makePod().name("p2").uid("p2").node("n3").obj());
    cache.updateSnapshot(s);
    expect(new Set(s.changedSince(t1.token).nodes)).toEqual(new Set([s.get("n1"), s.get("n3")]));
    expect(new Set(s.changedSince(t0.token).nodes)).toEqual(new Set([s.get("n1"), s.get("n2"), s.get("n3")]));

    const t2 = s.changedSince(t1.token).token;
    cache.addNode(mkNode(9, 0));
    cache.updateSnapshot(s);
    expect(s.changedSince(t2).nodes).toBeNull();
    expect(s.changedSince(t0.token).nodes).toBeNull();
    const t3 = s.changedSince(t2).token;
    expect(s.changedSince(t3).nodes).toEqual([]);

    cache.removeNode(mkNode(0, 0));
    cache.updateSnapshot(s);
    expect(s.changedSince(t3).nodes).toBeNull();
    // Tokens from the future or not from this snapshot are unknown.
    expect(s.changedSince(t3 + 1000).nodes).toBeNull();
    expect(s.changedSince(0.5).nodes).toBeNull();
  });

  it("forgets entries beyond its capacity", () => {
    const cache = newCache();
    const s = new Snapshot();
    cache.addNode(mkNode(0, 0));
    cache.updateSnapshot(s);
    const t0 = s.changedSince(-1).token;
    let t = t0;
    for (let i = 0; i < 5000; i++) {
      cache.addPod(makePod().name(`p${i}`).uid(`p${i}`).node("n0").obj());
      cache.updateSnapshot(s);
      const r = s.changedSince(t);
      expect(r.nodes).toEqual([s.get("n0")]);
      t = r.token;
    }
    expect(s.changedSince(t0).nodes).toBeNull();
  });
});

describe("Cache.updateSnapshot incremental lists", () => {
  it.each([1, 2, 3])("match a rebuild and report every change (seed %i)", (seed) => {
    const rnd = seededRandom(seed);
    const cache = newCache();
    const s = new Snapshot();
    const nodes = new Map<string, Node>();
    let nodeSeq = 0;
    const addNode = (): void => {
      const n = mkNode(nodeSeq++, rnd.intn(3));
      nodes.set(n.metadata!.name!, n);
      cache.addNode(n);
    };
    for (let i = 0; i < 20; i++) addNode();
    const pods: Pod[] = [];
    let podSeq = 0;
    const addPod = (): void => {
      const names = [...nodes.keys()];
      const b = makePod()
        .name(`p${podSeq}`)
        .uid(`p${podSeq++}`)
        .namespace("ns")
        .node(names[rnd.intn(names.length)]!);
      switch (rnd.intn(5)) {
        case 0:
          b.podAffinityExists("foo", zoneLabel, PodAffinityWithRequiredReq);
          break;
        case 1:
          b.podAntiAffinityExists("foo", zoneLabel, PodAntiAffinityWithRequiredReq);
          break;
        case 2:
          b.podAntiAffinityExists("foo", zoneLabel, PodAntiAffinityWithPreferredReq);
          break;
        case 3:
          b.pvc(`claim${rnd.intn(4)}`);
          break;
      }
      const pod = b.obj();
      pods.push(pod);
      cache.addPod(pod);
    };

    cache.updateSnapshot(s);
    let token = s.changedSince(-1).token;
    let prevGen = new Map(s.nodeInfoList.map((ni) => [ni, ni.generation]));
    let patched = 0;
    for (let round = 0; round < 300; round++) {
      for (let k = rnd.intn(4); k >= 0; k--) {
        const op = rnd.intn(20);
        if (op < 10 || pods.length === 0) {
          addPod();
        } else if (op < 17) {
          const pod = pods.splice(rnd.intn(pods.length), 1)[0]!;
          if (cache.getPod(pod)) cache.removePod(pod);
        } else if (op < 18) {
          const name = [...nodes.keys()][rnd.intn(nodes.size)]!;
          const old = nodes.get(name)!;
          const upd = mkNode(Number(name.slice(1)), rnd.intn(3), `x${round}`);
          nodes.set(name, upd);
          cache.updateNode(old, upd);
        } else if (op < 19) {
          addNode();
        } else if (nodes.size > 5) {
          const name = [...nodes.keys()][rnd.intn(nodes.size)]!;
          cache.removeNode(nodes.get(name)!);
          nodes.delete(name);
        }
      }
      const listBefore = s.nodeInfoList;
      const affinityBefore = s.havePodsWithAffinityNodeInfoList;
      const antiBefore = s.havePodsWithRequiredAntiAffinityNodeInfoList;
      cache.updateSnapshot(s);
      expectListsRebuilt(s);
      const r = s.changedSince(token);
      const listChanged = listBefore !== s.nodeInfoList;
      if (listChanged) {
        expect(r.nodes).toBeNull();
      } else {
        if (
          affinityBefore !== s.havePodsWithAffinityNodeInfoList ||
          antiBefore !== s.havePodsWithRequiredAntiAffinityNodeInfoList
        ) {
          patched++;
        }
        expect(r.nodes).not.toBeNull();
        const reported = new Set(r.nodes);
        for (const ni of s.nodeInfoList) {
          if (prevGen.get(ni) !== ni.generation) expect(reported.has(ni), ni.nodeName).toBe(true);
        }
        for (const ni of reported) expect(s.nodeInfoList).toContain(ni);
      }
      token = r.token;
      prevGen = new Map(s.nodeInfoList.map((ni) => [ni, ni.generation]));
    }
    // The lists were patched (not rebuilt with the node list) many times.
    expect(patched).toBeGreaterThan(50);
  });
});

describe("Cache.updateSnapshot incremental usedPVCSet", () => {
  it.each([1, 2, 3, 4])("equals a rebuild over the node list after random changes (seed %i)", (seed) => {
    const rnd = seededRandom(seed);
    const cache = newCache();
    const s = new Snapshot();
    const nodes = new Map<string, Node>();
    let nodeSeq = 0;
    const addNode = (): void => {
      const n = mkNode(nodeSeq++, rnd.intn(3));
      nodes.set(n.metadata!.name!, n);
      cache.addNode(n);
    };
    for (let i = 0; i < 12; i++) addNode();
    const pods: Pod[] = [];
    let podSeq = 0;
    const addPod = (): void => {
      const names = [...nodes.keys()];
      // A few claims shared by pods on several nodes, some pods with two claims, some none.
      const b = makePod()
        .name(`p${podSeq}`)
        .uid(`p${podSeq++}`)
        .namespace(rnd.intn(4) === 0 ? "other" : "ns")
        .node(names[rnd.intn(names.length)]!);
      const n = rnd.intn(3);
      for (let k = 0; k < n; k++) b.pvc(`claim${rnd.intn(6)}`);
      const pod = b.obj();
      pods.push(pod);
      cache.addPod(pod);
    };
    cache.updateSnapshot(s);
    let incremental = 0;
    for (let round = 0; round < 400; round++) {
      for (let k = rnd.intn(3); k >= 0; k--) {
        const op = rnd.intn(40);
        if (op < 20 || pods.length === 0) {
          addPod();
        } else if (op < 37) {
          const pod = pods.splice(rnd.intn(pods.length), 1)[0]!;
          if (cache.getPod(pod)) cache.removePod(pod);
        } else if (op < 38) {
          addNode();
        } else if (op < 39 && nodes.size > 4) {
          // The node leaves the list; its pods stay in the cache until removed.
          const name = [...nodes.keys()][rnd.intn(nodes.size)]!;
          cache.removeNode(nodes.get(name)!);
          nodes.delete(name);
        } else {
          const name = [...nodes.keys()][rnd.intn(nodes.size)]!;
          const old = nodes.get(name)!;
          const upd = mkNode(Number(name.slice(1)), rnd.intn(3), `x${round}`);
          nodes.set(name, upd);
          cache.updateNode(old, upd);
        }
      }
      const setBefore = s.usedPVCSet;
      const contentsBefore = new Set(setBefore);
      const listBefore = s.nodeInfoList;
      cache.updateSnapshot(s);
      expectListsRebuilt(s);
      if (listBefore === s.nodeInfoList && setBefore === s.usedPVCSet) {
        const after = new Set(s.usedPVCSet);
        if (after.size !== contentsBefore.size || [...after].some((k) => !contentsBefore.has(k)))
          incremental++;
      }
    }
    // The set was updated in place (not rebuilt) many times.
    expect(incremental).toBeGreaterThan(50);
  });

  it("starts from a set built elsewhere (newSnapshot, a list rebuild)", () => {
    const cache = newCache();
    const s = new Snapshot();
    for (let i = 0; i < 3; i++) cache.addNode(mkNode(i, i));
    const p1 = makePod().name("p1").uid("p1").namespace("ns").node("n0").pvc("a").obj();
    const p2 = makePod().name("p2").uid("p2").namespace("ns").node("n1").pvc("a").obj();
    const p3 = makePod().name("p3").uid("p3").namespace("ns").node("n2").pvc("b").obj();
    cache.addPod(p1);
    cache.updateSnapshot(s);
    expect(s.usedPVCSet).toEqual(new Set(["ns/a"]));
    cache.addPod(p2);
    cache.addPod(p3);
    cache.updateSnapshot(s);
    expect(s.usedPVCSet).toEqual(new Set(["ns/a", "ns/b"]));
    // ns/a is still used on n1.
    cache.removePod(p1);
    cache.updateSnapshot(s);
    expect(s.usedPVCSet).toEqual(new Set(["ns/a", "ns/b"]));
    // A node added: the lists (and the set) are rebuilt; later changes count from there.
    cache.addNode(mkNode(3, 0));
    cache.updateSnapshot(s);
    expect(s.usedPVCSet).toEqual(new Set(["ns/a", "ns/b"]));
    cache.removePod(p2);
    cache.updateSnapshot(s);
    expect(s.usedPVCSet).toEqual(new Set(["ns/b"]));
    cache.removePod(p3);
    cache.updateSnapshot(s);
    expect(s.usedPVCSet).toEqual(new Set());
    // A set replaced by hand is not patched with stale counts.
    cache.addPod(p1);
    cache.updateSnapshot(s);
    s.usedPVCSet = new Set(["ns/a", "stale/x"]);
    cache.addPod(p3);
    cache.updateSnapshot(s);
    expect(s.usedPVCSet).toEqual(new Set(["ns/a", "ns/b"]));
  });
});
