// upstream: pkg/coscheduling/coscheduling_test.go
import type { Pod } from "@kubesched/api";
import { Code, CycleState, NodeToStatus, PodsToActivate, podsToActivateKey } from "@kubesched/framework";
import { makeNode, makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { coschedulingHarness, makePodGroup, queued } from "./fixtures.test-util";
import { type Coscheduling, PodGroupLabel } from "./index";

const grouped = (name: string, pg: string, ns = "ns") =>
  makePod().name(name).namespace(ns).uid(name).label(PodGroupLabel, pg);
const nodes = [makeNode().name("node").capacity({ cpu: "4" }).obj()];
const statusOf = (s: { code: number; getReasons(): string[] } | null) =>
  s === null ? null : { code: s.code, reasons: s.getReasons() };

describe("TestPodGroupBackoffTime", () => {
  it("prevent pod falling into infinite scheduling loop", async () => {
    const pods = [grouped("pod1", "pg1").obj(), grouped("pod2", "pg1").obj(), grouped("pod3", "pg1").obj()];
    const { harness } = await coschedulingHarness({
      nodes,
      pods,
      pgs: [makePodGroup("pg1", "ns", 3)],
      args: { permitWaitingTimeSeconds: 10, podGroupBackoffSeconds: 1 },
    });
    const pl = harness.plugin as Coscheduling;
    const state = new CycleState();
    state.write(podsToActivateKey, new PodsToActivate());
    expect(pl.permit(state, pods[0] as Pod, "test").status?.code).toBe(Code.Wait);
    expect([...(state.read(podsToActivateKey)?.map.keys() ?? [])].sort()).toEqual(["ns/pod2", "ns/pod3"]);

    pl.postFilter(new CycleState(), pods[1] as Pod, new NodeToStatus());
    const { status, pluginStatus } = harness.runPreFilter(new CycleState(), pods[2] as Pod);
    expect(status?.code).toBe(Code.UnschedulableAndUnresolvable);
    expect(pluginStatus?.getReasons()[0]).toBe("podGroup ns/pg1 failed recently");
  });
});

describe("TestLess", () => {
  const low = 10;
  const high = 100;
  const now = Date.UTC(2026, 0, 1);
  const s = (n: number) => now + n * 1000;
  const p = (name: string, ns: string, prio: number, pg?: string) => {
    const w = makePod().name(name).namespace(ns).priority(prio);
    return (pg ? w.label(PodGroupLabel, pg) : w).obj();
  };
  const cases = [
    {
      name: "p1.priority less than p2.priority",
      p1: queued(p("p1", "ns1", low)),
      p2: queued(p("p2", "ns2", high)),
      pgs: [],
      want: false,
    },
    {
      name: "p1.priority greater than p2.priority",
      p1: queued(p("p1", "ns1", high)),
      p2: queued(p("p2", "ns2", low)),
      pgs: [],
      want: true,
    },
    {
      name: "equal priority. p1 is added to schedulingQ earlier than p2",
      p1: queued(p("p1", "ns1", high), s(1)),
      p2: queued(p("p2", "ns2", high), s(2)),
      pgs: [],
      want: true,
    },
    {
      name: "equal priority. p2 is added to schedulingQ earlier than p1",
      p1: queued(p("p1", "ns1", high), s(2)),
      p2: queued(p("p2", "ns2", high), s(1)),
      pgs: [],
      want: false,
    },
    {
      name: "p1.priority less than p2.priority, p1 belongs to pg1",
      p1: queued(p("p1", "ns1", low, "pg1")),
      p2: queued(p("p2", "ns2", high)),
      pgs: [makePodGroup("pg1", "ns1")],
      want: false,
    },
    {
      name: "p1.priority greater than p2.priority, p1 belongs to pg1",
      p1: queued(p("p1", "ns1", high, "pg1")),
      p2: queued(p("p2", "ns2", low)),
      pgs: [makePodGroup("pg1", "ns1")],
      want: true,
    },
    {
      name: "equal priority. p1 is added to schedulingQ earlier than p2, p1 belongs to pg1",
      p1: queued(p("p1", "ns1", high, "pg1"), s(1)),
      p2: queued(p("p2", "ns2", high), s(2)),
      pgs: [makePodGroup("pg1", "ns1", 0, { time: s(1) })],
      want: true,
    },
    {
      name: "equal priority. p2 is added to schedulingQ earlier than p1, p1 belongs to pg1",
      p1: queued(p("p1", "ns1", high, "pg1"), s(2)),
      p2: queued(p("p2", "ns2", high), s(1)),
      pgs: [makePodGroup("pg1", "ns1", 0, { time: s(2) })],
      want: false,
    },
    {
      name: "p1.priority less than p2.priority, p1 belongs to pg1 and p2 belongs to pg2",
      p1: queued(p("p1", "ns1", low, "pg1")),
      p2: queued(p("p2", "ns2", high, "pg2")),
      pgs: [makePodGroup("pg1", "ns1", 0, { time: s(1) }), makePodGroup("pg2", "ns2", 0, { time: s(2) })],
      want: false,
    },
    {
      name: "p1.priority greater than p2.priority, p1 belongs to pg1 and and p2 belongs to pg2",
      p1: queued(p("p1", "ns1", high, "pg1")),
      p2: queued(p("p2", "ns2", low, "pg1")),
      pgs: [makePodGroup("pg1", "ns1", 0, { time: s(1) }), makePodGroup("pg2", "ns2", 0, { time: s(2) })],
      want: true,
    },
    {
      name: "equal priority. p1 is added to schedulingQ earlier than p2, p1 belongs to pg1 and p2 belongs to pg2",
      p1: queued(p("p1", "ns1", high, "pg1"), s(1)),
      p2: queued(p("p2", "ns2", high, "pg2"), s(2)),
      pgs: [makePodGroup("pg1", "ns1", 0, { time: s(1) }), makePodGroup("pg2", "ns2", 0, { time: s(2) })],
      want: true,
    },
    {
      name: "equal priority. p2 is added to schedulingQ earlier than p1, p1 belongs to pg2 and p2 belongs to pg1",
      p1: queued(p("p1", "ns", low, "pg2"), s(1)),
      p2: queued(p("p2", "ns", high, "pg1"), s(2)),
      pgs: [makePodGroup("pg1", "ns", 0, { time: s(1) }), makePodGroup("pg2", "ns", 0, { time: s(2) })],
      want: false,
    },
    {
      name: "equal priority and creation time, p1 belongs pg1 and p2 belong to pg2",
      p1: queued(p("p1", "ns1", high, "pg2"), s(1)),
      p2: queued(p("p2", "ns2", high, "pg2"), s(1)),
      pgs: [makePodGroup("pg1", "ns1", 0, { time: s(1) }), makePodGroup("pg2", "ns2", 0, { time: s(2) })],
      want: true,
    },
    {
      name: "equal priority and creation time, and p2 belong to pg2",
      p1: queued(p("p1", "ns1", high), s(1)),
      p2: queued(p("p2", "ns2", high, "pg2"), s(1)),
      pgs: [makePodGroup("pg2", "ns2", 0, { time: s(2) })],
      want: true,
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const { harness } = await coschedulingHarness({ pgs: tc.pgs });
      expect((harness.plugin as Coscheduling).less(tc.p1, tc.p2)).toBe(tc.want);
    });
  }
});

