// upstream: pkg/scheduler/framework/plugins/dynamicresources/nodeallocatabledynamicresources_test.go
// (the newest stored version, kubernetes/kubernetes@0c29b313, which names the pod's status entries
// `additionalNodeAllocatableResources` with a `source` reference; here they are the 1.37
// `nodeAllocatableResourceClaimStatuses` with `resourceClaimName`, the rest alike). Ported:
// TestValidateNodeAllocatableDRAClaimSharing 9/14 (the 5 pod-group and workload-claim cases
// not: neither is modelled), TestBuildNodeAllocatableDRAInfo 21/21, TestNodeFitsNativeResources
// 8/8, TestValidatePodLevelResourcesCoverDRA 10/10, TestFilterSlicesForNode 3/3 (as device
// lookups on the node); TestGetPodNodeAllocatableResourceFootprintClaimName not (the
// pre-generated extended claim name is newer than the plugin ported, @0411cc70).
import type {
  AllocationResult,
  Device,
  Node,
  NodeAllocatableResourceClaimStatus,
  Pod,
  ResourceClaim,
  ResourceSlice,
} from "@kubesched/api";
import { Code, NodeInfo, type Status } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import {
  buildNodeAllocatableDRAInfo,
  type ClaimAllocation,
  nodeFitsResources,
  SliceDevices,
  sameNodeAllocatableStatuses,
  validateNodeAllocatableDRAClaimSharing,
  validatePodLevelResourcesCoverDRA,
} from "./node-allocatable";

const ns = "test-ns";
const claimName = "node-allocatable-claim";
const pod = (uid: string, o: Partial<Pod["spec"]> = {}): Pod => ({
  metadata: { name: "test-pod", namespace: ns, uid },
  spec: { containers: [], ...o },
});
const sliceOf = (pool: string, devices: Device[], o: Partial<ResourceSlice["spec"]> = {}): ResourceSlice => ({
  apiVersion: "resource.k8s.io/v1",
  kind: "ResourceSlice",
  metadata: { name: pool },
  spec: { driver: "", pool: { name: pool, generation: 0, resourceSliceCount: 1 }, devices, ...o },
});
const allocated = (pool: string, device: string, reservedFor: string[] = []): ResourceClaim => ({
  metadata: { name: claimName, namespace: ns, uid: "claim-uid" },
  spec: { devices: { requests: [] } },
  status: {
    allocation: { devices: { results: [{ request: "r", driver: "", pool, device }] } },
    ...(reservedFor.length > 0
      ? { reservedFor: reservedFor.map((uid) => ({ resource: "pods", name: uid, uid })) }
      : {}),
  },
});

