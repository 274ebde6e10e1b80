// PodInfo.hostPorts: getContainerPorts of the pod, computed once; NodeInfo's used ports follow it.
// PodInfo.priority, startTime, hasPodAffinity and claimKeys: read from the pod once.
import { getContainerPorts, type Pod, podHasAffinity, podUID } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { NodeInfo } from "./node-info";
import { PodInfo } from "./pod-info";

const pods: Pod[] = [
  { metadata: { name: "none", uid: "none" }, spec: { containers: [{ name: "c" }] } },
  {
    metadata: { name: "container-port-only", uid: "cpo" },
    spec: { containers: [{ name: "c", ports: [{ containerPort: 80 }] }] },
  },
  {
    metadata: { name: "host-ports", uid: "hp" },
    spec: {
      initContainers: [
        { name: "sidecar", restartPolicy: "Always", ports: [{ containerPort: 9, hostPort: 9000 }] },
        { name: "init", ports: [{ containerPort: 8, hostPort: 8000 }] },
      ],
      containers: [
        { name: "a", ports: [{ containerPort: 80, hostPort: 8080, protocol: "UDP", hostIP: "1.2.3.4" }] },
        { name: "b", ports: [{ containerPort: 81 }, { containerPort: 82, hostPort: 8082 }] },
      ],
    },
  },
  { metadata: { name: "no-spec", uid: "ns" } },
];

describe("PodInfo.hostPorts", () => {
  it("equals getContainerPorts of the pod, the same array on every call", () => {
    for (const pod of pods) {
      const pi = new PodInfo(pod);
      expect(pi.hostPorts()).toEqual(getContainerPorts(pod));
      expect(pi.hostPorts()).toBe(pi.hostPorts());
    }
  });

  it("NodeInfo's used ports after additions and removals are those of the pods left", () => {
    const ni = new NodeInfo();
    for (const pod of pods) ni.addPod(pod);
    expect(ni.usedPorts.checkConflict("1.2.3.4", "UDP", 8080)).toBe(true);
    expect(ni.usedPorts.checkConflict("0.0.0.0", "TCP", 9000)).toBe(true);
    expect(ni.usedPorts.checkConflict("0.0.0.0", "TCP", 8000)).toBe(false);
    ni.removePod(pods[2] as Pod);
    expect(ni.usedPorts.checkConflict("1.2.3.4", "UDP", 8080)).toBe(false);
    expect(ni.usedPorts.checkConflict("0.0.0.0", "TCP", 8082)).toBe(false);
    ni.addPodInfo(new PodInfo(pods[2] as Pod));
    expect(ni.usedPorts.checkConflict("0.0.0.0", "TCP", 8082)).toBe(true);
  });
});

// What preemption and NodeInfo read from a PodInfo on every candidate node (issue 27: the dry run
// followed pod → spec → priority and parsed status.startTime again on cold pods).
const affinityPods: Pod[] = [
  { metadata: { name: "plain", namespace: "ns", uid: "a1" }, spec: { containers: [{ name: "c" }] } },
  {
    metadata: { name: "affinity", namespace: "ns", uid: "a2" },
    spec: { containers: [{ name: "c" }], affinity: { podAffinity: {} } },
  },
  {
    metadata: { name: "required-anti", namespace: "ns", uid: "a3" },
    spec: {
      containers: [{ name: "c" }],
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { topologyKey: "kubernetes.io/hostname", labelSelector: { matchLabels: { a: "b" } } },
          ],
        },
      },
    },
  },
  {
    metadata: { name: "node-affinity-only", namespace: "ns", uid: "a4" },
    spec: { containers: [{ name: "c" }], affinity: { nodeAffinity: {} } },
  },
  {
    metadata: { name: "volumes", namespace: "team", uid: "a5" },
    spec: {
      containers: [{ name: "c" }],
      volumes: [
        { name: "data", persistentVolumeClaim: { claimName: "claim-1" } },
        { name: "cfg", configMap: { name: "x" } },
        { name: "scratch", ephemeral: { volumeClaimTemplate: { spec: {} } } },
      ],
    },
  },
];