describe("TestPermit", () => {
  const pgs = [makePodGroup("pg1", "ns", 1), makePodGroup("pg2", "ns", 2)];
  const cases = [
    {
      name: "pods do not belong to any podGroup",
      pod: makePod().name("p").namespace("ns").uid("p").obj(),
      want: Code.Success,
    },
    {
      name: "pods belong to a pg1, but quorum not satisfied",
      pod: grouped("p", "pg2").obj(),
      want: Code.Wait,
    },
    {
      name: "pods belong to a podGroup, and quorum satisfied",
      pod: grouped("p", "pg1").obj(),
      want: Code.Success,
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const { harness } = await coschedulingHarness({ nodes, pgs, args: { permitWaitingTimeSeconds: 10 } });
      const { status } = (harness.plugin as Coscheduling).permit(new CycleState(), tc.pod, "node");
      expect(status?.code ?? Code.Success).toBe(tc.want);
    });
  }

  it("waits permitWaitingTimeSeconds, or the group's scheduleTimeoutSeconds", async () => {
    const pg = makePodGroup("pg2", "ns", 3);
    const { harness } = await coschedulingHarness({
      nodes,
      pgs: [pg],
      args: { permitWaitingTimeSeconds: 10 },
    });
    const pl = harness.plugin as Coscheduling;
    expect(pl.permit(new CycleState(), grouped("a", "pg2").obj(), "node").timeoutMs).toBe(10_000);
    (pg.spec ?? {}).scheduleTimeoutSeconds = 3;
    expect(pl.permit(new CycleState(), grouped("b", "pg2").obj(), "node").timeoutMs).toBe(3000);
  });
});