describe("validateNodeAllocatableDRAClaimSharing (upstream TestValidateNodeAllocatableDRAClaimSharing)", () => {
  const cpuDevice: Device = {
    name: "cpu0",
    nodeAllocatableResources: { cpu: { mapping: { deviceMultiplier: "1" } } },
  };
  const gpuOverheadDevice: Device = {
    name: "gpu0",
    nodeAllocatableResources: { memory: { overhead: { perContainer: "100" } } },
  };
  const combined: Device = {
    name: "combined",
    nodeAllocatableResources: {
      cpu: { mapping: { deviceMultiplier: "1" }, overhead: { perContainer: "100" } },
    },
  };
  const sliceMapped = sliceOf("pool-1", [cpuDevice]);
  const sliceOverhead = sliceOf("pool-2", [gpuOverheadDevice]);
  const sliceCombined = sliceOf("pool-combined", [combined]);
  const shared =
    "node allocatable resource claim node-allocatable-claim has a mapped device and cannot be shared across pods";
  const cases: { name: string; claim: ResourceClaim | null; slices: ResourceSlice[]; want: string | null }[] =
    [
      { name: "empty claim", claim: null, slices: [], want: null },
      {
        name: "claim not allocated yet",
        claim: { metadata: { name: claimName, namespace: ns }, spec: { devices: { requests: [] } } },
        slices: [],
        want: null,
      },
      {
        name: "mapped claim, not shared (no other pods on node)",
        claim: allocated("pool-1", "cpu0"),
        slices: [sliceMapped],
        want: null,
      },
      {
        name: "mapped claim, shared (other pod using it)",
        claim: allocated("pool-1", "cpu0", ["other-pod-uid"]),
        slices: [sliceMapped],
        want: shared,
      },
      {
        name: "overhead-only mapped claim, shared (other pod using it)",
        claim: allocated("pool-2", "gpu0", ["other-pod-uid"]),
        slices: [sliceOverhead],
        want: null,
      },
      {
        name: "mapped claim, same name but different namespace (sharing allowed)",
        claim: allocated("pool-1", "cpu0"),
        slices: [sliceMapped],
        want: null,
      },
      {
        name: "mapped claim, shared (other pod using it via template)",
        claim: allocated("pool-1", "cpu0", ["other-pod-uid"]),
        slices: [sliceMapped],
        want: shared,
      },
      {
        name: "mapped claim, already reserved for another pod - early exit",
        claim: allocated("pool-1", "cpu0", ["other-pod-uid"]),
        slices: [sliceMapped],
        want: shared,
      },
      {
        name: "mapping and overhead in same device, shared (other pod using it)",
        claim: allocated("pool-combined", "combined", ["other-pod-uid"]),
        slices: [sliceCombined],
        want: shared,
      },
    ];
  it.each(cases)("$name", ({ claim, slices, want }) => {
    const got = validateNodeAllocatableDRAClaimSharing(pod("pod-uid"), claim, new SliceDevices(slices));
    if (want === null) expect(got).toBeNull();
    else expect([got?.code, got?.reasons]).toEqual([Code.UnschedulableAndUnresolvable, [want]]);
  });

  it("the pod's own reservation is not sharing", () => {
    const got = validateNodeAllocatableDRAClaimSharing(
      pod("pod-uid"),
      allocated("pool-1", "cpu0", ["pod-uid"]),
      new SliceDevices([sliceMapped]),
    );
    expect(got).toBeNull();
  });
});

