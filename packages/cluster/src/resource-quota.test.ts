// ResourceQuota admission, ported from upstream pkg/quota/v1/evaluator/core/pods_test.go
// (TestPodConstraintsFunc, TestPodEvaluatorUsage, TestPodEvaluatorMatchingScopes) and
// plugin/pkg/admission/resourcequota/admission_test.go (TestAdmitBelowQuotaLimit,
// TestAdmitExceedQuotaLimit, TestAdmitEnforceQuotaConstraints, TestAdmitBelowBestEffortQuotaLimit,
// TestAdmitBestEffortQuotaLimitIgnoresBurstable, TestAdmitBelowTerminatingQuotaLimit): the same
// inputs; where upstream checks only that an error is returned, the expected message is
// upstream's format string filled in.
import { type Pod, type ResourceList, resourceAmount } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { podUsage, QuotaTracker, type ResourceQuota } from "./resource-quota";

const now = Date.UTC(2026, 0, 1);

function container(name: string, requests: ResourceList = {}, limits: ResourceList = {}) {
  return { name, image: "x", resources: { requests, limits } };
}
function pod(spec: Partial<NonNullable<Pod["spec"]>>, name = "p", extra: Partial<Pod> = {}): Pod {
  return { metadata: { name, namespace: "test" }, spec: { containers: [], ...spec }, ...extra };
}
function amounts(list: Record<string, string>): Map<string, number> {
  return new Map(
    Object.entries(list).map(([k, v]) => [k, resourceAmount(k.replace(/^(requests|limits)\./, ""), v)]),
  );
}
function quota(
  name: string,
  hard: ResourceList,
  spec: Partial<NonNullable<ResourceQuota["spec"]>> = {},
  used?: ResourceList,
): ResourceQuota {
  return {
    metadata: { name, namespace: "test" },
    spec: { hard, ...spec },
    ...(used ? { status: { hard, used } } : {}),
  };
}

describe("pod evaluator constraints (TestPodConstraintsFunc)", () => {
  const cpuOnly = { cpu: "1m" };
  const cases: [string, Pod, ResourceList, string | null][] = [
    [
      "init container resource missing",
      pod({ initContainers: [container("dummy", cpuOnly, { cpu: "2m" })] }),
      { memory: "1" },
      "must specify memory for: dummy",
    ],
    [
      "multiple init container resource missing",
      pod({
        initContainers: [container("foo", cpuOnly, { cpu: "2m" }), container("bar", cpuOnly, { cpu: "2m" })],
      }),
      { memory: "1" },
      "must specify memory for: bar,foo",
    ],
    [
      "container resource missing",
      pod({ containers: [container("dummy", cpuOnly, { cpu: "2m" })] }),
      { memory: "1" },
      "must specify memory for: dummy",
    ],
    [
      "multiple container resource missing",
      pod({
        containers: [container("foo", cpuOnly, { cpu: "2m" }), container("bar", cpuOnly, { cpu: "2m" })],
      }),
      { memory: "1" },
      "must specify memory for: bar,foo",
    ],
    [
      "container resource missing multiple",
      pod({ containers: [container("foo"), container("bar")] }),
      { memory: "1", cpu: "1" },
      "must specify cpu for: bar,foo; memory for: bar,foo",
    ],
    [
      "pod-level resource set, container-level required resources missing",
      pod({ resources: { requests: { cpu: "1m" } }, containers: [container("foo"), container("bar")] }),
      { memory: "1", cpu: "1" },
      null,
    ],
  ];
  it.each(cases)("%s", (_name, p, hard, message) => {
    const tracker = new QuotaTracker([quota("q", hard)], [], now);
    expect(tracker.constraints(p)).toBe(
      message === null ? null : `pods "p" is forbidden: failed quota: q: ${message}`,
    );
  });
});