describe("TestLessAfterScheduleFailure", () => {
  it("a group that failed sorts after a younger group until its failure is cleared", async () => {
    const now = Date.UTC(2026, 0, 1);
    const { harness, clock } = await coschedulingHarness({
      pgs: [
        makePodGroup("pg1", "ns", 3, { time: now - 10_000 }),
        makePodGroup("pg2", "ns", 3, { time: now - 5000 }),
      ],
    });
    const pl = harness.plugin as Coscheduling;
    const p1 = queued(
      makePod().name("p1").namespace("ns").priority(100).label(PodGroupLabel, "pg1").obj(),
      now,
    );
    const p2 = queued(
      makePod().name("p2").namespace("ns").priority(100).label(PodGroupLabel, "pg2").obj(),
      now,
    );
    expect(pl.less(p1, p2)).toBe(true);
    clock.advance(1);
    pl.pgMgr.markPodGroupScheduleFailure("ns/pg1");
    expect(pl.less(p1, p2)).toBe(false);
    expect(pl.less(p2, p1)).toBe(true);
    pl.pgMgr.clearPodGroupScheduleFailure("ns/pg1");
    expect(pl.less(p1, p2)).toBe(true);
  });
});

describe("TestPostFilter", () => {
  const cases = [
    {
      name: "pod does not belong to any pod group",
      pod: makePod().name("p").namespace("ns").uid("p").obj(),
      existingPods: [],
      pgs: [makePodGroup("pg1", "ns", 2)],
      want: { code: Code.Unschedulable, reasons: ["can not find pod group"] },
    },
    {
      name: "enough pods assigned, do not reject all",
      pod: grouped("p", "pg1").obj(),
      existingPods: [grouped("p1", "pg1").node("node").obj()],
      pgs: [makePodGroup("pg1", "ns", 1)],
      want: { code: Code.Unschedulable, reasons: [] },
    },
    {
      name: "pod failed at filter phase, reject all pods",
      pod: grouped("p", "pg1").obj(),
      existingPods: [grouped("p1", "pg1").node("node").obj()],
      pgs: [makePodGroup("pg1", "ns", 2)],
      want: {
        code: Code.Unschedulable,
        reasons: ["PodGroup ns/pg1 gets rejected due to Pod p is unschedulable even after PostFilter"],
      },
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const { harness } = await coschedulingHarness({
        nodes,
        pods: [...tc.existingPods, tc.pod],
        pgs: tc.pgs,
        args: { permitWaitingTimeSeconds: 10 },
      });
      const out = (harness.plugin as Coscheduling).postFilter(new CycleState(), tc.pod, new NodeToStatus());
      expect(statusOf(out.status)).toEqual(tc.want);
    });
  }
});

describe("TestPostFilterRejectThreshold", () => {
  const reject = {
    code: Code.Unschedulable,
    reasons: ["PodGroup ns/pg1 gets rejected due to Pod p is unschedulable even after PostFilter"],
  };
  const noReject = { code: Code.Unschedulable, reasons: [] };
  const cases = [
    {
      name: "default 10%: 9/10 assigned (10% gap) → no rejection",
      threshold: 10,
      minMember: 10,
      assigned: 9,
      want: noReject,
    },
    {
      name: "default 10%: 8/10 assigned (20% gap) → rejection",
      threshold: 10,
      minMember: 10,
      assigned: 8,
      want: reject,
    },
    {
      name: "0%: 9/10 assigned (10% gap) → rejection (always reject)",
      threshold: 0,
      minMember: 10,
      assigned: 9,
      want: reject,
    },
    {
      name: "100%: 0/10 assigned (100% gap) → no rejection (never reject)",
      threshold: 100,
      minMember: 10,
      assigned: 0,
      want: noReject,
    },
    {
      name: "50%: 6/10 assigned (40% gap) → no rejection",
      threshold: 50,
      minMember: 10,
      assigned: 6,
      want: noReject,
    },
    {
      name: "50%: 4/10 assigned (60% gap) → rejection",
      threshold: 50,
      minMember: 10,
      assigned: 4,
      want: reject,
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const assigned = Array.from({ length: tc.assigned }, (_, i) =>
        grouped(`assigned-${i}`, "pg1").node("node").obj(),
      );
      const pod = grouped("p", "pg1").obj();
      const { harness } = await coschedulingHarness({
        nodes: [makeNode().name("node").capacity({ cpu: "4", pods: "110" }).obj()],
        pods: [...assigned, pod],
        pgs: [makePodGroup("pg1", "ns", tc.minMember)],
        args: { permitWaitingTimeSeconds: 10, podGroupRejectPercentage: tc.threshold },
      });
      const out = (harness.plugin as Coscheduling).postFilter(new CycleState(), pod, new NodeToStatus());
      expect(statusOf(out.status)).toEqual(tc.want);
    });
  }
});
