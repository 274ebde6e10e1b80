// The memoized counts must equal the full walk's, cycle after cycle, while the snapshot changes
// (pods added, relabelled, terminating and removed; nodes relabelled, tainted, added and removed).
import type { Node, Pod } from "@kubesched/api";
import { getRequiredNodeAffinity, LabelHostname } from "@kubesched/api";
import { newCache, Snapshot } from "@kubesched/cache";
import { NodeInfo, seededRandom } from "@kubesched/framework";
import { makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { filterTopologySpreadConstraints } from "./common";
import { type CountOptions, fullCounter } from "./counting";
import type { DomainCounts } from "./domains";
import { SpreadCountsMemo } from "./memo";
import { fooSelector, taints } from "./test-fixtures";

const opts = (enableNodeInclusionPolicy: boolean): CountOptions => ({
  enableNodeInclusionPolicy,
  tolerationOptions: {},
});

/** The counts as maps (compared without regard to insertion order, as before). */
const asMaps = (cs: DomainCounts[]): Map<string, number>[] => cs.map((m) => new Map(m));

describe("SpreadCountsMemo", () => {
  it.each([
    [true, false],
    [false, false],
    [true, true],
  ])(
    "matches the full walk over a changing cluster (inclusion policy gate %s, ids started over often %s)",
    (gate, compactOften) => {
      const savedSlack = SpreadCountsMemo.compactSlack;
      // With a negative slack, a key's ids start over every few cycles.
      if (compactOften) SpreadCountsMemo.compactSlack = -45;
      try {
        walkChangingCluster(gate);
      } finally {
        SpreadCountsMemo.compactSlack = savedSlack;
      }
    },
  );

  function walkChangingCluster(gate: boolean): void {
    {
      const rnd = seededRandom(7);
      const zones = ["z1", "z2", "z3"];
      const mkNode = (i: number): Node => {
        const labels: Record<string, string> = { [LabelHostname]: `n${i}` };
        if (rnd.intn(10) > 0) labels.zone = zones[rnd.intn(3)]!;
        if (rnd.intn(2) === 0) labels.disk = "ssd";
        return { metadata: { name: `n${i}`, labels }, spec: rnd.intn(5) === 0 ? { taints } : {} };
      };
      const infos = new Map<string, NodeInfo>();
      for (let i = 0; i < 30; i++) {
        const ni = new NodeInfo();
        ni.setNode(mkNode(i));
        infos.set(`n${i}`, ni);
      }
      let podSeq = 0;
      const mkPod = (nodeName: string): Pod => {
        const b = makePod()
          .name(`p${podSeq++}`)
          .namespace(rnd.intn(6) === 0 ? "other" : "default")
          .node(nodeName);
        if (rnd.intn(3) > 0) b.label("foo", "");
        if (rnd.intn(2) === 0) b.label("app", rnd.intn(2) === 0 ? "a" : "b");
        if (rnd.intn(15) === 0) b.terminating();
        return b.obj();
      };
      const incoming = [
        makePod()
          .name("in1")
          .namespace("default")
          .label("foo", "")
          .label("app", "a")
          .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector, null, null, "Honor", ["app"])
          .spreadConstraint(1, LabelHostname, "DoNotSchedule", fooSelector)
          .spreadConstraint(2, "zone", "ScheduleAnyway", fooSelector)
          .spreadConstraint(1, LabelHostname, "ScheduleAnyway", fooSelector)
          .obj(),
        makePod()
          .name("in2")
          .namespace("default")
          .nodeSelector({ disk: "ssd" })
          .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector, null, "Ignore")
          .spreadConstraint(1, "zone", "ScheduleAnyway", fooSelector)
          .obj(),
      ];
      const memo = new SpreadCountsMemo();
      for (let cycle = 0; cycle < 60; cycle++) {
        // Mutate the cluster as the cache would: every change yields a new NodeInfo generation.
        for (let k = 0; k < 5; k++) {
          const names = [...infos.keys()];
          const name = names[rnd.intn(names.length)]!;
          const ni = infos.get(name)!;
          switch (rnd.intn(6)) {
            case 0:
            case 1:
              ni.addPod(mkPod(name));
              break;
            case 2:
              if (ni.pods.length > 0) ni.removePod(ni.pods[rnd.intn(ni.pods.length)]!.pod);
              break;
            case 3:
              ni.setNode(mkNode(Number(name.slice(1))));
              break;
            case 4:
              if (rnd.intn(3) === 0) infos.delete(name);
              break;
            default: {
              const fresh = new NodeInfo();
              const idx = 30 + cycle * 5 + k;
              fresh.setNode(mkNode(idx));
              infos.set(`n${idx}`, fresh);
            }
          }
        }
        // The scheduler works on a snapshot: copies that keep the generation.
        const nodes = [...infos.values()].map((ni) => ni.snapshot());
        for (const pod of incoming) {
          for (const gate2 of [true, false]) {
            const o = opts(gate);
            const constraintOpts = { enableMatchLabelKeys: gate2, enableNodeInclusionPolicy: gate };
            const rna = getRequiredNodeAffinity(pod);
            const hard = filterTopologySpreadConstraints(
              pod.spec!.topologySpreadConstraints!,
              pod.metadata?.labels,
              "DoNotSchedule",
              constraintOpts,
            );
            expect(asMaps(memo.countDoNotSchedule(pod, nodes, hard, rna, o))).toEqual(
              asMaps(fullCounter.countDoNotSchedule(pod, nodes, hard, rna, o)),
            );
            const soft = filterTopologySpreadConstraints(
              pod.spec!.topologySpreadConstraints!,
              pod.metadata?.labels,
              "ScheduleAnyway",
              constraintOpts,
            );
            for (const requireAll of [true, false]) {
              const seed = () =>
                soft.map((c) =>
                  c.topologyKey === LabelHostname
                    ? new Map<string, number>()
                    : new Map([...zones, ""].map((z) => [z, 0])),
                );
              const a = seed();
              const b = seed();
              memo.countScheduleAnyway(pod, nodes, soft, rna, requireAll, a, o);
              fullCounter.countScheduleAnyway(pod, nodes, soft, rna, requireAll, b, o);
              expect(a).toEqual(b);
            }
          }
        }
      }
    }
  }
});

