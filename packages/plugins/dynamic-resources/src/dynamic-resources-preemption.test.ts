// upstream: pkg/scheduler/framework/plugins/dynamicresources/dynamicresources_preemption_test.go at
// kubernetes/kubernetes@04f5fdea — TestRemovePod, TestAddPod, TestSharedClaimsPreemption,
// TestPreemptionEndToEnd, TestPreemptionSimulationSymmetry: case names, inputs and expectations
// as upstream. The plugin is built through the harness with DRAPreemption on; the claims are in
// its listers (upstream: a mock DRA manager returning them); the state is the plugin's own.
import type { AllocationResult, DeviceClass, Pod, ResourceClaim } from "@kubesched/api";
import { Code, type CycleState, PodInfo } from "@kubesched/framework";
import {
  addClaimToAllocatedState,
  type MutableAllocatedState,
  newAllocatedState,
} from "@kubesched/plugin-helpers";
import { createPluginHarness, makeNode, makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { type DynamicResources, DynamicResourcesState, stateKeyName } from "./dynamic-resources";
import { dynamicResourcesPlugin } from "./index";
import { makeClaim, makeResourceSlice, request } from "./test-fixtures";

const ns = "default";

/** st.MakeResourceClaim().Namespace("default").Name(name) with UID = name. */
function claimObj(name: string, extra: Partial<NonNullable<ResourceClaim["status"]>> = {}): ResourceClaim {
  return { metadata: { name, namespace: ns, uid: name }, spec: { devices: { requests: [] } }, status: extra };
}

function alloc(driver: string, pool: string, device: string, more: object = {}): AllocationResult {
  return { devices: { results: [{ request: "req", driver, pool, device, ...more }] } };
}

const pods = (...uids: string[]) => uids.map((uid) => ({ resource: "pods", name: uid, uid }));

/** A pod `name` (UID `uid`) using the named claims (`my-claim`, or `claim-<name>` for several). */
function podUsing(name: string, uid: string, ...claims: string[]): Pod {
  const b = makePod().name(name).namespace(ns).uid(uid);
  if (claims.length === 1) b.podResourceClaims({ name: "my-claim", resourceClaimName: claims[0] });
  else for (const c of claims) b.podResourceClaims({ name: `claim-${c}`, resourceClaimName: c });
  return b.obj();
}

async function plugin(claims: ResourceClaim[], features: { enableConsumableCapacity?: boolean } = {}) {
  const h = await createPluginHarness({
    plugin: dynamicResourcesPlugin,
    nodes: [makeNode().name("node-1").obj()],
    objects: { resourceClaims: claims },
    features: { enableDRAPreemption: true, enableConsumableCapacity: false, ...features },
  });
  return { h, pl: h.plugin as DynamicResources };
}

/** The plugin's state as a case sets it up (upstream writes its stateData into the cycle state). */
function withState(
  h: { newCycleState(): CycleState },
  init: (s: DynamicResourcesState) => void,
): { cs: CycleState; s: DynamicResourcesState } {
  const s = new DynamicResourcesState();
  init(s);
  const cs = h.newCycleState();
  cs.write(stateKeyName, s);
  return { cs, s };
}

const state = (devices: string[] = []): MutableAllocatedState => {
  const a = newAllocatedState();
  for (const d of devices) a.allocatedDevices.add(d);
  return a;
};

interface Case {
  name: string;
  pod: Pod;
  claims: ResourceClaim[];
  init?: (s: DynamicResourcesState) => void;
  verify: (s: DynamicResourcesState) => void;
}

const allocatedClaim1 = claimObj("claim-1", { allocation: alloc("test-driver", "pool-1", "device-1") });

const removePodCases: Case[] = [
  {
    name: "allocated-unused-claim-released",
    pod: podUsing("pod-a", "pod-a-uid", "claim-1"),
    claims: [allocatedClaim1],
    verify: (s) => expect(s.simulatedReleasedClaims.has("claim-1")).toBe(true),
  },
  {
    name: "single-user-claim-released",
    pod: podUsing("pod-populated", "pod-populated-uid", "claim-populated"),
    claims: [
      claimObj("claim-populated", {
        allocation: alloc("test-driver", "pool-1", "device-1"),
        reservedFor: pods("pod-populated-uid"),
      }),
    ],
    verify: (s) => expect(s.simulatedReleasedClaims.has("claim-populated")).toBe(true),
  },
  {
    name: "shared-claim-single-user-out-not-released",
    pod: podUsing("pod-shared-a", "pod-a-uid", "shared-claim"),
    claims: [claimObj("shared-claim", { reservedFor: pods("pod-a-uid", "pod-b-uid") })],
    verify: (s) => {
      expect(s.simulatedReleasedClaims.has("shared-claim")).toBe(false);
      expect(s.simulatedRemovedPodsForClaim.get("shared-claim")?.has("pod-a-uid")).toBe(true);
    },
  },
  {
    name: "shared-claim-all-users-out-released",
    pod: podUsing("pod-shared-b", "pod-b-uid", "shared-claim"),
    claims: [claimObj("shared-claim", { reservedFor: pods("pod-a-uid", "pod-b-uid") })],
    init: (s) => s.simulatedRemovedPodsForClaim.set("shared-claim", new Set(["pod-a-uid"])),
    verify: (s) => expect(s.simulatedReleasedClaims.has("shared-claim")).toBe(true),
  },
  {
    name: "pod-group-claim-not-released",
    pod: podUsing("pod-group-a", "pod-group-a-uid", "pod-group-claim"),
    claims: [
      claimObj("pod-group-claim", {
        reservedFor: [
          { apiGroup: "scheduling.k8s.io", resource: "podgroups", name: "my-group", uid: "group-uid" },
        ],
      }),
    ],
    verify: (s) => {
      // Held by a PodGroup: never released.
      expect(s.simulatedReleasedClaims.has("pod-group-claim")).toBe(false);
      expect(s.simulatedRemovedPodsForClaim.get("pod-group-claim")?.has("pod-group-a-uid")).toBe(true);
    },
  },
  {
    name: "shared-claim-count-matches-but-uids-differ-not-released",
    pod: podUsing("pod-spurious", "pod-spurious-uid", "spurious-claim"),
    claims: [claimObj("spurious-claim", { reservedFor: pods("never-simulated-pod-uid") })],
    verify: (s) => {
      // The simulated UIDs do not match reservedFor.
      expect(s.simulatedReleasedClaims.has("spurious-claim")).toBe(false);
      expect(s.simulatedRemovedPodsForClaim.get("spurious-claim")?.has("pod-spurious-uid")).toBe(true);
    },
  },
  {
    name: "duplicate-claim-name-ignored",
    pod: makePod()
      .name("pod-dup-claim")
      .namespace(ns)
      .uid("pod-dup-uid")
      .podResourceClaims({ name: "my-claim-1", resourceClaimName: "claim-1" })
      .podResourceClaims({ name: "my-claim-2", resourceClaimName: "claim-1" })
      .obj(),
    claims: [allocatedClaim1],
    init: (s) => {
      s.allocatedState = state(["test-driver/pool-1/device-1"]);
    },
    verify: (s) => {
      expect(s.simulatedRemovedPodsForClaim.get("claim-1")?.size).toBe(1);
      expect(s.simulatedReleasedClaims.has("claim-1")).toBe(true);
      // Devices removed strictly once.
      expect(s.allocatedState?.allocatedDevices.size).toBe(0);
    },
  },
  {
    name: "missing-claim-ignored",
    pod: podUsing("pod-missing-claim", "pod-missing-uid", "missing-claim"),
    claims: [],
    verify: (s) => expect(s.simulatedRemovedPodsForClaim.size).toBe(0),
  },
  {
    name: "nil-resource-claim-name-ignored",
    pod: makePod()
      .name("pod-nil-claim")
      .namespace(ns)
      .uid("pod-nil-uid")
      .podResourceClaims({ name: "my-claim", resourceClaimTemplateName: "my-template" })
      .obj(),
    claims: [],
    verify: (s) => expect(s.simulatedRemovedPodsForClaim.size).toBe(0),
  },
  {
    name: "direct-claim-released",
    pod: podUsing("pod-direct", "pod-direct-uid", "claim-1"),
    claims: [allocatedClaim1],
    verify: (s) => expect(s.simulatedReleasedClaims.has("claim-1")).toBe(true),
  },
];

describe("TestRemovePod", () => {
  for (const tc of removePodCases) {
    it(tc.name, async () => {
      const { h, pl } = await plugin(tc.claims);
      const { cs, s } = withState(h, tc.init ?? (() => {}));
      expect(pl.removePod(cs, makePod().obj(), new PodInfo(tc.pod), h.nodeInfo("node-1"))).toBeNull();
      tc.verify(s);
    });
  }
});

const addPodCases: Case[] = [
  {
    name: "released-claim-readded",
    pod: podUsing("pod-a", "pod-a-uid", "claim-1"),
    claims: [allocatedClaim1],
    init: (s) => {
      s.simulatedReleasedClaims.add("claim-1");
      s.allocatedState = state();
    },
    verify: (s) => {
      expect(s.simulatedReleasedClaims.has("claim-1")).toBe(false);
      // Devices restored to the allocated state.
      expect(s.allocatedState?.allocatedDevices.size).not.toBe(0);
    },
  },
  {
    name: "shared-claim-clear-counter",
    pod: podUsing("pod-a", "pod-a-uid", "claim-1"),
    claims: [allocatedClaim1],
    init: (s) => s.simulatedRemovedPodsForClaim.set("claim-1", new Set(["pod-a-uid"])),
    verify: (s) =>
      expect(s.simulatedRemovedPodsForClaim.get("claim-1")?.has("pod-a-uid") ?? false).toBe(false),
  },
  {
    name: "duplicate-claim-name-ignored",
    pod: makePod()
      .name("pod-dup-claim")
      .namespace(ns)
      .uid("pod-dup-uid")
      .podResourceClaims({ name: "my-claim-1", resourceClaimName: "claim-1" })
      .podResourceClaims({ name: "my-claim-2", resourceClaimName: "claim-1" })
      .obj(),
    claims: [allocatedClaim1],
    init: (s) => {
      s.simulatedReleasedClaims.add("claim-1");
      s.simulatedRemovedPodsForClaim.set("claim-1", new Set(["pod-dup-uid"]));
      s.allocatedState = state();
    },
    verify: (s) => {
      expect(s.simulatedReleasedClaims.has("claim-1")).toBe(false);
      expect(s.simulatedRemovedPodsForClaim.get("claim-1")?.has("pod-dup-uid") ?? false).toBe(false);
      // Devices restored only once.
      expect(s.allocatedState?.allocatedDevices.size).toBe(1);
    },
  },
  {
    name: "missing-claim-ignored",
    pod: podUsing("pod-missing-claim", "pod-missing-uid", "missing-claim"),
    claims: [],
    init: (s) => {
      s.allocatedState = state();
    },
    verify: (s) => {
      expect(s.simulatedReleasedClaims.size).toBe(0);
      expect(s.simulatedRemovedPodsForClaim.size).toBe(0);
    },
  },
  {
    name: "nil-resource-claim-name-ignored",
    pod: makePod()
      .name("pod-nil-claim")
      .namespace(ns)
      .uid("pod-nil-uid")
      .podResourceClaims({ name: "my-claim", resourceClaimTemplateName: "my-template" })
      .obj(),
    claims: [],
    verify: () => {},
  },
  {
    name: "direct-claim-readded",
    pod: podUsing("pod-direct", "pod-direct-uid", "claim-1"),
    claims: [allocatedClaim1],
    init: (s) => {
      s.simulatedReleasedClaims.add("claim-1");
      s.allocatedState = state();
    },
    verify: (s) => {
      expect(s.simulatedReleasedClaims.has("claim-1")).toBe(false);
      expect(s.allocatedState?.allocatedDevices.size).not.toBe(0);
    },
  },
];

describe("TestAddPod", () => {
  for (const tc of addPodCases) {
    it(tc.name, async () => {
      const { h, pl } = await plugin(tc.claims);
      const { cs, s } = withState(h, tc.init ?? (() => {}));
      expect(pl.addPod(cs, makePod().obj(), new PodInfo(tc.pod), h.nodeInfo("node-1"))).toBeNull();
      tc.verify(s);
    });
  }
});

describe("TestSharedClaimsPreemption", () => {
  it("releases a shared claim once both victims are removed and takes it back as they return", async () => {
    const claim = claimObj("claim-1", { reservedFor: pods("victim-1-uid", "victim-2-uid") });
    const { h, pl } = await plugin([claim]);
    const { cs, s } = withState(h, () => {});
    const victim1 = new PodInfo(podUsing("victim-1", "victim-1-uid", "claim-1"));
    const victim2 = new PodInfo(podUsing("victim-2", "victim-2-uid", "claim-1"));
    const ni = h.nodeInfo("node-1");
    const preemptor = makePod().obj();

    // 1. Remove victim 1: not released.
    expect(pl.removePod(cs, preemptor, victim1, ni)).toBeNull();
    expect(s.simulatedReleasedClaims.has("claim-1")).toBe(false);
    // 2. Remove victim 2: released.
    expect(pl.removePod(cs, preemptor, victim2, ni)).toBeNull();
    expect(s.simulatedReleasedClaims.has("claim-1")).toBe(true);
    // 3. Add back victim 1 (backtracking): not released any more, victim 2 stays registered.
    expect(pl.addPod(cs, preemptor, victim1, ni)).toBeNull();
    expect(s.simulatedReleasedClaims.has("claim-1")).toBe(false);
    expect(s.simulatedRemovedPodsForClaim.get("claim-1")?.has("victim-2-uid")).toBe(true);
    expect(s.simulatedRemovedPodsForClaim.get("claim-1")?.has("victim-1-uid")).toBe(false);
    // 4. Add back victim 2: clean again.
    expect(pl.addPod(cs, preemptor, victim2, ni)).toBeNull();
    expect(s.simulatedRemovedPodsForClaim.get("claim-1")?.size ?? 0).toBe(0);
  });
});

describe("TestPreemptionEndToEnd", () => {
  const testClass: DeviceClass = { metadata: { name: "test-class" } };
  // A slice with 3 devices on "test-driver".
  const testSlice = makeResourceSlice("node-1", "test-driver", "dev-1", "dev-2", "dev-3");
  const withUID = (c: ResourceClaim, uid: string): ResourceClaim => ({
    ...c,
    metadata: { ...c.metadata, uid },
  });
  // Preemptor claims (unallocated).
  const preemptorClaim1 = withUID(
    makeClaim("preemptor-claim-1", request("test-class")),
    "preemptor-claim-1-uid",
  );
  const preemptorClaim2 = withUID(
    makeClaim("preemptor-claim-2", request("test-class")),
    "preemptor-claim-2-uid",
  );
  // Victim claims (allocated).
  const victimClaim = (name: string, device: string, reservedFor?: string[]): ResourceClaim => ({
    ...withUID(makeClaim(name, request("test-class")), `${name}-uid`),
    status: {
      allocation: alloc("test-driver", "node-1", device),
      ...(reservedFor ? { reservedFor: pods(...reservedFor) } : {}),
    },
  });
  const victimClaim1 = victimClaim("victim-claim-1", "dev-1");
  const victimSharedClaim = victimClaim("victim-shared-claim", "dev-2", [
    "victim-shared-a-uid",
    "victim-shared-b-uid",
  ]);
  const victimClaim2 = victimClaim("victim-claim-2", "dev-3");

  const victim1 = podUsing("victim-1", "victim-1-uid", "victim-claim-1");
  const victimSharedA = podUsing("victim-a", "victim-shared-a-uid", "victim-shared-claim");
  const victimSharedB = podUsing("victim-b", "victim-shared-b-uid", "victim-shared-claim");
  const victim2 = podUsing("victim-2", "victim-2-uid", "victim-claim-2");
  const victimMulti = podUsing("victim-multi", "victim-multi-uid", "victim-claim-1", "victim-claim-2");

  const cannotAllocate = { code: Code.Unschedulable, message: "cannot allocate all claims" };
  const cases: {
    name: string;
    preemptorClaims: ResourceClaim[];
    ops: ["remove" | "add", Pod][];
    wantFilterStatus: typeof cannotAllocate | null;
  }[] = [
    {
      name: "baseline-exhaustion-no-preemption",
      preemptorClaims: [preemptorClaim1],
      ops: [],
      wantFilterStatus: cannotAllocate,
    },
    {
      name: "successful-preemption-single-victim",
      preemptorClaims: [preemptorClaim1],
      ops: [["remove", victim1]], // frees dev-1
      wantFilterStatus: null,
    },
    {
      name: "partial-preemption-shared-claim-fails",
      preemptorClaims: [preemptorClaim1],
      ops: [["remove", victimSharedA]], // dev-2 not freed yet
      wantFilterStatus: cannotAllocate,
    },
    {
      name: "full-preemption-shared-claim-succeeds",
      preemptorClaims: [preemptorClaim1],
      ops: [
        ["remove", victimSharedA],
        ["remove", victimSharedB], // frees dev-2
      ],
      wantFilterStatus: null,
    },
    {
      name: "multi-claim-preemption",
      preemptorClaims: [preemptorClaim1, preemptorClaim2],
      ops: [
        ["remove", victim1], // frees dev-1
        ["remove", victim2], // frees dev-3
      ],
      wantFilterStatus: null,
    },
    {
      name: "preemption-rollback",
      preemptorClaims: [preemptorClaim1],
      ops: [
        ["remove", victim1], // frees dev-1
        ["add", victim1], // takes back dev-1
      ],
      wantFilterStatus: cannotAllocate,
    },
    {
      name: "single-victim-multiple-claims",
      preemptorClaims: [preemptorClaim1, preemptorClaim2],
      ops: [["remove", victimMulti]], // frees dev-1 and dev-3 simultaneously
      wantFilterStatus: null,
    },
  ];

  for (const tc of cases) {
    it(tc.name, async () => {
      const h = await createPluginHarness({
        plugin: dynamicResourcesPlugin,
        nodes: [makeNode().name("node-1").obj()],
        objects: {
          deviceClasses: [testClass],
          resourceSlices: [testSlice],
          resourceClaims: [victimClaim1, victimSharedClaim, victimClaim2, ...tc.preemptorClaims],
        },
        features: { enableDRAPreemption: true, enableConsumableCapacity: false },
      });
      const pl = h.plugin as DynamicResources;
      const b = makePod().name("preemptor").namespace(ns).uid("preemptor-uid");
      for (const c of tc.preemptorClaims) {
        b.podResourceClaims({ name: c.metadata?.name ?? "", resourceClaimName: c.metadata?.name ?? "" });
      }
      const preemptor = b.obj();
      const cs = h.newCycleState();
      const ni = h.nodeInfo("node-1");
      // PreFilter gathers the victims' devices as allocated (dev-1, dev-2, dev-3).
      expect(pl.preFilter(cs, preemptor, [ni])).toBeNull();
      for (const [op, pod] of tc.ops) {
        const s =
          op === "remove"
            ? pl.removePod(cs, preemptor, new PodInfo(pod), ni)
            : pl.addPod(cs, preemptor, new PodInfo(pod), ni);
        expect(s).toBeNull();
      }
      const status = pl.filter(cs, preemptor, ni);
      if (tc.wantFilterStatus === null) expect(status).toBeNull();
      else {
        expect(status?.code).toBe(tc.wantFilterStatus.code);
        expect(status?.message()).toBe(tc.wantFilterStatus.message);
      }
    });
  }
  /** The harness over the slice and `claims`, and a preemptor using preemptorClaim1. */
  async function withPreemptor(claims: ResourceClaim[], enableDRAPreemption: boolean) {
    const h = await createPluginHarness({
      plugin: dynamicResourcesPlugin,
      nodes: [makeNode().name("node-1").obj()],
      objects: { deviceClasses: [testClass], resourceSlices: [testSlice], resourceClaims: claims },
      features: { enableDRAPreemption, enableConsumableCapacity: true },
    });
    const preemptor = makePod()
      .name("preemptor")
      .namespace(ns)
      .uid("preemptor-uid")
      .podResourceClaims({ name: "c", resourceClaimName: preemptorClaim1.metadata?.name ?? "" })
      .obj();
    return { h, pl: h.plugin as DynamicResources, preemptor, ni: h.nodeInfo("node-1") };
  }

  // Not upstream's: PreFilter hands the dry run the state the DRA manager keeps between cycles;
  // the dry run changes a copy of its own, so the next cycle still sees every victim's device.
  it("the dry run changes its own copy of the allocated state, not the one kept for the next cycles", async () => {
    const { h, pl, preemptor, ni } = await withPreemptor(
      [victimClaim1, victimSharedClaim, victimClaim2, preemptorClaim1],
      true,
    );
    const all = ["test-driver/node-1/dev-1", "test-driver/node-1/dev-2", "test-driver/node-1/dev-3"];
    const devices = (cs: CycleState) =>
      [...(cs.read(stateKeyName)?.allocatedState?.allocatedDevices ?? [])].sort();
    const cs = h.newCycleState();
    expect(pl.preFilter(cs, preemptor, [ni])).toBeNull();
    const kept = cs.read(stateKeyName)?.allocatedState;
    // A copy of the cycle's state shares it until the dry run changes it.
    const dryRun = cs.clone();
    expect(dryRun.read(stateKeyName)?.allocatedState).toBe(kept);
    expect(pl.removePod(dryRun, preemptor, new PodInfo(victim1), ni)).toBeNull();
    expect(devices(dryRun)).toEqual(all.slice(1));
    expect(pl.filter(dryRun, preemptor, ni)).toBeNull();
    // The cycle's own state and the next cycle's still hold every device.
    expect(devices(cs)).toEqual(all);
    expect(pl.filter(cs, preemptor, ni)?.message()).toBe(cannotAllocate.message);
    const next = h.newCycleState();
    expect(pl.preFilter(next, preemptor, [ni])).toBeNull();
    expect(devices(next)).toEqual(all);
  });

  it("without DRAPreemption the cycle's state holds no allocated state (nothing copies it)", async () => {
    const { h, pl, preemptor, ni } = await withPreemptor([victimClaim1, preemptorClaim1], false);
    const cs = h.newCycleState();
    expect(pl.preFilter(cs, preemptor, [ni])).toBeNull();
    expect(cs.read(stateKeyName)?.allocatedState).toBeNull();
    expect(pl.filter(cs, preemptor, ni)).toBeNull();
  });
});

describe("TestPreemptionSimulationSymmetry", () => {
  /** upstream makeTestClaim: allocated to one device (with a share and capacity), reserved for the UIDs. */
  const makeTestClaim = (
    name: string,
    device: string,
    shareID: string | undefined,
    capacity: Record<string, string> | undefined,
    ...reserving: string[]
  ): ResourceClaim =>
    claimObj(name, {
      reservedFor: pods(...reserving),
      allocation: alloc("test-driver", "pool-1", device, {
        ...(shareID !== undefined ? { shareID } : {}),
        ...(shareID !== undefined && capacity ? { consumedCapacity: capacity } : {}),
      }),
    });

  const clean = (s: DynamicResourcesState, claim: string) => {
    expect(s.simulatedReleasedClaims.size).toBe(0);
    expect(s.simulatedRemovedPodsForClaim.get(claim)?.size ?? 0).toBe(0);
    expect([...(s.allocatedState?.allocatedDevices ?? [])]).toEqual(["test-driver/pool-1/device-1"]);
  };

  const cases: {
    name: string;
    ops: ["remove" | "add", string][];
    claim: ResourceClaim;
    pods: string[];
    consumableCapacity?: boolean;
    verify: (s: DynamicResourcesState) => void;
  }[] = [
    {
      name: "single-pod-remove-add",
      ops: [
        ["remove", "pod-a"],
        ["add", "pod-a"],
      ],
      claim: makeTestClaim("claim-1", "device-1", undefined, undefined, "pod-a-uid", "pod-b-uid"),
      pods: ["pod-a"],
      verify: (s) => clean(s, "claim-1"),
    },
    {
      name: "shared-claims-remove-A-remove-B-add-A-add-B",
      ops: [
        ["remove", "pod-a"],
        ["remove", "pod-b"],
        ["add", "pod-a"],
        ["add", "pod-b"],
      ],
      claim: makeTestClaim("claim-1", "device-1", undefined, undefined, "pod-a-uid", "pod-b-uid"),
      pods: ["pod-a", "pod-b"],
      verify: (s) => clean(s, "claim-1"),
    },
    {
      name: "shared-claims-remove-A-remove-B-add-B-add-A",
      ops: [
        ["remove", "pod-a"],
        ["remove", "pod-b"],
        ["add", "pod-b"],
        ["add", "pod-a"],
      ],
      claim: makeTestClaim("claim-1", "device-1", undefined, undefined, "pod-a-uid", "pod-b-uid"),
      pods: ["pod-a", "pod-b"],
      verify: (s) => clean(s, "claim-1"),
    },
    {
      name: "consumable-capacity-remove-add",
      ops: [
        ["remove", "pod-a"],
        ["add", "pod-a"],
      ],
      claim: makeTestClaim("claim-consumable", "device-1", "share-1", { cpu: "5" }, "pod-a-uid"),
      pods: ["pod-a"],
      consumableCapacity: true,
      verify: (s) => {
        expect(s.simulatedReleasedClaims.size).toBe(0);
        expect(s.simulatedRemovedPodsForClaim.get("claim-consumable")?.size ?? 0).toBe(0);
        expect(s.allocatedState?.allocatedDevices.size).toBe(0);
        expect([...(s.allocatedState?.allocatedSharedDeviceIDs ?? [])]).toEqual([
          "test-driver/pool-1/device-1/share-1",
        ]);
        expect(s.allocatedState?.aggregatedCapacity.size).toBe(1);
      },
    },
  ];

  for (const tc of cases) {
    it(tc.name, async () => {
      const consumable = tc.consumableCapacity === true;
      const { h, pl } = await plugin([tc.claim], { enableConsumableCapacity: consumable });
      const { cs, s } = withState(h, (st) => {
        const own = newAllocatedState();
        addClaimToAllocatedState(own, tc.claim, consumable);
        st.allocatedState = own;
      });
      const byName = Object.fromEntries(
        tc.pods.map((n) => [n, new PodInfo(podUsing(n, `${n}-uid`, tc.claim.metadata?.name ?? ""))]),
      );
      for (const [op, n] of tc.ops) {
        const pi = byName[n] as PodInfo;
        const st =
          op === "remove"
            ? pl.removePod(cs, makePod().obj(), pi, h.nodeInfo("node-1"))
            : pl.addPod(cs, makePod().obj(), pi, h.nodeInfo("node-1"));
        expect(st).toBeNull();
      }
      tc.verify(s);
    });
  }
});
