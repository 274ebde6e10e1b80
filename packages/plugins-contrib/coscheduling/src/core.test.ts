// upstream: pkg/coscheduling/core/core_test.go

import { CycleState } from "@kubesched/framework";
import { makeNode, makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { coschedulingHarness, makePodGroup } from "./fixtures.test-util";
import { type Coscheduling, checkClusterResource, PermitStatus, PodGroupLabel } from "./index";

const grouped = (name: string, pg: string, ns = "ns") =>
  makePod().name(name).namespace(ns).uid(name).label(PodGroupLabel, pg);

describe("TestPreFilter", () => {
  const nodes = [
    makeNode().name("node-a").capacity({ cpu: "4" }).obj(),
    makeNode().name("node-b").capacity({ cpu: "4" }).obj(),
  ];
  const cases = [
    {
      name: "pod does not belong to any pg",
      pod: makePod().name("p").obj(),
      pendingPods: [grouped("p1", "pg1").obj(), grouped("p2", "pg2").obj()],
      pgs: [makePodGroup("pg1", "ns", 1), makePodGroup("pg2", "ns", 1)],
      expectedSuccess: true,
    },
    {
      name: "pod belongs to a non-existent pg",
      pod: grouped("p", "pg-non-existent").obj(),
      pendingPods: [],
      pgs: [makePodGroup("pg1", "ns", 1)],
      expectedSuccess: true,
    },
    {
      name: "pod count less than minMember",
      pod: grouped("p", "pg1").obj(),
      pendingPods: [makePod().name("pg2-1").namespace("ns").uid("p2-1").label(PodGroupLabel, "pg2").obj()],
      pgs: [makePodGroup("pg1", "ns", 2), makePodGroup("pg2", "ns", 2)],
      expectedSuccess: false,
    },
    {
      name: "pod count equal minMember",
      pod: grouped("p1a", "pg1").obj(),
      pendingPods: [grouped("p1b", "pg1").obj(), grouped("p1c", "pg1").obj()],
      pgs: [makePodGroup("pg1", "ns", 2), makePodGroup("pg2", "ns", 2)],
      expectedSuccess: true,
    },
    {
      name: "pod count more than minMember",
      pod: grouped("p1a", "pg1").obj(),
      pendingPods: [grouped("p1b", "pg1").obj(), grouped("p1c", "pg1").obj()],
      pgs: [makePodGroup("pg1", "ns", 2), makePodGroup("pg2", "ns", 2)],
      expectedSuccess: true,
    },
    {
      name: "gated pods but still meeting quorum (minMember < replicas)",
      pod: grouped("p1a", "pg1").obj(),
      pendingPods: [
        grouped("p1b", "pg1").obj(),
        grouped("p1c", "pg1").schedulingGates(["example-gate"]).obj(),
      ],
      pgs: [makePodGroup("pg1", "ns", 2)],
      expectedSuccess: true,
    },
    {
      name: "gated pods push group below quorum",
      pod: grouped("p1a", "pg1").obj(),
      pendingPods: [
        grouped("p1b", "pg1").schedulingGates(["example-gate"]).obj(),
        grouped("p1c", "pg1").obj(),
      ],
      pgs: [makePodGroup("pg1", "ns", 3)],
      expectedSuccess: false,
    },
    {
      name: "all sibling pods are gated",
      pod: grouped("p1a", "pg1").obj(),
      pendingPods: [
        grouped("p1b", "pg1").schedulingGates(["example-gate"]).obj(),
        grouped("p1c", "pg1").schedulingGates(["example-gate"]).obj(),
      ],
      pgs: [makePodGroup("pg1", "ns", 2)],
      expectedSuccess: false,
    },
    {
      // 2 nodes of 4 cpus; the PodGroup's minResources ask for 6 (it would still fail in Filter).
      name: "cluster's resource satisfies minResource",
      pod: grouped("p1a", "pg1").obj(),
      pendingPods: [grouped("p1b", "pg1").obj(), grouped("p1c", "pg1").obj()],
      pgs: [makePodGroup("pg1", "ns", 2, { minResources: { cpu: "6" } })],
      expectedSuccess: true,
    },
    {
      name: "cluster's resource cannot satisfy minResource",
      pod: grouped("p1a", "pg1").obj(),
      pendingPods: [grouped("p1b", "pg1").obj(), grouped("p1c", "pg1").obj()],
      pgs: [makePodGroup("pg1", "ns", 2, { minResources: { cpu: "10" } })],
      expectedSuccess: false,
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const { harness } = await coschedulingHarness({
        nodes,
        pods: [...tc.pendingPods, tc.pod],
        pgs: tc.pgs,
      });
      const { status } = harness.runPreFilter(harness.newCycleState(), tc.pod);
      expect(status === null || status.isSuccess()).toBe(tc.expectedSuccess);
      if (!tc.expectedSuccess) expect(status?.code).toBe(3 /* UnschedulableAndUnresolvable */);
    });
  }

  it("reports the quorum gap and the resource gap in upstream's words", async () => {
    const pod = grouped("p", "pg1").obj();
    let { harness } = await coschedulingHarness({ nodes, pods: [pod], pgs: [makePodGroup("pg1", "ns", 2)] });
    expect(harness.runPreFilter(harness.newCycleState(), pod).status?.getReasons()).toEqual([
      "pre-filter pod p cannot find enough sibling pods, current pods number: 1, minMember of group: 2",
    ]);
    ({ harness } = await coschedulingHarness({
      nodes,
      pods: [pod],
      pgs: [makePodGroup("pg1", "ns", 1, { minResources: { cpu: "10" } })],
    }));
    expect(harness.runPreFilter(harness.newCycleState(), pod).status?.getReasons()).toEqual([
      "resource gap: map[cpu:2000m]",
    ]);
  });
});