describe("buildNodeAllocatableDRAInfo (upstream TestBuildNodeAllocatableDRAInfo)", () => {
  const driver = "dra.example.com";
  const cpuPerInstance: Device = {
    name: "cpu0",
    nodeAllocatableResources: { cpu: { mapping: { deviceMultiplier: "1" } } },
  };
  const cpuCapacity: Device = {
    name: "cpu0",
    nodeAllocatableResources: { cpu: { mapping: { capacityKey: "dra.example.com/cpu" } } },
  };
  const cpuMemCapacity: Device = {
    name: "device1",
    nodeAllocatableResources: {
      cpu: { mapping: { capacityKey: "dra.example.com/cpu" } },
      memory: { mapping: { capacityKey: "dra.example.com/memory" } },
    },
  };
  const gpuAux: Device = {
    name: "gpu0",
    nodeAllocatableResources: {
      cpu: { mapping: { deviceMultiplier: "2" } },
      memory: { mapping: { deviceMultiplier: "4Gi" } },
    },
  };
  const combined: Device = {
    name: "combined-device",
    nodeAllocatableResources: {
      cpu: { mapping: { deviceMultiplier: "2" }, overhead: { perPod: "1", perContainer: "500m" } },
    },
  };
  const slice = (name: string, ...devices: Device[]): ResourceSlice => ({
    ...sliceOf("pool1", devices, { driver, nodeName: "test-node" }),
    metadata: { name },
  });
  const alloc = (device: string, consumed?: Record<string, string>): AllocationResult => ({
    devices: {
      results: [
        { request: "r", driver, pool: "pool1", device, ...(consumed ? { consumedCapacity: consumed } : {}) },
      ],
    },
  });
  const c = (name: string, claims: string[] = [], requests?: Record<string, string>) => ({
    name,
    resources: { ...(requests ? { requests } : {}), claims: claims.map((n) => ({ name: n })) },
  });
  const p = (containers: ReturnType<typeof c>[], o: Partial<Pod["spec"]> = {}): Pod =>
    pod("test-uid", { containers, ...o });
  const st = (
    resourceClaimName: string,
    containers: string[],
    mapping: [string, string][] = [],
    overhead: { name: string; perPod?: string; perContainer?: string }[] = [],
  ): NodeAllocatableResourceClaimStatus => ({
    resourceClaimName,
    containers,
    mapping: mapping.map(([name, quantity]) => ({ name, quantity })),
    overhead,
  });
  type Case = {
    name: string;
    pod: Pod;
    slices?: ResourceSlice[];
    claims?: [name: string, uid: string, allocation: AllocationResult][];
    want?: NodeAllocatableResourceClaimStatus[];
    wantErr?: boolean;
  };
  const memOverhead = (o: { perPod?: string; perContainer?: string }): Device => ({
    name: "device1",
    nodeAllocatableResources: { memory: { overhead: o } },
  });
  const cases: Case[] = [
    { name: "empty", pod: { spec: { containers: [] } }, want: [] },
    {
      name: "one container, one claim, per instance quantity",
      pod: p([c("c1", ["node-allocatable-claim"])]),
      slices: [slice("slice1", cpuPerInstance)],
      claims: [["node-allocatable-claim", "claim-uid", alloc("cpu0")]],
      want: [st("node-allocatable-claim", ["c1"], [["cpu", "1"]])],
    },
    {
      name: "Pod with Standard and DRA CPU and Memory Request",
      pod: p([c("c1", ["node-allocatable-claim"], { cpu: "100m", memory: "100Mi" })]),
      slices: [slice("slice1", cpuMemCapacity)],
      claims: [
        [
          "node-allocatable-claim",
          "claim-uid",
          alloc("device1", { "dra.example.com/cpu": "4", "dra.example.com/memory": "8Gi" }),
        ],
      ],
      want: [
        st(
          "node-allocatable-claim",
          ["c1"],
          [
            ["cpu", "4"],
            ["memory", "8Gi"],
          ],
        ),
      ],
    },
    {
      name: "Fungible GPU/CPU claim - GPU selected",
      pod: p([c("c1", ["fungible-claim"], { cpu: "1" })]),
      slices: [slice("gpu-slice", { name: "gpu0" })],
      claims: [["fungible-claim", "claim-uid", alloc("gpu0")]],
      want: [],
    },
    {
      name: "Fungible GPU/CPU claim - CPU selected",
      pod: p([c("c1", ["fungible-claim"], { cpu: "1" })]),
      slices: [slice("cpu-slice", cpuCapacity)],
      claims: [["fungible-claim", "claim-uid", alloc("cpu0", { "dra.example.com/cpu": "30" })]],
      want: [st("fungible-claim", ["c1"], [["cpu", "30"]])],
    },
    {
      name: "Combined CPU request and Auxiliary Request",
      pod: p([c("c1", ["gpu-claim", "cpu-claim"], { cpu: "100m" })]),
      slices: [slice("cpu-slice", cpuCapacity), slice("gpu-slice", gpuAux)],
      claims: [
        ["cpu-claim", "cpu-claim-uid", alloc("cpu0", { "dra.example.com/cpu": "10" })],
        ["gpu-claim", "gpu-claim-uid", alloc("gpu0")],
      ],
      want: [
        st("cpu-claim", ["c1"], [["cpu", "10"]]),
        st(
          "gpu-claim",
          ["c1"],
          [
            ["cpu", "2"],
            ["memory", "4Gi"],
          ],
        ),
      ],
    },
    {
      name: "Pod Level Resources with shared CPU claim and sidecar containers",
      pod: p([c("c1", ["cpu-claim"]), c("c2", ["cpu-claim"]), c("sidecar1"), c("sidecar2")], {
        resources: { requests: { cpu: "11", memory: "10Gi" } },
      }),
      slices: [slice("cpu-slice", cpuCapacity)],
      claims: [["cpu-claim", "cpu-claim-uid", alloc("cpu0", { "dra.example.com/cpu": "10" })]],
      want: [st("cpu-claim", ["c1", "c2"], [["cpu", "10"]])],
    },
    {
      name: "Multiple Claims per Container",
      pod: p([c("c1", ["claim1", "claim2"], { cpu: "100m" })]),
      slices: [slice("slice1", cpuCapacity), slice("slice2", cpuMemCapacity)],
      claims: [
        ["claim1", "claim1-uid", alloc("cpu0", { "dra.example.com/cpu": "4" })],
        ["claim2", "claim2-uid", alloc("device1", { "dra.example.com/memory": "8Gi" })],
      ],
      want: [st("claim1", ["c1"], [["cpu", "4"]]), st("claim2", ["c1"], [["memory", "8Gi"]])],
    },
    {
      name: "Unreferenced Claims",
      pod: p([c("c1")]),
      slices: [slice("slice1", cpuCapacity)],
      claims: [["unref-claim", "unref-claim-uid", alloc("cpu0", { "dra.example.com/cpu": "4" })]],
      want: [st("unref-claim", [], [["cpu", "4"]])],
    },
    {
      name: "Unreferenced Claims with Overhead",
      pod: p([c("c1")]),
      slices: [slice("slice1", memOverhead({ perPod: "1Gi", perContainer: "500Mi" }))],
      claims: [["unref-claim", "unref-claim-uid", alloc("device1")]],
      want: [st("unref-claim", [], [], [{ name: "memory", perPod: "1Gi", perContainer: "500Mi" }])],
    },
    {
      name: "Unreferenced Claims with Overhead Per Container Only",
      pod: p([c("c1")]),
      slices: [slice("slice1", memOverhead({ perContainer: "500Mi" }))],
      claims: [["unref-claim", "unref-claim-uid", alloc("device1")]],
      want: [st("unref-claim", [], [], [{ name: "memory", perContainer: "500Mi" }])],
    },
    {
      name: "Combined Capacity and PerAllocatedUnitQuantity",
      pod: p([c("c1", ["claim1"])]),
      slices: [
        slice("slice1", {
          name: "device1",
          nodeAllocatableResources: {
            cpu: { mapping: { capacityKey: "dra.example.com/cores", capacityMultiplier: "2" } },
          },
        }),
      ],
      claims: [["claim1", "claim1-uid", alloc("device1", { "dra.example.com/cores": "4" })]],
      want: [st("claim1", ["c1"], [["cpu", "8"]])],
    },
    {
      name: "Capacity Key Missing in Allocation - Should be Ignored",
      pod: p([c("c1", ["claim1"])]),
      slices: [slice("slice1", cpuCapacity)],
      claims: [["claim1", "claim1-uid", alloc("cpu0", { "dra.example.com/wrong": "4" })]],
      want: [],
    },
    {
      name: "Overhead Mappings",
      pod: p([c("c1", ["claim1"])]),
      slices: [slice("slice1", memOverhead({ perPod: "1Gi", perContainer: "500Mi" }))],
      claims: [["claim1", "claim1-uid", alloc("device1")]],
      want: [st("claim1", ["c1"], [], [{ name: "memory", perPod: "1Gi", perContainer: "500Mi" }])],
    },
    {
      name: "Overhead Mappings - Only PerPod",
      pod: p([c("c1", ["claim1"])]),
      slices: [slice("slice1", memOverhead({ perPod: "1Gi" }))],
      claims: [["claim1", "claim1-uid", alloc("device1")]],
      want: [st("claim1", ["c1"], [], [{ name: "memory", perPod: "1Gi" }])],
    },
    {
      name: "Overhead Mappings - Only PerContainer",
      pod: p([c("c1", ["claim1"])]),
      slices: [slice("slice1", memOverhead({ perContainer: "500Mi" }))],
      claims: [["claim1", "claim1-uid", alloc("device1")]],
      want: [st("claim1", ["c1"], [], [{ name: "memory", perContainer: "500Mi" }])],
    },
    {
      name: "Overhead Mappings - Multiple Containers",
      pod: p([c("c1", ["claim1"]), c("c2", ["claim1"])]),
      slices: [slice("slice1", memOverhead({ perPod: "1Gi", perContainer: "500Mi" }))],
      claims: [["claim1", "claim1-uid", alloc("device1")]],
      want: [st("claim1", ["c1", "c2"], [], [{ name: "memory", perPod: "1Gi", perContainer: "500Mi" }])],
    },
    {
      name: "Combined direct mapped and overhead mappings for the same resource",
      pod: p([c("c1", ["claim1"])]),
      slices: [
        slice("slice1", {
          name: "device1",
          nodeAllocatableResources: {
            memory: {
              mapping: { deviceMultiplier: "2Gi" },
              overhead: { perPod: "1Gi", perContainer: "500Mi" },
            },
          },
        }),
      ],
      claims: [["claim1", "claim1-uid", alloc("device1")]],
      want: [
        st("claim1", ["c1"], [["memory", "2Gi"]], [{ name: "memory", perPod: "1Gi", perContainer: "500Mi" }]),
      ],
    },
    {
      name: "device with both mapped and overhead",
      pod: p([c("c1", ["claim1"])]),
      slices: [slice("slice1", combined)],
      claims: [["claim1", "claim1-uid", alloc("combined-device")]],
      want: [st("claim1", ["c1"], [["cpu", "2"]], [{ name: "cpu", perPod: "1", perContainer: "500m" }])],
    },
    {
      name: "Driver name collision with same pool and device name",
      pod: p([c("c1", ["claim1"])]),
      slices: [
        {
          ...sliceOf("pool1", [cpuPerInstance], { driver: "driver-a.example.com", nodeName: "test-node" }),
          metadata: { name: "slice-a" },
        },
        {
          ...sliceOf(
            "pool1",
            [{ name: "cpu0", nodeAllocatableResources: { cpu: { mapping: { deviceMultiplier: "8" } } } }],
            {
              driver: "driver-b.example.com",
              nodeName: "test-node",
            },
          ),
          metadata: { name: "slice-b" },
        },
      ],
      claims: [
        [
          "claim1",
          "claim1-uid",
          {
            devices: {
              results: [{ request: "r", driver: "driver-b.example.com", pool: "pool1", device: "cpu0" }],
            },
          },
        ],
      ],
      want: [st("claim1", ["c1"], [["cpu", "8"]])],
    },
    {
      name: "Invalid -  Device Not Found",
      pod: p([c("c1", ["claim1"])]),
      slices: [slice("slice1", { name: "device1" })],
      claims: [["claim1", "claim1-uid", alloc("nonexistent-device")]],
      wantErr: true,
    },
  ];
  it.each(cases)("$name", (tc) => {
    const claims: ClaimAllocation[] = (tc.claims ?? []).map(([name, uid, allocation]) => ({
      namespace: ns,
      name,
      uid,
      allocation,
    }));
    // upstream: the claims' names are the pod's claim entries' names.
    const uids = new Map((tc.claims ?? []).map(([name, uid]) => [name, uid]));
    const build = () =>
      buildNodeAllocatableDRAInfo(tc.pod, claims, uids, new SliceDevices(tc.slices ?? []), null);
    if (tc.wantErr) {
      expect(build).toThrow(
        /claim test-ns\/claim1, device nonexistent-device, driver dra.example.com: device nonexistent-device not found in pool pool1/,
      );
      return;
    }
    const got = build();
    // upstream compares with nil and empty lists alike.
    expect(sameNodeAllocatableStatuses(got, tc.want ?? [])).toBe(true);
    expect(got.map((s) => s.resourceClaimName)).toEqual((tc.want ?? []).map((s) => s.resourceClaimName));
  });

  it("writes quantities canonically and leaves out empty lists", () => {
    const got = buildNodeAllocatableDRAInfo(
      p([c("c1", ["claim1"])]),
      [{ namespace: ns, name: "claim1", uid: "u", allocation: alloc("device1") }],
      new Map([["claim1", "u"]]),
      new SliceDevices([slice("slice1", memOverhead({ perPod: "1024Mi" }))]),
      null,
    );
    expect(got).toEqual([
      { resourceClaimName: "claim1", containers: ["c1"], overhead: [{ name: "memory", perPod: "1Gi" }] },
    ]);
  });

  it("a capacity key set with no consumed capacity in the result is an error naming claim, device, key and resource", () => {
    expect(() =>
      buildNodeAllocatableDRAInfo(
        p([c("c1", ["claim1"])]),
        [{ namespace: ns, name: "claim1", uid: "u", allocation: alloc("cpu0") }],
        new Map([["claim1", "u"]]),
        new SliceDevices([slice("slice1", cpuCapacity)]),
        null,
      ),
    ).toThrow(
      "claim test-ns/claim1, device cpu0: ConsumedCapacity is nil, but Capacity key 'dra.example.com/cpu' is set in NodeAllocatableResources for resource cpu",
    );
  });
});

