// upstream: pkg/capacityscheduling/capacity_scheduling_test.go
import { Code, CycleState, NodeToStatus, Status } from "@kubesched/framework";
import { makeNode, makePod as stMakePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { computePodResourceRequest } from "./elastic-quota";
import {
  capacityHarness,
  highPriority,
  makeEQ,
  makePod,
  midPriority,
  ResourceGPU,
  usedBy,
} from "./fixtures.test-util";
import { type CapacityScheduling, ElasticQuotaInfo, Preemptor } from "./index";

describe("TestReserveResource (pods)", () => {
  it("ElasticQuotaInfo ReserveResource", () => {
    const eq = ElasticQuotaInfo.of("ns1", undefined, undefined, {
      cpu: "1000m",
      memory: "200",
      [ResourceGPU]: "2",
    });
    for (const p of [
      makePod("t1-p1", "ns1", 50, 1000, 1, midPriority, "t1-p1", "node-a"),
      makePod("t1-p2", "ns2", 100, 2000, 0, midPriority, "t1-p2", "node-a"),
      makePod("t1-p3", "ns2", 0, 0, 2, midPriority, "t1-p3", "node-a"),
    ]) {
      eq.reserveResource(computePodResourceRequest(p));
    }
    expect([eq.used.milliCPU, eq.used.memory, eq.used.scalar(ResourceGPU)]).toEqual([4000, 350, 5]);
  });
});

describe("TestPreFilter", () => {
  const cases = [
    {
      name: "pod subjects to ElasticQuota",
      pods: [
        makePod("ns1-p1", "ns1", 500, 0, 0, 0, "ns1-p1", ""),
        makePod("ns1-p2", "ns1", 1800, 0, 0, 0, "ns1-p2", ""),
      ],
      eqs: [makeEQ("ns1", "eq1", 2000, 1000)],
      used: [usedBy("ns1", 300)],
      expected: [Code.Success, Code.Unschedulable],
    },
    {
      name: "the sum of used is bigger than the sum of min",
      pods: [makePod("ns2-p1", "ns2", 500, 0, 0, 0, "ns2-p1", "")],
      eqs: [makeEQ("ns1", "eq1", 2000, 1000), makeEQ("ns2", "eq2", 2000, 1000)],
      used: [usedBy("ns1", 1800), usedBy("ns2", 200)],
      expected: [Code.Unschedulable],
    },
    {
      name: "without elasticQuotaInfo",
      pods: [makePod("ns2-p1", "ns2", 500, 0, 0, 0, "ns2-p1", "")],
      eqs: [],
      used: [],
      expected: [Code.Success],
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const h = await capacityHarness({ pods: tc.used, eqs: tc.eqs });
      const state = new CycleState();
      const got = tc.pods.map(
        (p) => (h.plugin as CapacityScheduling).preFilter(state, p)?.code ?? Code.Success,
      );
      expect(got).toEqual(tc.expected);
    });
  }

  it("rejects with upstream's messages", async () => {
    const h = await capacityHarness({ pods: [usedBy("ns1", 300)], eqs: [makeEQ("ns1", "eq1", 2000, 1000)] });
    const pl = h.plugin as CapacityScheduling;
    expect(pl.preFilter(new CycleState(), makePod("p", "ns1", 1800, 0, 0, 0, "p", ""))?.getReasons()).toEqual(
      ["Pod ns1/p is rejected in PreFilter because ElasticQuota ns1 is more than Max"],
    );
    expect(pl.preFilter(new CycleState(), makePod("p", "ns1", 800, 0, 0, 0, "p", ""))?.getReasons()).toEqual([
      "Pod ns1/p is rejected in PreFilter because total ElasticQuota used is more than min",
    ]);
  });
});

describe("TestPostFilter", () => {
  const existPods = () => [
    makePod("t1-p2", "ns1", 50, 0, 0, midPriority, "t1-p2", "node-a"),
    makePod("t1-p3", "ns2", 50, 0, 0, midPriority, "t1-p3", "node-a"),
    makePod("t1-p4", "ns2", 50, 0, 0, midPriority, "t1-p4", "node-a"),
  ];
  const cases = [
    {
      name: "in-namespace preemption",
      eqs: [makeEQ("ns1", "eq1", 200, 50), makeEQ("ns2", "eq2", 200, 200)],
      victims: ["ns1/t1-p2"],
    },
    {
      name: "cross-namespace preemption",
      eqs: [makeEQ("ns1", "eq1", 200, 150), makeEQ("ns2", "eq2", 200, 50)],
      victims: ["ns2/t1-p3"],
    },
    {
      name: "without elasticQuotas",
      eqs: [],
      // Any one of the three equal pods.
      victims: null,
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const pod = makePod("t1-p1", "ns1", 50, 0, 0, highPriority, "t1-p1", "");
      const h = await capacityHarness({
        nodes: [makeNode().name("node-a").capacity({ memory: "150" }).obj()],
        pods: [...existPods(), pod],
        eqs: tc.eqs,
        withFit: true,
      });
      const state = new CycleState();
      const pre = h.runPreFilter(state, pod);
      expect(pre.status === null || pre.status.isSuccess()).toBe(true);
      const m = new NodeToStatus();
      m.set("node-a", new Status(Code.Unschedulable));
      const out = await (h.plugin as CapacityScheduling).postFilter(state, pod, m);
      expect(out.status === null || out.status.isSuccess()).toBe(true);
      expect(out.result?.nominatingInfo?.nominatedNodeName).toBe("node-a");
      const deleted = h.client.calls.flatMap((c) =>
        c.verb === "delete" ? [`${c.pod.metadata?.namespace}/${c.pod.metadata?.name}`] : [],
      );
      if (tc.victims) expect(deleted).toEqual(tc.victims);
      else expect(deleted).toHaveLength(1);
    });
  }
});