describe("PodInfo.priority and PodInfo.startTime", () => {
  it("priority is spec.priority, 0 when unset", () => {
    expect(new PodInfo({ metadata: { name: "p" }, spec: { containers: [], priority: 10 } }).priority()).toBe(
      10,
    );
    expect(new PodInfo({ metadata: { name: "p" }, spec: { containers: [], priority: -5 } }).priority()).toBe(
      -5,
    );
    expect(new PodInfo({ metadata: { name: "p" }, spec: { containers: [] } }).priority()).toBe(0);
    expect(new PodInfo({ metadata: { name: "p" } }).priority()).toBe(0);
  });

  it("startTime is status.startTime in milliseconds, null before the pod starts", () => {
    const started = new PodInfo({ metadata: { name: "p" }, status: { startTime: "2026-01-01T00:00:05Z" } });
    expect(started.startTime()).toBe(Date.UTC(2026, 0, 1, 0, 0, 5));
    expect(new PodInfo({ metadata: { name: "p" }, status: {} }).startTime()).toBeNull();
    expect(new PodInfo({ metadata: { name: "p" } }).startTime()).toBeNull();
  });

  it("both are read from the pod once", () => {
    const pod: Pod = { metadata: { name: "p" }, spec: { containers: [], priority: 3 }, status: {} };
    let specReads = 0;
    let statusReads = 0;
    const counted = new Proxy(pod, {
      get(target, key, receiver) {
        if (key === "spec") specReads++;
        if (key === "status") statusReads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const pi = new PodInfo(counted);
    const specAtConstruction = specReads;
    for (let i = 0; i < 5; i++) {
      expect(pi.priority()).toBe(3);
      expect(pi.startTime()).toBeNull();
    }
    expect(specReads - specAtConstruction).toBe(1);
    expect(statusReads).toBe(1);
  });
});

describe("PodInfo.uid", () => {
  it("is podUID of the pod (namespace/name without a uid), the same string on every call", () => {
    expect(new PodInfo({ metadata: { name: "p", namespace: "ns", uid: "u-1" } }).uid()).toBe("u-1");
    const noUID = new PodInfo({ metadata: { name: "p", namespace: "ns" } });
    expect(noUID.uid()).toBe(podUID(noUID.pod));
    expect(noUID.uid()).toBe(noUID.uid());
  });

  it("NodeInfo removes pods by it, also pods without a uid", () => {
    const ni = new NodeInfo();
    const a: Pod = { metadata: { name: "a", namespace: "ns" } };
    const b: Pod = { metadata: { name: "b", namespace: "ns", uid: "b" } };
    ni.addPod(a);
    ni.addPod(b);
    ni.removePod({ metadata: { name: "a", namespace: "ns" } });
    expect(ni.pods.map((p) => p.name)).toEqual(["b"]);
    expect(() => ni.removePod(a)).toThrow("no corresponding pod a in pods of node");
  });
});

describe("PodInfo.hasPodAffinity and PodInfo.claimKeys", () => {
  it("hasPodAffinity is podHasAffinity of the pod", () => {
    for (const pod of affinityPods) expect(new PodInfo(pod).hasPodAffinity).toBe(podHasAffinity(pod));
  });

  it("claimKeys are the namespaced claims of the pod's volumes, ephemeral ones named pod-volume", () => {
    expect(new PodInfo(affinityPods[4] as Pod).claimKeys()).toEqual(["team/claim-1", "team/volumes-scratch"]);
    expect(new PodInfo(affinityPods[0] as Pod).claimKeys()).toEqual([]);
  });

  it("NodeInfo's affinity lists and claim counts follow additions and removals", () => {
    const ni = new NodeInfo();
    for (const pod of affinityPods) ni.addPod(pod);
    ni.addPod({ ...(affinityPods[4] as Pod), metadata: { name: "volumes-2", namespace: "team", uid: "a6" } });
    expect(ni.podsWithAffinity.map((p) => p.name)).toEqual(["affinity", "required-anti"]);
    expect(ni.podsWithRequiredAntiAffinity.map((p) => p.name)).toEqual(["required-anti"]);
    expect([...ni.pvcRefCounts]).toEqual([
      ["team/claim-1", 2],
      ["team/volumes-scratch", 1],
      ["team/volumes-2-scratch", 1],
    ]);
    ni.removePod(affinityPods[2] as Pod);
    ni.removePod(affinityPods[4] as Pod);
    expect(ni.podsWithAffinity.map((p) => p.name)).toEqual(["affinity"]);
    expect(ni.podsWithRequiredAntiAffinity).toEqual([]);
    expect([...ni.pvcRefCounts]).toEqual([
      ["team/claim-1", 1],
      ["team/volumes-2-scratch", 1],
    ]);
  });
});

describe("PodInfo.calculateResource with DRA node allocatable claim statuses (upstream CalculateResource, DRANodeAllocatableResources)", () => {
  const spec: Pod["spec"] = {
    containers: [
      { name: "main", resources: { requests: { cpu: "2", memory: "1Gi" }, claims: [{ name: "cpus" }] } },
    ],
  };
  it("adds the statuses' mapped and overhead amounts; the same spec without them is not reused", () => {
    const plain = new PodInfo({ metadata: { name: "a", uid: "a" }, spec });
    const withDRA = new PodInfo({
      metadata: { name: "b", uid: "b" },
      spec,
      status: {
        nodeAllocatableResourceClaimStatuses: [
          {
            resourceClaimName: "c",
            containers: ["main"],
            mapping: [{ name: "cpu", quantity: "16" }],
            overhead: [{ name: "memory", perPod: "1Gi", perContainer: "512Mi" }],
          },
        ],
      },
    });
    expect(plain.calculateResource().resource.milliCPU).toBe(2000);
    expect(withDRA.calculateResource().resource.milliCPU).toBe(18000);
    expect(withDRA.calculateResource().resource.memory).toBe(2.5 * 1024 ** 3);
    expect(withDRA.calculateResource().nonZeroCPU).toBe(18000);
    const ni = new NodeInfo(plain.pod, withDRA.pod);
    expect(ni.requested.milliCPU).toBe(20000);
    ni.removePod(withDRA.pod);
    expect(ni.requested.milliCPU).toBe(2000);
  });
});
