// The memoized PreFilter/PreScore must decide exactly as the full computation: both run over the
// same snapshot while it is mutated (pods added and removed, nodes relabelled, added and removed).
import type { Node, Pod } from "@kubesched/api";
import { newCache, Snapshot } from "@kubesched/cache";
import {
  CycleState,
  type NodeInfo,
  NodeInfo as NodeInfoClass,
  PodInfo,
  seededRandom,
} from "@kubesched/framework";
import {
  PodAffinityWithPreferredReq as affPref,
  PodAffinityWithRequiredReq as affReq,
  PodAntiAffinityWithPreferredReq as antiPref,
  PodAntiAffinityWithRequiredReq as antiReq,
  createPluginHarness,
  makePod,
  type PluginHarness,
  statusSummary,
} from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { preFilterStateKey } from "./filtering";
import { interPodAffinityPlugin } from "./index";
import { InterPodAffinity } from "./inter-pod-affinity";

/**
 * The harness's memoizing plugin (the default) and a non-memoizing one over the same framework
 * handle, hence the same snapshot.
 */
async function memoAndFull(
  nodes: Node[],
  pods: Pod[],
): Promise<{ h: PluginHarness; memo: InterPodAffinity; full: InterPodAffinity; nodes: NodeInfo[] }> {
  const h = await createPluginHarness({ plugin: interPodAffinityPlugin, nodes, pods });
  const { args } = interPodAffinityPlugin.args!.decode(undefined, "", h.framework.features());
  return {
    h,
    memo: h.plugin as InterPodAffinity,
    full: new InterPodAffinity(args, h.framework, { memo: false }),
    // The snapshot's own node list: the test mutates it as the cache's incremental update would.
    nodes: h.snapshot.nodeInfos().list() as NodeInfo[],
  };
}

/**
 * Recomputes the snapshot's "nodes with pods with (anti-)affinity" lists after the test mutated
 * NodeInfos directly (the cache's incremental snapshot update does this between real cycles).
 */
function syncAffinityLists(h: PluginHarness): void {
  const lister = h.snapshot.nodeInfos();
  const all = lister.list();
  const withAffinity = lister.havePodsWithAffinityList() as NodeInfo[];
  const withAnti = lister.havePodsWithRequiredAntiAffinityList() as NodeInfo[];
  withAffinity.splice(0, withAffinity.length, ...all.filter((n) => n.podsWithAffinity.length > 0));
  withAnti.splice(0, withAnti.length, ...all.filter((n) => n.podsWithRequiredAntiAffinity.length > 0));
}

const colors = ["red", "blue", "green"];

function randomPod(rand: ReturnType<typeof seededRandom>, i: number, nodeName: string): Pod {
  const color = colors[rand.intn(colors.length)]!;
  const p = makePod()
    .name(`p${i}`)
    .uid(`p${i}`)
    .namespace(rand.intn(2) === 0 ? "a" : "b")
    .label("color", color)
    .node(nodeName);
  switch (rand.intn(6)) {
    case 0:
      p.podAntiAffinityIn("color", "kubernetes.io/hostname", [color], antiReq);
      break;
    case 1:
      p.podAffinityIn("color", "zone", [color], affReq);
      break;
    case 2:
      p.podAffinityIn("color", "kubernetes.io/hostname", [colors[rand.intn(3)]!], affPref);
      break;
    case 3:
      p.podAntiAffinityIn("color", "zone", [colors[rand.intn(3)]!], antiPref);
      break;
    default:
  }
  return p.obj();
}

const incomingPods: Pod[] = [
  makePod()
    .name("in1")
    .namespace("a")
    .label("color", "red")
    .podAntiAffinityIn("color", "kubernetes.io/hostname", ["red"], antiReq)
    .obj(),
  makePod()
    .name("in2")
    .namespace("a")
    .label("color", "blue")
    .podAffinityIn("color", "zone", ["blue"], affReq)
    .obj(),
  makePod().name("in3").namespace("b").label("color", "green").obj(),
  makePod()
    .name("in4")
    .namespace("b")
    .label("color", "red")
    .podAffinityIn("color", "kubernetes.io/hostname", ["red"], affPref)
    .podAntiAffinityIn("color", "zone", ["blue"], antiPref)
    .obj(),
];

function node(i: number, zone: string): Node {
  return { metadata: { name: `n${i}`, labels: { zone, "kubernetes.io/hostname": `n${i}` } } };
}