describe("SliceDevices.find on a node (upstream TestFilterSlicesForNode)", () => {
  const node: Node = { metadata: { name: "node1", labels: { "kubernetes.io/hostname": "node1" } } };
  const dev: Device = { name: "d" };
  const result = (pool: string) => ({ request: "r", driver: "", pool, device: "d" });
  const hostIn = (v: string) => ({
    nodeSelectorTerms: [
      { matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: [v] }] },
    ],
  });
  it("matches NodeName exactly", () => {
    const devices = new SliceDevices([
      sliceOf("nodename", [dev], { nodeName: "node1" }),
      sliceOf("othernode", [dev], { nodeName: "node2" }),
    ]);
    expect(devices.find(result("nodename"), node)).toBe(dev);
    expect(() => devices.find(result("othernode"), node)).toThrow(
      "device d not found in pool othernode for driver ",
    );
  });
  it("matches AllNodes", () => {
    expect(
      new SliceDevices([sliceOf("allnodes", [dev], { allNodes: true })]).find(result("allnodes"), node),
    ).toBe(dev);
  });
  it("matches NodeSelector", () => {
    const devices = new SliceDevices([
      sliceOf("nodeselector", [dev], { nodeSelector: hostIn("node1") }),
      sliceOf("othernodeselector", [dev], { nodeSelector: hostIn("node2") }),
    ]);
    expect(devices.find(result("nodeselector"), node)).toBe(dev);
    expect(() => devices.find(result("othernodeselector"), node)).toThrow(/not found/);
  });
});