describe("TestReserve", () => {
  it("Reserve pods", async () => {
    const h = await capacityHarness({ pods: [usedBy("ns1", 300)], eqs: [makeEQ("ns1", "eq1", 2000, 1000)] });
    const pl = h.plugin as CapacityScheduling;
    const pods = [
      makePod("t1-p1", "ns1", 50, 0, 0, midPriority, "t1-p1", "node-a"),
      makePod("t1-p2", "ns2", 50, 0, 0, midPriority, "t1-p2", "node-a"),
    ];
    const used: number[] = [];
    for (const p of pods) {
      expect(pl.reserve(new CycleState(), p, "node-a")).toBeNull();
      used.push(pl.elasticQuotaInfos().get("ns1")?.used.memory ?? -1);
    }
    expect(used).toEqual([350, 350]);
    expect([...pl.elasticQuotaInfos().keys()]).toEqual(["ns1"]);
  });
});

describe("TestUnreserve", () => {
  it("Unreserve pods", async () => {
    const h = await capacityHarness({ pods: [usedBy("ns1", 300)], eqs: [makeEQ("ns1", "eq1", 2000, 1000)] });
    const pl = h.plugin as CapacityScheduling;
    const p1 = makePod("t1-p1", "ns1", 50, 0, 0, midPriority, "t1-p1", "node-a");
    const p2 = makePod("t1-p2", "ns1", 50, 0, 0, midPriority, "t1-p2", "node-a");
    pl.reserve(new CycleState(), p1, "node-a");
    pl.reserve(new CycleState(), p2, "node-a");
    expect(pl.elasticQuotaInfos().get("ns1")?.used.memory).toBe(400);
    pl.unreserve(new CycleState(), p1, "node-a");
    expect(pl.elasticQuotaInfos().get("ns1")?.used.memory).toBe(350);
    pl.unreserve(new CycleState(), p2, "node-a");
    pl.unreserve(new CycleState(), p2, "node-a");
    expect(pl.elasticQuotaInfos().get("ns1")?.used.memory).toBe(300);
  });
});

describe("TestPodEligibleToPreemptOthers", () => {
  const preemptor = () =>
    stMakePod()
      .name("t1-p1")
      .uid("t1-p1")
      .namespace("ns1")
      .priority(highPriority)
      .nominatedNodeName("node-a");
  const terminatingIn = (ns: string) =>
    stMakePod()
      .name("t1-p0")
      .uid("t1-p0")
      .namespace(ns)
      .priority(midPriority)
      .node("node-a")
      .terminating()
      .obj();
  const cases = [
    {
      name: "Pod with PreemptNever preemption policy",
      pod: stMakePod().name("t1-p1").uid("t1-p1").priority(highPriority).preemptionPolicy("Never").obj(),
      existPods: [makePod("t1-p0", "ns1", 50, 10, 0, midPriority, "t1-p1", "node-a")],
      eqs: [makeEQ("ns1", "eq1", 150, 50)],
      nominatedNodeStatus: new Status(Code.UnschedulableAndUnresolvable),
      expected: false,
    },
    {
      name: "Pod with unschedulableAndUnresolvable nominated node",
      pod: preemptor().obj(),
      existPods: [makePod("t1-p0", "ns1", 50, 10, 0, midPriority, "t1-p1", "node-a")],
      eqs: [makeEQ("ns1", "eq1", 150, 50)],
      nominatedNodeStatus: new Status(Code.UnschedulableAndUnresolvable),
      expected: true,
    },
    {
      name: "Pod with terminating pod in the same namespace",
      pod: preemptor().obj(),
      existPods: [terminatingIn("ns1")],
      eqs: [makeEQ("ns1", "eq1", 150, 50)],
      nominatedNodeStatus: null,
      expected: false,
    },
    {
      name: "Pod with terminating pod in another namespace",
      pod: preemptor().obj(),
      existPods: [terminatingIn("ns2"), usedBy("ns2", 100)],
      eqs: [makeEQ("ns1", "eq1", 150, 50), makeEQ("ns2", "eq2", 150, 50)],
      nominatedNodeStatus: null,
      expected: false,
    },
    {
      name: "Pod without elasticQuotas and terminating pod exists in the same namespace",
      pod: preemptor().obj(),
      existPods: [terminatingIn("ns2")],
      eqs: [],
      nominatedNodeStatus: null,
      expected: false,
    },
    {
      name: "Pod without ElasticQuotas and terminating pod exists in another namespace",
      pod: preemptor().obj(),
      existPods: [terminatingIn("ns2"), usedBy("ns2", 100)],
      eqs: [makeEQ("ns2", "eq2", 150, 50)],
      nominatedNodeStatus: null,
      expected: true,
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const h = await capacityHarness({
        nodes: [makeNode().name("node-a").capacity({ memory: "150" }).obj()],
        pods: [...tc.existPods, tc.pod],
        eqs: tc.eqs,
      });
      const state = new CycleState();
      h.runPreFilter(state, tc.pod);
      const got = new Preemptor(h.framework, state).podEligibleToPreemptOthers(
        tc.pod,
        tc.nominatedNodeStatus,
      );
      expect(got.eligible).toBe(tc.expected);
    });
  }
});