describe("memoized counts equal the full computation", () => {
  it("after every mutation of the snapshot", async () => {
    const rand = seededRandom(42);
    const { h, memo, full, nodes } = await memoAndFull(
      Array.from({ length: 12 }, (_, i) => node(i, `z${i % 3}`)),
      [],
    );
    let podCount = 0;
    for (let i = 0; i < 30; i++) {
      const ni = nodes[rand.intn(nodes.length)]!;
      ni.addPod(randomPod(rand, podCount++, ni.nodeName));
    }
    syncAffinityLists(h);

    for (let round = 0; round < 60; round++) {
      for (const pod of incomingPods) {
        const ms = new CycleState();
        const fs = new CycleState();
        const mPre = memo.preFilter(ms, pod, nodes);
        const fPre = full.preFilter(fs, pod, nodes);
        expect(statusSummary(mPre as never)).toEqual(statusSummary(fPre as never));
        const m = ms.read(preFilterStateKey);
        const f = fs.read(preFilterStateKey);
        if (m && f) {
          expect(m.existingAntiAffinityCounts.counts.toRecord()).toEqual(
            f.existingAntiAffinityCounts.counts.toRecord(),
          );
          expect(m.affinityCounts.counts.toRecord()).toEqual(f.affinityCounts.counts.toRecord());
          expect(m.antiAffinityCounts.counts.toRecord()).toEqual(f.antiAffinityCounts.counts.toRecord());
          for (const ni of nodes) {
            expect(statusSummary(memo.filter(ms, pod, ni))).toEqual(statusSummary(full.filter(fs, pod, ni)));
          }
          // A cloned state (nominated pods, preemption) copies shared counts on its first write.
          const target = nodes[rand.intn(nodes.length)]!;
          const extra = new PodInfo(randomPod(rand, 1000 + round, target.nodeName));
          const mc = ms.clone();
          const fc = fs.clone();
          memo.addPod(mc, pod, extra, target);
          full.addPod(fc, pod, extra, target);
          for (const ni of nodes) {
            expect(statusSummary(memo.filter(mc, pod, ni))).toEqual(statusSummary(full.filter(fc, pod, ni)));
          }
          expect(m.antiAffinityCounts.counts.toRecord()).toEqual(f.antiAffinityCounts.counts.toRecord());
        }
        const mScore = memo.preScore(ms, pod, nodes);
        const fScore = full.preScore(fs, pod, nodes);
        expect(statusSummary(mScore)).toEqual(statusSummary(fScore));
        if (mScore === null) {
          for (const ni of nodes) expect(memo.score(ms, pod, ni)).toEqual(full.score(fs, pod, ni));
        }
      }
      // Mutate: add or remove pods, relabel a node, add or remove a node.
      switch (rand.intn(5)) {
        case 0:
        case 1: {
          const ni = nodes[rand.intn(nodes.length)]!;
          ni.addPod(randomPod(rand, podCount++, ni.nodeName));
          break;
        }
        case 2: {
          const ni = nodes[rand.intn(nodes.length)]!;
          const victim = ni.pods[rand.intn(Math.max(ni.pods.length, 1))];
          if (victim) ni.removePod(victim.pod);
          break;
        }
        case 3: {
          const ni = nodes[rand.intn(nodes.length)]!;
          const n = ni.node!;
          ni.setNode({
            ...n,
            metadata: { ...n.metadata, labels: { ...n.metadata?.labels, zone: `z${rand.intn(4)}` } },
          });
          break;
        }
        default: {
          if (rand.intn(2) === 0 && nodes.length > 4) {
            nodes.splice(rand.intn(nodes.length), 1);
          } else {
            const ni = new NodeInfoClass();
            ni.setNode(node(100 + round, `z${rand.intn(3)}`));
            ni.addPod(randomPod(rand, podCount++, ni.nodeName));
            nodes.splice(rand.intn(nodes.length + 1), 0, ni);
          }
        }
      }
      syncAffinityLists(h);
    }
  });

  it("an older cycle state whose shared counts changed reports an error instead of deciding", async () => {
    const {
      h,
      memo: plugin,
      nodes,
    } = await memoAndFull(
      [node(0, "z0"), node(1, "z0")],
      [makePod().name("x").namespace("a").label("color", "red").node("n0").obj()],
    );
    const pod = incomingPods[0]!;
    plugin.preFilter(new CycleState(), pod, nodes); // first sighting: full computation
    const old = new CycleState();
    plugin.preFilter(old, pod, nodes); // memo entry created, counts shared
    nodes[1]!.addPod(makePod().name("y").namespace("a").label("color", "red").node("n1").obj());
    syncAffinityLists(h);
    plugin.preFilter(new CycleState(), pod, nodes);
    expect(statusSummary(plugin.filter(old, pod, nodes[0]!)).code).toBe("Error");
  });
});