describe("SpreadCountsMemo over a real cache snapshot", () => {
  it.each([true, false])(
    "refreshing only the nodes the cache changed matches the full walk (inclusion policy gate %s)",
    (gate) => {
      const rnd = seededRandom(11);
      const zones = ["z1", "z2", "z3"];
      const cache = newCache();
      const snapshot = new Snapshot();
      // Count the refreshes served from the snapshot's change log (the O(changed) path).
      const changedSince = snapshot.changedSince.bind(snapshot);
      let deltas = 0;
      snapshot.changedSince = (token: number) => {
        const r = changedSince(token);
        if (r.nodes !== null) deltas++;
        return r;
      };
      const memo = new SpreadCountsMemo(() => snapshot.nodeInfos());

      const nodeObjs = new Map<string, Node>();
      let nodeSeq = 0;
      const mkNode = (i: number): Node => {
        const labels: Record<string, string> = { [LabelHostname]: `n${i}` };
        if (rnd.intn(10) > 0) labels.zone = zones[rnd.intn(3)]!;
        if (rnd.intn(2) === 0) labels.disk = "ssd";
        return { metadata: { name: `n${i}`, labels }, spec: rnd.intn(5) === 0 ? { taints } : {} };
      };
      const addNode = (): void => {
        const n = mkNode(nodeSeq++);
        nodeObjs.set(n.metadata!.name!, n);
        cache.addNode(n);
      };
      for (let i = 0; i < 30; i++) addNode();
      const pods: Pod[] = [];
      let podSeq = 0;
      const addPod = (): void => {
        const names = [...nodeObjs.keys()];
        const b = makePod()
          .name(`p${podSeq}`)
          .uid(`p${podSeq++}`)
          .namespace(rnd.intn(6) === 0 ? "other" : "default")
          .node(names[rnd.intn(names.length)]!);
        if (rnd.intn(3) > 0) b.label("foo", "");
        if (rnd.intn(2) === 0) b.label("app", rnd.intn(2) === 0 ? "a" : "b");
        if (rnd.intn(15) === 0) b.terminating();
        const pod = b.obj();
        pods.push(pod);
        cache.addPod(pod);
      };
      for (let i = 0; i < 60; i++) addPod();
      cache.updateSnapshot(snapshot);

      const incoming = [
        makePod()
          .name("in1")
          .namespace("default")
          .label("foo", "")
          .label("app", "a")
          .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector, null, null, "Honor", ["app"])
          .spreadConstraint(1, LabelHostname, "DoNotSchedule", fooSelector)
          .spreadConstraint(2, "zone", "ScheduleAnyway", fooSelector)
          .spreadConstraint(1, LabelHostname, "ScheduleAnyway", fooSelector)
          .obj(),
        makePod()
          .name("in2")
          .namespace("default")
          .nodeSelector({ disk: "ssd" })
          .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector, null, "Ignore")
          .spreadConstraint(1, "zone", "ScheduleAnyway", fooSelector)
          .obj(),
      ];
      const o = opts(gate);
      for (let cycle = 0; cycle < 150; cycle++) {
        const nodes = snapshot.nodeInfos().list();
        for (const pod of incoming) {
          const constraintOpts = { enableMatchLabelKeys: true, enableNodeInclusionPolicy: gate };
          const rna = getRequiredNodeAffinity(pod);
          const hard = filterTopologySpreadConstraints(
            pod.spec!.topologySpreadConstraints!,
            pod.metadata?.labels,
            "DoNotSchedule",
            constraintOpts,
          );
          expect(asMaps(memo.countDoNotSchedule(pod, nodes, hard, rna, o))).toEqual(
            asMaps(fullCounter.countDoNotSchedule(pod, nodes, hard, rna, o)),
          );
          const soft = filterTopologySpreadConstraints(
            pod.spec!.topologySpreadConstraints!,
            pod.metadata?.labels,
            "ScheduleAnyway",
            constraintOpts,
          );
          for (const requireAll of [true, false]) {
            const seed = () =>
              soft.map((c) =>
                c.topologyKey === LabelHostname
                  ? new Map<string, number>()
                  : new Map([...zones, ""].map((z) => [z, 0])),
              );
            const a = seed();
            const b = seed();
            memo.countScheduleAnyway(pod, nodes, soft, rna, requireAll, a, o);
            fullCounter.countScheduleAnyway(pod, nodes, soft, rna, requireAll, b, o);
            expect(a).toEqual(b);
          }
        }
        // Mutate through the cache: pods added and removed, nodes relabelled/tainted, added, removed.
        for (let k = rnd.intn(3); k >= 0; k--) {
          const op = rnd.intn(12);
          if (op < 5 || pods.length === 0) {
            addPod();
          } else if (op < 9) {
            cache.removePod(pods.splice(rnd.intn(pods.length), 1)[0]!);
          } else if (op < 10) {
            const names = [...nodeObjs.keys()];
            const name = names[rnd.intn(names.length)]!;
            const upd = mkNode(Number(name.slice(1)));
            cache.updateNode(nodeObjs.get(name)!, upd);
            nodeObjs.set(name, upd);
          } else if (op < 11) {
            addNode();
          } else if (nodeObjs.size > 5) {
            const names = [...nodeObjs.keys()];
            const name = names[rnd.intn(names.length)]!;
            cache.removeNode(nodeObjs.get(name)!);
            nodeObjs.delete(name);
            for (let i = pods.length - 1; i >= 0; i--) {
              if (pods[i]!.spec?.nodeName === name) cache.removePod(pods.splice(i, 1)[0]!);
            }
          }
        }
        cache.updateSnapshot(snapshot);
      }
      expect(deltas).toBeGreaterThan(500);
    },
  );
});