describe("nodeFitsResources (upstream TestNodeFitsNativeResources)", () => {
  const hp2 = "hugepages-2Mi";
  const hp1 = "hugepages-1Gi";
  const nodeInfo = (capacity: Record<string, string>, pods: Pod[] = []) => {
    const ni = new NodeInfo(...pods);
    ni.setNode({ metadata: { name: "test-node" }, status: { capacity, allocatable: capacity } });
    return ni;
  };
  const Gi = 1024 * 1024 * 1024;
  const cases: { name: string; demand: [string, number][]; ni: NodeInfo; want: [Code, string[]] | null }[] = [
    { name: "empty pod request", demand: [], ni: new NodeInfo(), want: null },
    {
      name: "sufficient cpu and memory",
      demand: [
        ["cpu", 1000],
        ["memory", Gi],
      ],
      ni: nodeInfo({ cpu: "2000m", memory: "2Gi" }),
      want: null,
    },
    {
      name: "insufficient cpu",
      demand: [["cpu", 3000]],
      ni: nodeInfo({ cpu: "2000m" }),
      want: [Code.UnschedulableAndUnresolvable, ["Insufficient cpu"]],
    },
    {
      name: "insufficient memory",
      demand: [["memory", 3 * Gi]],
      ni: nodeInfo({ memory: "5Gi" }, [
        { spec: { containers: [{ name: "c", resources: { requests: { memory: "4Gi" } } }] } },
      ]),
      want: [Code.Unschedulable, ["Insufficient memory"]],
    },
    {
      name: "sufficient hugepages",
      demand: [
        [hp2, 1],
        [hp1, 2],
      ],
      ni: nodeInfo({ [hp2]: "1", [hp1]: "2" }),
      want: null,
    },
    {
      name: "insufficient hugepages 2Mi",
      demand: [[hp2, 2]],
      ni: nodeInfo({ [hp2]: "1" }),
      want: [Code.UnschedulableAndUnresolvable, ["Insufficient hugepages-2Mi"]],
    },
    {
      name: "insufficient hugepages 1Gi",
      demand: [[hp1, 3]],
      ni: nodeInfo({ [hp1]: "2" }),
      want: [Code.UnschedulableAndUnresolvable, ["Insufficient hugepages-1Gi"]],
    },
    {
      name: "all resources sufficient",
      demand: [
        ["cpu", 1000],
        ["memory", Gi],
        [hp2, 1],
      ],
      ni: nodeInfo({ cpu: "2000m", memory: "2Gi", [hp2]: "1" }),
      want: null,
    },
  ];
  it.each(cases)("$name", ({ demand, ni, want }) => {
    const got: Status | null = nodeFitsResources(ni, new Map(demand));
    expect(got === null ? null : [got.code, got.reasons]).toEqual(want);
  });
});