describe("memoized counts equal the full computation over a real cache snapshot", () => {
  it("refreshing only the nodes the cache changed", async () => {
    const rand = seededRandom(7);
    const cache = newCache();
    const snapshot = new Snapshot();
    // Count the cycles served from the snapshot's change log (the O(changed) path).
    const changedSince = snapshot.changedSince.bind(snapshot);
    let deltas = 0;
    snapshot.changedSince = (token: number) => {
      const r = changedSince(token);
      if (r.nodes !== null) deltas++;
      return r;
    };
    const h = await createPluginHarness({ plugin: interPodAffinityPlugin, snapshot });
    const { args } = interPodAffinityPlugin.args!.decode(undefined, "", h.framework.features());
    const memo = new InterPodAffinity(args, h.framework);
    const full = new InterPodAffinity(args, h.framework, { memo: false });

    const nodeObjs = new Map<string, Node>();
    let nodeSeq = 0;
    const addNode = (): void => {
      const n = node(nodeSeq++, `z${rand.intn(3)}`);
      nodeObjs.set(n.metadata!.name!, n);
      cache.addNode(n);
    };
    for (let i = 0; i < 12; i++) addNode();
    const pods: Pod[] = [];
    let podCount = 0;
    const addPod = (): void => {
      const names = [...nodeObjs.keys()];
      const pod = randomPod(rand, podCount++, names[rand.intn(names.length)]!);
      pods.push(pod);
      cache.addPod(pod);
    };
    for (let i = 0; i < 30; i++) addPod();
    cache.updateSnapshot(snapshot);

    for (let round = 0; round < 120; round++) {
      const nodes = snapshot.nodeInfos().list();
      for (const pod of incomingPods) {
        const ms = new CycleState();
        const fs = new CycleState();
        const mPre = memo.preFilter(ms, pod, nodes);
        const fPre = full.preFilter(fs, pod, nodes);
        expect(statusSummary(mPre as never)).toEqual(statusSummary(fPre as never));
        const m = ms.read(preFilterStateKey);
        const f = fs.read(preFilterStateKey);
        if (m && f) {
          expect(m.existingAntiAffinityCounts.counts.toRecord()).toEqual(
            f.existingAntiAffinityCounts.counts.toRecord(),
          );
          expect(m.affinityCounts.counts.toRecord()).toEqual(f.affinityCounts.counts.toRecord());
          expect(m.antiAffinityCounts.counts.toRecord()).toEqual(f.antiAffinityCounts.counts.toRecord());
          for (const ni of nodes) {
            expect(statusSummary(memo.filter(ms, pod, ni))).toEqual(statusSummary(full.filter(fs, pod, ni)));
          }
        }
        const mScore = memo.preScore(ms, pod, nodes);
        const fScore = full.preScore(fs, pod, nodes);
        expect(statusSummary(mScore)).toEqual(statusSummary(fScore));
        if (mScore === null) {
          for (const ni of nodes) expect(memo.score(ms, pod, ni)).toEqual(full.score(fs, pod, ni));
        }
      }
      // Mutate through the cache: pods added and removed, nodes relabelled, added and removed.
      for (let k = rand.intn(3); k >= 0; k--) {
        const op = rand.intn(12);
        if (op < 5 || pods.length === 0) {
          addPod();
        } else if (op < 9) {
          const pod = pods.splice(rand.intn(pods.length), 1)[0]!;
          cache.removePod(pod);
        } else if (op < 10) {
          const names = [...nodeObjs.keys()];
          const name = names[rand.intn(names.length)]!;
          const old = nodeObjs.get(name)!;
          const upd: Node = {
            ...old,
            metadata: { ...old.metadata, labels: { ...old.metadata?.labels, zone: `z${rand.intn(4)}` } },
          };
          nodeObjs.set(name, upd);
          cache.updateNode(old, upd);
        } else if (op < 11) {
          addNode();
        } else if (nodeObjs.size > 4) {
          const names = [...nodeObjs.keys()];
          const name = names[rand.intn(names.length)]!;
          cache.removeNode(nodeObjs.get(name)!);
          nodeObjs.delete(name);
          // Its pods are deleted later, as the informer would.
          for (let i = pods.length - 1; i >= 0; i--) {
            if (pods[i]!.spec?.nodeName === name && rand.intn(2) === 0)
              cache.removePod(pods.splice(i, 1)[0]!);
          }
        }
      }
      cache.updateSnapshot(snapshot);
    }
    expect(deltas).toBeGreaterThan(500);
  });
});
