// upstream: pkg/scheduler/framework/plugins/noderesources/resource_allocation_test.go
// (TestResourceAllocationScorerCalculateRequests; the DRA-backed cases of
// TestCalculateResourceAllocatableRequest are not ported: kubesched has no DRA manager).
import { DefaultMemoryRequest, DefaultMilliCPURequest, type Pod } from "@kubesched/api";
import { defaultResourceSpec } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import { leastResourceScorer, ResourceAllocationScorer } from "./resource-allocation";

const defaultResources = defaultResourceSpec();

describe("TestResourceAllocationScorerCalculateRequests", () => {
  const oneMi = 1048576;
  const cases: { name: string; pod: Pod; expected: Record<string, number> }[] = [
    {
      name: "overhead only",
      pod: { spec: { containers: [], overhead: { cpu: "1", memory: "1Mi" } } },
      expected: { cpu: 1000, memory: oneMi },
    },
    {
      name: "1x requestless container",
      pod: { spec: { containers: [{ name: "c" }] } },
      expected: { cpu: DefaultMilliCPURequest, memory: DefaultMemoryRequest },
    },
    {
      name: "2x requestless container",
      pod: { spec: { containers: [{ name: "a" }, { name: "b" }] } },
      expected: { cpu: 2 * DefaultMilliCPURequest, memory: 2 * DefaultMemoryRequest },
    },
    {
      name: "request container + requestless container",
      pod: {
        spec: {
          containers: [{ name: "a", resources: { requests: { cpu: "1", memory: "1Mi" } } }, { name: "b" }],
        },
      },
      expected: { cpu: 1000 + DefaultMilliCPURequest, memory: oneMi + DefaultMemoryRequest },
    },
    {
      name: "container + requestless container + overhead",
      pod: {
        spec: {
          overhead: { cpu: "1", memory: "1Mi" },
          containers: [{ name: "a", resources: { requests: { cpu: "1", memory: "1Mi" } } }, { name: "b" }],
        },
      },
      expected: { cpu: 2000 + DefaultMilliCPURequest, memory: 2 * oneMi + DefaultMemoryRequest },
    },
    {
      name: "init container + container + requestless container + overhead",
      pod: {
        spec: {
          overhead: { cpu: "1", memory: "1Mi" },
          initContainers: [{ name: "i", resources: { requests: { cpu: "3" } } }],
          containers: [{ name: "a", resources: { requests: { cpu: "1", memory: "1Mi" } } }, { name: "b" }],
        },
      },
      expected: { cpu: 4000, memory: 2 * oneMi + DefaultMemoryRequest },
    },
    {
      name: "requestless init container + small init container + small container ",
      pod: {
        spec: {
          initContainers: [
            { name: "i0" },
            { name: "i1", resources: { requests: { cpu: "1m", memory: "1" } } },
          ],
          containers: [{ name: "a", resources: { requests: { cpu: "3m", memory: "3" } } }],
        },
      },
      expected: { cpu: DefaultMilliCPURequest, memory: DefaultMemoryRequest },
    },
    {
      name: "requestless init container + small init container + small container + requestless container ",
      pod: {
        spec: {
          initContainers: [
            { name: "i0" },
            { name: "i1", resources: { requests: { cpu: "1m", memory: "1" } } },
          ],
          containers: [{ name: "a", resources: { requests: { cpu: "3m", memory: "3" } } }, { name: "b" }],
        },
      },
      expected: { cpu: 3 + DefaultMilliCPURequest, memory: 3 + DefaultMemoryRequest },
    },
  ];
  const scorer = new ResourceAllocationScorer({
    name: "LeastAllocated",
    resources: defaultResources,
    scorer: leastResourceScorer(defaultResources),
    useRequested: false,
    enableInPlacePodVerticalScaling: true,
    enablePodLevelResources: true,
  });
  it.each(cases)("$name", (tc) => {
    for (const [name, exp] of Object.entries(tc.expected)) {
      expect(scorer.calculatePodResourceRequest(tc.pod, name), name).toBe(exp);
    }
  });
});
