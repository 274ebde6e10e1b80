// The diagnostic pass is exact: on random clusters (fast-check seeds), for every pending pod, the
// first rejection it reports on each node is the status the cycle's own Filter pass reports there
// (Framework.runFilterPluginsOnNodes over every node, columnar windows and nominated pods as a
// cycle runs them), code, reasons and plugin; a node it finds no reason on is one the cycle finds
// feasible; and when the cycle's PreFilter rejects the pod, the pass reports that rejection.
import type { Pod } from "@kubesched/api";
import { CycleState, Diagnosis, type NodeInfo, type Status, statusEqual } from "@kubesched/framework";
import { statusSummary } from "@kubesched/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { configOf, openSession } from "./integration/integration-cluster.test-util";
import { randomCluster } from "./random-cluster.test-util";

const profiles = ["", "percentageOfNodesToScore: 5\n"];

interface Counts {
  nodes: number;
  rejected: number;
  multiple: number;
  nominated: number;
  preFilterRejected: number;
}

const show = (s: Status | null) => JSON.stringify({ ...statusSummary(s), plugin: s?.plugin ?? "" });

async function check(seed: number, nodes: number, profile: string, counts: Counts): Promise<void> {
  const { nodes: ns, pods: generated } = randomCluster({ seed, nodes, running: nodes * 2, pending: 6 });
  // Two pending pods nominated (as a preemption leaves them) at a high priority: the others are
  // filtered with them counted on their nodes.
  const names = ns.map((n) => n.metadata?.name ?? "");
  let nominated = 0;
  const pods = generated.map((p): Pod => {
    if (p.spec?.nodeName || nominated >= 2) return p;
    const node = names[(seed + nominated++) % names.length] ?? "";
    return {
      ...p,
      spec: { ...p.spec, containers: p.spec?.containers ?? [], priority: 1000 },
      status: { nominatedNodeName: node },
    };
  });
  const pending = pods.filter((p) => !p.spec?.nodeName);
  const session = await openSession(configOf(profile), {
    nodes: ns,
    pods,
    namespaces: { team: { team: "x" } },
  });
  const sched = session.sched;
  for (const pod of pending) {
    const d = sched.diagnoseFilters(pod);
    const fwk = sched.frameworkForPod(pod);
    if (d === undefined || fwk === undefined) throw new Error("the pod has no profile");
    const state = new CycleState();
    const pre = fwk.runPreFilterPlugins(state, pod);
    if (pre.status !== null && !pre.status.isSuccess()) {
      counts.preFilterRejected++;
      // The cycle stops at the PreFilter rejection the pass reports.
      const same = d.preFilter.find((p) => p.plugin === pre.status?.plugin);
      if (pre.status.plugin !== "" || !pre.status.isRejected()) {
        expect(same && show(same.status)).toBe(show(pre.status));
      }
      continue;
    }
    const all: readonly NodeInfo[] = fwk.snapshotSharedLister().nodeInfos().list();
    const diagnosis = new Diagnosis();
    const { feasible, error } = fwk.runFilterPluginsOnNodes(state, pod, all, 0, all.length, diagnosis);
    if (error !== null) continue;
    const fits = new Set(feasible.map((n) => n.nodeName));
    for (const n of d.nodes) {
      counts.nodes++;
      if (n.withNominatedPods) counts.nominated++;
      if (n.rejections.length > 1) counts.multiple++;
      const first = n.rejections[0]?.status ?? null;
      const cycle = fits.has(n.nodeName) ? null : diagnosis.nodeToStatus.get(n.nodeName);
      if (first !== null) counts.rejected++;
      if (!statusEqual(first, cycle)) {
        expect(`${pod.metadata?.name} on ${n.nodeName}: ${show(first)}`).toBe(
          `${pod.metadata?.name} on ${n.nodeName}: ${show(cycle)}`,
        );
      }
    }
  }
}

describe("the diagnostic pass agrees with the cycle's Filter", { timeout: 300_000 }, () => {
  it("on random clusters: the first rejection per node is the cycle's status there", async () => {
    const counts: Counts = { nodes: 0, rejected: 0, multiple: 0, nominated: 0, preFilterRejected: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.integer({ min: 5, max: 40 }),
        fc.constantFrom(...profiles),
        (seed, nodes, profile) => check(seed, nodes, profile, counts),
      ),
      { numRuns: 30, seed: 24 },
    );
    // The runs compared something: rejections, nodes with several reasons, nominated pods.
    expect(counts.rejected).toBeGreaterThan(100);
    expect(counts.multiple).toBeGreaterThan(20);
    expect(counts.nominated).toBeGreaterThan(0);
    expect(counts.nodes - counts.rejected).toBeGreaterThan(20);
  });
});
