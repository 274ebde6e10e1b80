// Instrumentation at the edges: an observer watches scheduling without changing it. The default
// in-tree profile runs a generated cluster (more nodes than numFeasibleNodesToFind, so Filter
// stops early; packed, so pods preempt) through simulate() — the assembled scheduler — once
// without an observer (nothing wrapped, the loops plain) and once with observers that implement
// every event (plugins wrapped, Filter node by node for onFilter) or the metrics' events (plugins
// wrapped, Filter over windows, durations on sampled cycles): the results are the same.
import type { Node, Pod } from "@kubesched/api";
import { type Random, seededRandom } from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import type { SchedulingObserver } from "@kubesched/scheduler";
import { makeNode, makePod, recordingLogger } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { configOf, objectsOf } from "./integration/integration-cluster.test-util";
import { simulate } from "./simulate";

type Method = keyof SchedulingObserver;

// Every event of the interface.
const allMethods: readonly Method[] = [
  "onAttemptStart",
  "onPhase",
  "onAlgorithmDone",
  "onHostSelected",
  "onSchedulingCycleDone",
  "onBindingStart",
  "onScheduled",
  "onFailed",
  "onExtensionPoint",
  "onPluginDuration",
  "onPreFilter",
  "onFilter",
  "onPostFilter",
  "onPreScore",
  "onScore",
  "onNormalizeScore",
  "onPreemptionAttempt",
  "onPreemptionVictims",
];

/** An observer of `methods`, counting the events. */
function counting(methods: readonly Method[]): { observer: SchedulingObserver; counts: Map<Method, number> } {
  const counts = new Map<Method, number>();
  const observer: Record<string, () => void> = {};
  for (const m of methods) observer[m] = () => counts.set(m, (counts.get(m) ?? 0) + 1);
  return { observer: observer as SchedulingObserver, counts };
}

function pick<T>(r: Random, xs: readonly T[]): T {
  return xs[r.intn(xs.length)] as T;
}

function cluster(seed: number): { nodes: Node[]; pods: Pod[] } {
  const r = seededRandom(seed);
  const zones = ["zone-a", "zone-b", "zone-c"];
  const nodes: Node[] = [];
  for (let i = 0; i < 130; i++) {
    const name = `node-${i}`;
    const b = makeNode()
      .name(name)
      .label("kubernetes.io/hostname", name)
      .label("topology.kubernetes.io/zone", pick(r, zones))
      .capacity({ cpu: `${2 + r.intn(4)}`, memory: `${4 + r.intn(12)}Gi`, pods: "20" });
    if (r.intn(10) === 0) b.taints([{ key: "dedicated", value: "gpu", effect: "NoSchedule" }]);
    nodes.push(b.obj());
  }
  const pods: Pod[] = [];
  for (let i = 0; i < 390; i++) {
    const node = nodes[i % nodes.length]?.metadata?.name ?? "";
    pods.push(
      makePod()
        .name(`run-${i}`)
        .label("app", pick(r, ["web", "db"]))
        .priority(r.intn(3))
        .req({ cpu: `${500 + 100 * r.intn(10)}m`, memory: "1Gi" })
        .node(node)
        .obj(),
    );
  }
  for (let i = 0; i < 60; i++) {
    const b = makePod()
      .name(`pod-${i}`)
      .label("app", pick(r, ["web", "db"]))
      .priority(r.intn(20))
      .req({ cpu: `${1000 + 250 * r.intn(8)}m`, memory: `${1 + r.intn(4)}Gi` });
    if (i % 5 === 0)
      b.spreadConstraint(1, "topology.kubernetes.io/zone", "DoNotSchedule", { matchLabels: { app: "web" } });
    pods.push(b.obj());
  }
  return { nodes, pods };
}

async function run(seed: number, observer?: SchedulingObserver): Promise<string> {
  const result = await simulate({
    config: configOf(""),
    registry: inTreeRegistry,
    objects: objectsOf(cluster(seed)),
    logger: recordingLogger(),
    seed,
    ...(observer ? { observer } : {}),
  });
  return JSON.stringify(result);
}

describe("an observer does not change decisions", { timeout: 120_000 }, () => {
  it.each([3, 11])("seed %i: every event observed, metrics' events observed, none", async (seed) => {
    const plain = await run(seed);
    const every = counting(allMethods);
    const metrics = counting([
      "onExtensionPoint",
      "onPluginDuration",
      "onAlgorithmDone",
      "onScheduled",
      "onFailed",
    ]);
    expect(await run(seed, every.observer)).toBe(plain);
    expect(await run(seed, metrics.observer)).toBe(plain);

    const r = JSON.parse(plain) as {
      summary: { scheduled: number; unschedulable: number };
      preemptions: unknown[];
    };
    // The comparison covers bindings, failures and preemption, and every event was seen.
    expect(r.summary.scheduled).toBeGreaterThan(10);
    expect(r.summary.unschedulable).toBeGreaterThan(0);
    expect(r.preemptions.length).toBeGreaterThan(0);
    for (const m of allMethods) expect(every.counts.get(m), m).toBeGreaterThan(0);
    expect(every.counts.get("onScheduled")).toBe(metrics.counts.get("onScheduled"));
    expect(every.counts.get("onFailed")).toBe(metrics.counts.get("onFailed"));
    expect(every.counts.get("onAttemptStart")).toBe(
      (every.counts.get("onScheduled") ?? 0) + (every.counts.get("onFailed") ?? 0),
    );
    expect(metrics.counts.get("onPluginDuration")).toBeGreaterThan(0);
  });
});