describe("pod evaluator usage (TestPodEvaluatorUsage)", () => {
  const count = { pods: "1", "count/pods": "1" };
  const cases: [string, Pod, Record<string, string>][] = [
    [
      "init container CPU",
      pod({ initContainers: [container("c", { cpu: "1m" }, { cpu: "2m" })] }),
      { ...count, "requests.cpu": "1m", "limits.cpu": "2m", cpu: "1m" },
    ],
    [
      "init container local ephemeral storage",
      pod({
        initContainers: [container("c", { "ephemeral-storage": "32Mi" }, { "ephemeral-storage": "64Mi" })],
      }),
      {
        ...count,
        "ephemeral-storage": "32Mi",
        "requests.ephemeral-storage": "32Mi",
        "limits.ephemeral-storage": "64Mi",
      },
    ],
    [
      "init container hugepages",
      pod({ initContainers: [container("c", { "hugepages-2Mi": "100Mi" })] }),
      { ...count, "hugepages-2Mi": "100Mi", "requests.hugepages-2Mi": "100Mi" },
    ],
    [
      "init container extended resources",
      pod({ initContainers: [container("c", { "example.com/dongle": "3" }, { "example.com/dongle": "3" })] }),
      { ...count, "requests.example.com/dongle": "3" },
    ],
    [
      "container CPU",
      pod({ containers: [container("c", { cpu: "1m" }, { cpu: "2m" })] }),
      { ...count, "requests.cpu": "1m", "limits.cpu": "2m", cpu: "1m" },
    ],
    [
      "container extended resources",
      pod({ containers: [container("c", { "example.com/dongle": "3" }, { "example.com/dongle": "3" })] }),
      { ...count, "requests.example.com/dongle": "3" },
    ],
    [
      "terminated generic count still appears",
      pod(
        { containers: [container("c", { "example.com/dongle": "3" }, { "example.com/dongle": "3" })] },
        "p",
        { status: { phase: "Succeeded" } },
      ),
      { "count/pods": "1" },
    ],
    [
      "init container maximums override sum of containers",
      pod({
        initContainers: [
          container(
            "i1",
            { cpu: "4", memory: "100M", "example.com/dongle": "4" },
            { cpu: "8", memory: "200M", "example.com/dongle": "4" },
          ),
          container(
            "i2",
            { cpu: "1", memory: "50M", "example.com/dongle": "2" },
            { cpu: "2", memory: "100M", "example.com/dongle": "2" },
          ),
        ],
        containers: [
          container(
            "c1",
            { cpu: "1", memory: "50M", "example.com/dongle": "1" },
            { cpu: "2", memory: "100M", "example.com/dongle": "1" },
          ),
          container(
            "c2",
            { cpu: "2", memory: "25M", "example.com/dongle": "2" },
            { cpu: "5", memory: "50M", "example.com/dongle": "2" },
          ),
        ],
      }),
      {
        ...count,
        "requests.cpu": "4",
        "requests.memory": "100M",
        "requests.example.com/dongle": "4",
        "limits.cpu": "8",
        "limits.memory": "200M",
        cpu: "4",
        memory: "100M",
      },
    ],
    [
      "pod deletion timestamp exceeded",
      pod({ containers: [container("c", { cpu: "1" }, { cpu: "2" })] }, "p", {
        metadata: {
          name: "p",
          namespace: "test",
          deletionTimestamp: new Date(now - 60_000).toISOString(),
          deletionGracePeriodSeconds: 30,
        },
      }),
      { "count/pods": "1" },
    ],
    [
      "pod deletion timestamp not exceeded",
      pod({ containers: [container("c", { cpu: "1" }, { cpu: "2" })] }, "p", {
        metadata: {
          name: "p",
          namespace: "test",
          deletionTimestamp: new Date(now).toISOString(),
          deletionGracePeriodSeconds: 30,
        },
      }),
      { ...count, "requests.cpu": "1", "limits.cpu": "2", cpu: "1" },
    ],
    [
      "pod overhead counts",
      pod({
        overhead: { cpu: "1", memory: "1Gi" },
        containers: [container("c", { cpu: "1", memory: "1Gi" }, { cpu: "2", memory: "2Gi" })],
      }),
      {
        ...count,
        "requests.cpu": "2",
        "limits.cpu": "3",
        cpu: "2",
        "requests.memory": "2Gi",
        "limits.memory": "3Gi",
        memory: "2Gi",
      },
    ],
    [
      "pod-level resources",
      pod({
        resources: { requests: { cpu: "2", memory: "1Gi" }, limits: { cpu: "4", memory: "2Gi" } },
        containers: [container("c", { cpu: "1", memory: "512Mi" })],
      }),
      {
        ...count,
        "requests.cpu": "2",
        "limits.cpu": "4",
        cpu: "2",
        "requests.memory": "1Gi",
        "limits.memory": "2Gi",
        memory: "1Gi",
      },
    ],
  ];
  it.each(cases)("%s", (_name, p, usage) => {
    expect(podUsage(p, now)).toEqual(amounts(usage));
  });
});

