// The memoized counts must equal the full walk's, cycle after cycle, while the snapshot changes
// (pods added, relabelled, terminating and removed; nodes relabelled, tainted, added and removed).
import type { Node, Pod } from "@kubesched/api";
import { getRequiredNodeAffinity, LabelHostname } from "@kubesched/api";
import { NodeInfo, seededRandom } from "@kubesched/framework";
import { makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { filterTopologySpreadConstraints } from "./common";
import { type CountOptions, fullCounter } from "./counting";
import { SpreadCountsMemo } from "./memo";
import { fooSelector, taints } from "./test-fixtures";

const opts = (enableNodeInclusionPolicy: boolean): CountOptions => ({
  enableNodeInclusionPolicy,
  tolerationOptions: {},
});

describe("SpreadCountsMemo", () => {
  it.each([true, false])(
    "matches the full walk over a changing cluster (inclusion policy gate %s)",
    (gate) => {
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
            expect(memo.countDoNotSchedule(pod, nodes, hard, rna, o)).toEqual(
              fullCounter.countDoNotSchedule(pod, nodes, hard, rna, o),
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
    },
  );
});