describe("TestPermit", () => {
  const nodes = [makeNode().name("node").capacity({ cpu: "4" }).obj()];
  const cases = [
    {
      name: "pod does not belong to any pg",
      pod: makePod().name("p").namespace("ns").uid("p").obj(),
      existingPods: [],
      pgs: [makePodGroup("pg1", "ns", 2)],
      want: PermitStatus.PodGroupNotSpecified,
    },
    {
      name: "pod specifies a non-existent pg",
      pod: grouped("p", "pg-non-existent").obj(),
      existingPods: [],
      pgs: [makePodGroup("pg1", "ns", 2)],
      want: PermitStatus.PodGroupNotFound,
    },
    {
      name: "pod belongs to a pg that doesn't have quorum",
      pod: grouped("p", "pg1").obj(),
      existingPods: [],
      pgs: [makePodGroup("pg1", "ns", 2)],
      want: PermitStatus.Wait,
    },
    {
      name: "pod belongs to a pg that have quorum satisfied",
      pod: grouped("p1a", "pg1").obj(),
      existingPods: [grouped("p1b", "pg1").node("node").obj()],
      pgs: [makePodGroup("pg1", "ns", 2)],
      want: PermitStatus.Success,
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const { harness } = await coschedulingHarness({ nodes, pods: tc.existingPods, pgs: tc.pgs });
      const pl = harness.plugin as Coscheduling;
      expect(pl.pgMgr.permit(new CycleState(), tc.pod)).toBe(tc.want);
    });
  }
});

describe("TestCheckClusterResource", () => {
  // In total, the cluster has 3*2 = 6 cpus.
  const nodes = [
    makeNode().name("node-a").capacity({ cpu: "3" }).obj(),
    makeNode().name("node-b").capacity({ cpu: "3" }).obj(),
  ];
  const cases = [
    {
      name: "Cluster resource enough",
      existingPods: [makePod().name("p1").namespace("ns").uid("p1").node("node-a").req({ cpu: "2" }).obj()],
      want: true,
    },
    {
      name: "Cluster resource not enough",
      existingPods: [
        makePod().name("p1").namespace("ns").uid("p1").node("node-a").req({ cpu: "2" }).obj(),
        makePod().name("p2").namespace("ns").uid("p2").node("node-b").req({ cpu: "1" }).obj(),
      ],
      want: false,
    },
    {
      name: "Cluster resource enough as p1's resource needs to be excluded from minResources",
      existingPods: [
        grouped("p1", "pg1").node("node-a").req({ cpu: "2" }).obj(),
        makePod().name("p2").namespace("ns").uid("p2").node("node-b").req({ cpu: "1" }).obj(),
      ],
      want: true,
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const { harness } = await coschedulingHarness({ nodes, pods: tc.existingPods });
      const got = checkClusterResource(harness.snapshot.nodeInfos().list(), { cpu: "4" }, "ns/pg1");
      expect(got === null).toBe(tc.want);
    });
  }
});

describe("TestMarkAndClearPodGroupScheduleFailure", () => {
  it("uses the failure time instead of the creation time until cleared", async () => {
    const start = Date.UTC(2026, 0, 1);
    const created = start - 10_000;
    const { harness, clock } = await coschedulingHarness({
      pgs: [makePodGroup("pg1", "ns", 3, { time: created })],
    });
    const mgr = (harness.plugin as Coscheduling).pgMgr;
    const pod = grouped("p1", "pg1").obj();
    expect(mgr.getCreationTimestamp(pod, start)).toBe(created);
    clock.advance(1000);
    mgr.markPodGroupScheduleFailure("ns/pg1");
    expect(mgr.getCreationTimestamp(pod, start)).toBeGreaterThan(created);
    mgr.clearPodGroupScheduleFailure("ns/pg1");
    expect(mgr.getCreationTimestamp(pod, start)).toBe(created);
  });
});