describe("scopes (TestPodEvaluatorMatchingScopes) through admission", () => {
  const bestEffort = pod({ containers: [container("c")] });
  const burstable = pod({ containers: [container("c", { cpu: "1" })] });
  const terminating = pod({ activeDeadlineSeconds: 60, containers: [container("c", { cpu: "1" })] });
  const withClass = (pc: string) =>
    pod({ priorityClassName: pc, containers: [container("c", { cpu: "1" })] });
  const crossNs = pod({
    containers: [container("c", { cpu: "1" })],
    affinity: {
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: "k", namespaces: ["other"] }],
      },
    },
  });
  const full = (spec: Partial<NonNullable<ResourceQuota["spec"]>>) =>
    new QuotaTracker([quota("q", { pods: "0" }, spec)], [], now);
  const cases: [string, Partial<NonNullable<ResourceQuota["spec"]>>, Pod, boolean][] = [
    ["BestEffort matches a best-effort pod", { scopes: ["BestEffort"] }, bestEffort, true],
    [
      "BestEffort ignores burstable (TestAdmitBestEffortQuotaLimitIgnoresBurstable)",
      { scopes: ["BestEffort"] },
      burstable,
      false,
    ],
    ["NotBestEffort matches burstable", { scopes: ["NotBestEffort"] }, burstable, true],
    ["Terminating matches activeDeadlineSeconds", { scopes: ["Terminating"] }, terminating, true],
    ["Terminating ignores long-running", { scopes: ["Terminating"] }, burstable, false],
    ["NotTerminating matches long-running", { scopes: ["NotTerminating"] }, burstable, true],
    [
      "PriorityClass In",
      {
        scopeSelector: {
          matchExpressions: [{ scopeName: "PriorityClass", operator: "In", values: ["high"] }],
        },
      },
      withClass("high"),
      true,
    ],
    [
      "PriorityClass In, other class",
      {
        scopeSelector: {
          matchExpressions: [{ scopeName: "PriorityClass", operator: "In", values: ["high"] }],
        },
      },
      withClass("low"),
      false,
    ],
    [
      "PriorityClass NotIn",
      {
        scopeSelector: {
          matchExpressions: [{ scopeName: "PriorityClass", operator: "NotIn", values: ["high"] }],
        },
      },
      withClass("low"),
      true,
    ],
    [
      "PriorityClass Exists without class",
      { scopeSelector: { matchExpressions: [{ scopeName: "PriorityClass", operator: "Exists" }] } },
      burstable,
      false,
    ],
    [
      "PriorityClass DoesNotExist without class",
      { scopeSelector: { matchExpressions: [{ scopeName: "PriorityClass", operator: "DoesNotExist" }] } },
      burstable,
      true,
    ],
    [
      "CrossNamespacePodAffinity",
      {
        scopeSelector: { matchExpressions: [{ scopeName: "CrossNamespacePodAffinity", operator: "Exists" }] },
      },
      crossNs,
      true,
    ],
    [
      "CrossNamespacePodAffinity, same namespace",
      {
        scopeSelector: { matchExpressions: [{ scopeName: "CrossNamespacePodAffinity", operator: "Exists" }] },
      },
      burstable,
      false,
    ],
  ];
  it.each(cases)("%s", (_name, spec, p, refused) => {
    const out = full(spec).admit(p);
    expect(out === null ? null : out.error).toBe(
      refused
        ? 'pods "p" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0'
        : null,
    );
  });
});

