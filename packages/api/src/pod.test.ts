import type { Pod, PodStatus } from "kubernetes-types/core/v1.js";
import { describe, expect, it } from "vitest";
import {
  getPodCondition,
  hasSchedulingGates,
  isPodTerminating,
  podHasAffinity,
  podHasRequiredAntiAffinity,
  podIsTerminal,
  podKey,
  podPriority,
  podStartTime,
  podStartTimeMillis,
  podUID,
  updatePodCondition,
} from "./pod";

// upstream: staging/src/k8s.io/component-helpers/scheduling/corev1/helpers_test.go
describe("TestPodPriority", () => {
  it("no priority pod resolves to static default priority", () =>
    expect(podPriority({ spec: { containers: [{ name: "container", image: "image" }] } })).toBe(0));
  it("pod with priority resolves correctly", () =>
    expect(podPriority({ spec: { containers: [{ name: "container", image: "image" }], priority: 20 } })).toBe(
      20,
    ));
});

describe("pod keys", () => {
  it("uses namespace/name and falls back for the uid", () => {
    const pod: Pod = { metadata: { namespace: "ns", name: "p" } };
    expect(podKey(pod)).toBe("ns/p");
    expect(podUID(pod)).toBe("ns/p");
    expect(podUID({ metadata: { namespace: "ns", name: "p", uid: "u-1" } })).toBe("u-1");
  });
});

describe("pod predicates", () => {
  it("terminating, gated, terminal, affinity", () => {
    expect(isPodTerminating({ metadata: { deletionTimestamp: "2024-01-01T00:00:00Z" } })).toBe(true);
    expect(isPodTerminating({ metadata: {} })).toBe(false);
    expect(hasSchedulingGates({ spec: { containers: [], schedulingGates: [{ name: "g" }] } })).toBe(true);
    expect(hasSchedulingGates({ spec: { containers: [], schedulingGates: [] } })).toBe(false);
    expect(podIsTerminal({ status: { phase: "Succeeded" } })).toBe(true);
    expect(podIsTerminal({ status: { phase: "Running" } })).toBe(false);
    expect(podHasAffinity({ spec: { containers: [], affinity: { podAntiAffinity: {} } } })).toBe(true);
    expect(podHasAffinity({ spec: { containers: [], affinity: { nodeAffinity: {} } } })).toBe(false);
    const term = { topologyKey: "zone" };
    expect(
      podHasRequiredAntiAffinity({
        spec: {
          containers: [],
          affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } },
        },
      }),
    ).toBe(true);
    expect(podHasRequiredAntiAffinity({ spec: { containers: [], affinity: { podAntiAffinity: {} } } })).toBe(
      false,
    );
    expect(podStartTime({ status: { startTime: "2024-01-01T00:00:00Z" } })?.getTime()).toBe(
      Date.UTC(2024, 0, 1),
    );
    expect(podStartTime({})).toBeUndefined();
  });

  it("podStartTimeMillis is podStartTime in milliseconds, through its memo as without it", () => {
    const times = ["2024-01-01T00:00:00Z", "2024-01-01T00:00:01Z", "not a time", "2023-12-31T23:59:59Z"];
    for (let i = 0; i < 5000; i++) {
      // More distinct times than the memo keeps, so that it is cleared on the way.
      const t =
        i % 5 === 0 ? new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString() : (times[i % 4] as string);
      expect(podStartTimeMillis({ status: { startTime: t } })).toEqual(new Date(t).getTime());
    }
    expect(podStartTimeMillis({})).toBeUndefined();
    expect(podStartTimeMillis({ status: {} })).toBeUndefined();
  });
});

// upstream: pkg/api/v1/pod/util_test.go (TestUpdatePodCondition)
describe("TestUpdatePodCondition", () => {
  const t0 = new Date("2024-01-01T00:00:00Z");
  const t1 = new Date("2024-01-01T00:01:00Z");
  it("adds a new condition", () => {
    const status: PodStatus = {};
    expect(
      updatePodCondition(status, { type: "PodScheduled", status: "False", reason: "Unschedulable" }, t0),
    ).toBe(true);
    expect(getPodCondition(status, "PodScheduled")?.lastTransitionTime).toBe("2024-01-01T00:00:00Z");
  });
  it("keeps lastTransitionTime when the status does not flip, and reports no change", () => {
    const status: PodStatus = {};
    updatePodCondition(
      status,
      { type: "PodScheduled", status: "False", reason: "Unschedulable", message: "m" },
      t0,
    );
    expect(
      updatePodCondition(
        status,
        { type: "PodScheduled", status: "False", reason: "Unschedulable", message: "m" },
        t1,
      ),
    ).toBe(false);
    expect(getPodCondition(status, "PodScheduled")?.lastTransitionTime).toBe("2024-01-01T00:00:00Z");
  });
  it("a message change is a change but keeps the transition time", () => {
    const status: PodStatus = {};
    updatePodCondition(status, { type: "PodScheduled", status: "False", message: "a" }, t0);
    expect(updatePodCondition(status, { type: "PodScheduled", status: "False", message: "b" }, t1)).toBe(
      true,
    );
    expect(getPodCondition(status, "PodScheduled")?.lastTransitionTime).toBe("2024-01-01T00:00:00Z");
    expect(getPodCondition(status, "PodScheduled")?.message).toBe("b");
  });
  it("a status flip moves lastTransitionTime", () => {
    const status: PodStatus = {};
    updatePodCondition(status, { type: "PodScheduled", status: "False" }, t0);
    expect(updatePodCondition(status, { type: "PodScheduled", status: "True" }, t1)).toBe(true);
    expect(getPodCondition(status, "PodScheduled")?.lastTransitionTime).toBe("2024-01-01T00:01:00Z");
    expect(status.conditions).toHaveLength(1);
  });
});