describe("validatePodLevelResourcesCoverDRA (upstream TestValidatePodLevelResourcesCoverDRA)", () => {
  type R = Record<string, string>;
  const ctr = (name: string, o: { requests?: R; limits?: R } = {}, claims = ["dra-claim"]) => ({
    name,
    resources: { ...o, claims: claims.map((n) => ({ name: n })) },
  });
  const mk = (
    podLevel: { requests?: R; limits?: R } | undefined,
    containers: ReturnType<typeof ctr>[],
    statuses: NodeAllocatableResourceClaimStatus[],
    overhead?: R,
  ): Pod => ({
    metadata: { name: "test-pod" },
    spec: { containers, ...(podLevel ? { resources: podLevel } : {}), ...(overhead ? { overhead } : {}) },
    status: { nodeAllocatableResourceClaimStatuses: statuses },
  });
  const mapped = (
    cpu: string,
    memory: string,
    containers?: string[],
  ): NodeAllocatableResourceClaimStatus => ({
    resourceClaimName: "dra-claim",
    ...(containers ? { containers } : {}),
    mapping: [
      { name: "cpu", quantity: cpu },
      { name: "memory", quantity: memory },
    ],
  });
  const memOverhead = (o: {
    perPod?: string;
    perContainer?: string;
  }): NodeAllocatableResourceClaimStatus => ({
    resourceClaimName: "dra-claim",
    containers: ["c1"],
    overhead: [{ name: "memory", ...o }],
  });
  const cases: { name: string; pod: Pod; code: Code | null; message?: string }[] = [
    {
      name: "PodLevelResources enabled, no pod resources set",
      pod: mk(undefined, [ctr("", { requests: { cpu: "1", memory: "1Gi" } })], [mapped("500m", "512Mi")]),
      code: null,
    },
    {
      name: "PodLevel resources sufficient",
      pod: mk(
        { requests: { cpu: "2", memory: "2Gi" } },
        [ctr("", { requests: { cpu: "1", memory: "1Gi" } })],
        [mapped("500m", "512Mi")],
      ),
      code: null,
    },
    {
      name: "PodLevel insufficient for one of the resource",
      pod: mk(
        { requests: { cpu: "1", memory: "2Gi" } },
        [ctr("", { requests: { cpu: "800m", memory: "1Gi" } })],
        [mapped("300m", "512Mi")],
      ),
      code: Code.UnschedulableAndUnresolvable,
      message:
        "pod level request for cpu is insufficient to cover the aggregated container and node-allocatable DRA requests",
    },
    {
      name: "PodLevel insufficient for multiple resources",
      pod: mk(
        { requests: { cpu: "1", memory: "1Gi" } },
        [ctr("", { requests: { cpu: "1100m", memory: "1100Mi" } })],
        [mapped("100m", "100Mi")],
      ),
      code: Code.UnschedulableAndUnresolvable,
      message: "insufficient to cover the aggregated container and node-allocatable DRA requests",
    },
    {
      name: "PodLevel resources sufficient with overheads",
      pod: mk(
        { requests: { cpu: "4", memory: "3Gi" } },
        [ctr("c1", { requests: { cpu: "1", memory: "1Gi" } })],
        [mapped("1", "1Gi")],
        { cpu: "500m", memory: "512Mi" },
      ),
      code: null,
    },
    {
      name: "PodLevel resources sufficient with DRA Overhead",
      pod: mk(
        { requests: { cpu: "2", memory: "3Gi" } },
        [ctr("c1", { requests: { cpu: "1", memory: "1Gi" } })],
        [memOverhead({ perPod: "1Gi", perContainer: "1Gi" })],
      ),
      code: null,
    },
    {
      name: "PodLevel resources insufficient with DRA Overhead",
      pod: mk(
        { requests: { cpu: "2", memory: "2Gi" } },
        [ctr("c1", { requests: { cpu: "1", memory: "1Gi" } })],
        [memOverhead({ perPod: "1Gi", perContainer: "1Gi" })],
      ),
      code: Code.UnschedulableAndUnresolvable,
      message:
        "pod level request for memory is insufficient to cover the aggregated container and node-allocatable DRA requests",
    },
    {
      name: "PodLevel limits cover DRA",
      pod: mk(
        { limits: { memory: "2Gi" } },
        [ctr("c1", { limits: { memory: "1Gi" } })],
        [memOverhead({ perContainer: "512Mi" })],
      ),
      code: null,
    },
    {
      name: "PodLevel limits does not cover DRA",
      pod: mk(
        { limits: { memory: "2Gi" } },
        [ctr("c1", { limits: { memory: "1.5Gi" } })],
        [memOverhead({ perContainer: "1Gi" })],
      ),
      code: Code.UnschedulableAndUnresolvable,
      message:
        "pod level limit for memory is insufficient to cover the limit and DRA overhead for container c1",
    },
    {
      name: "PodLevel limits overcommitted but individual container limits with DRA covered by pod level limits",
      pod: mk(
        { limits: { memory: "4Gi" } },
        [ctr("c1", { limits: { memory: "3Gi" } }, []), ctr("c2", { limits: { memory: "3Gi" } }, [])],
        [],
      ),
      code: null,
    },
  ];
  it.each(cases)("$name", ({ pod: p, code, message }) => {
    const got = validatePodLevelResourcesCoverDRA(p, true);
    expect(got?.code ?? null).toBe(code);
    if (message) expect(got?.message()).toContain(message);
  });

  it("PodLevelResources off: nothing to check", () => {
    expect(validatePodLevelResourcesCoverDRA(cases[2]!.pod, false)).toBeNull();
  });
});