describe("admission (resourcequota admission_test.go)", () => {
  const podWith = (name: string, requests: ResourceList, limits: ResourceList = {}) =>
    pod({ containers: [container("c", requests, limits)] }, name);

  it("admits below the limit and charges the usage (TestAdmitBelowQuotaLimit)", () => {
    const q = quota(
      "quota",
      { cpu: "3", memory: "100Gi", pods: "5" },
      {},
      { cpu: "1", memory: "50Gi", pods: "3" },
    );
    const t = new QuotaTracker([q], [], now);
    expect(t.admit(podWith("allowed-pod", { cpu: "100m", memory: "2Gi" }))).toBeNull();
    // 3 + 1 pods: the fifth fits, the sixth does not.
    expect(t.admit(podWith("p5", { cpu: "100m", memory: "2Gi" }))).toBeNull();
    expect(t.admit(podWith("p6", { cpu: "100m", memory: "2Gi" }))?.error).toBe(
      'pods "p6" is forbidden: exceeded quota: quota, requested: pods=1, used: pods=5, limited: pods=5',
    );
  });

  it("refuses above the limit with upstream's message (TestAdmitExceedQuotaLimit)", () => {
    const q = quota(
      "quota",
      { cpu: "3", memory: "100Gi", pods: "5" },
      {},
      { cpu: "1", memory: "50Gi", pods: "3" },
    );
    expect(
      new QuotaTracker([q], [], now).admit(podWith("not-allowed-pod", { cpu: "3", memory: "2Gi" })),
    ).toEqual({
      error:
        'pods "not-allowed-pod" is forbidden: exceeded quota: quota, requested: cpu=3, used: cpu=1, limited: cpu=3',
      exhausted: true,
    });
  });

  it("refuses a pod without the requests a cpu/memory quota needs (TestAdmitEnforceQuotaConstraints)", () => {
    const q = quota("quota", {
      cpu: "3",
      memory: "100Gi",
      "limits.cpu": "200m",
      "limits.memory": "200Mi",
      pods: "5",
    });
    expect(
      new QuotaTracker([q], [], now).admit(podWith("not-allowed-pod", { cpu: "100m", memory: "2Gi" })),
    ).toEqual({
      error:
        'pods "not-allowed-pod" is forbidden: failed quota: quota: must specify limits.cpu for: c; limits.memory for: c',
      exhausted: false,
    });
  });

  it("counts the snapshot's pods of the namespace that match, and gives a deleted pod's usage back", () => {
    const existing = [
      podWith("a", { cpu: "1" }),
      { ...podWith("b", { cpu: "1" }), metadata: { name: "b", namespace: "other" } },
      { ...podWith("done", { cpu: "1" }), status: { phase: "Failed" } },
    ];
    const t = new QuotaTracker([quota("quota", { "requests.cpu": "2" })], existing, now);
    const next = podWith("next", { cpu: "1500m" });
    expect(t.admit(next)?.error).toBe(
      'pods "next" is forbidden: exceeded quota: quota, requested: requests.cpu=1500m, used: requests.cpu=1, limited: requests.cpu=2',
    );
    t.release(existing[0] as Pod);
    expect(t.admit(next)).toBeNull();
  });

  it("takes status.used where it is above what the snapshot's pods use", () => {
    const t = new QuotaTracker([quota("quota", { pods: "2" }, {}, { pods: "2" })], [], now);
    expect(t.admit(podWith("p", {}))?.exhausted).toBe(true);
    const cpu = new QuotaTracker(
      [quota("quota", { "requests.cpu": "2" }, {}, { "requests.cpu": "1500m" })],
      [podWith("running", { cpu: "1" })],
      now,
    );
    expect(cpu.admit(podWith("p", { cpu: "600m" }))?.error).toBe(
      'pods "p" is forbidden: exceeded quota: quota, requested: requests.cpu=600m, used: requests.cpu=1500m, limited: requests.cpu=2',
    );
    expect(cpu.admit(podWith("q", { cpu: "500m" }))).toBeNull();
  });

  it("prints the amounts as the hard limit is written and names every exceeded resource", () => {
    const t = new QuotaTracker(
      [quota("quota", { "requests.memory": "1G", "limits.memory": "1Gi" })],
      [],
      now,
    );
    expect(t.admit(podWith("big", { memory: "2G" }, { memory: "2Gi" }))?.error).toBe(
      'pods "big" is forbidden: exceeded quota: quota, requested: limits.memory=2Gi,requests.memory=2G, used: limits.memory=0,requests.memory=0, limited: limits.memory=1Gi,requests.memory=1G',
    );
  });
});
