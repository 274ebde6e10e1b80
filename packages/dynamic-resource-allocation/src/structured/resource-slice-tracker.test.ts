// upstream: staging/src/k8s.io/dynamic-resource-allocation/resourceslice/tracker/tracker_test.go
// (TestListPatchedResourceSlices at kubernetes/kubernetes 008b3652): every case's input events and
// expected patched slices, run in every order upstream runs them (nested event lists keep their
// order). Its expected handler events are not ported: kubesched's tracker computes the patched
// slices when they are listed and emits no events (a rule's event reaches the queue as a
// ResourceSlice update, packages/scheduler/src/event-handlers.ts). The device class of
// `filter-all-criteria` is an input upstream's 1.35+ rules no longer read.
import type { DeviceClass, DeviceTaint, DeviceTaintRule, ResourceClaim, ResourceSlice } from "@kubesched/api";
import { Cache } from "@kubesched/dynamic-resource-allocation/cel";
import {
  applyDeviceTaintRules,
  featuresAll,
  newAllocator,
  PoolCache,
  ResourceSliceTracker,
  slicesRetainted,
} from "@kubesched/dynamic-resource-allocation/structured";
import { describe, expect, it } from "vitest";

const now = "2006-01-02T15:04:05Z";
const driver1 = "driver1.example.com";
const driver2 = "driver2.example.com";
const pool1 = "pool-1";
const pool2 = "pool-2";
const device0Name = "device-0";
const device1Name = "device-1";
const device2Name = "device-2";

const deviceClass1: DeviceClass = {
  metadata: { name: "device-class-1" },
  spec: { selectors: [{ cel: { expression: `device.driver == "${driver1}"` } }] },
};

type Device = NonNullable<ResourceSlice["spec"]["devices"]>[number];
const sliceWithDevices = (slice: ResourceSlice, devices: Device[]): ResourceSlice => ({
  ...slice,
  spec: { ...slice.spec, devices },
});
const slice1NoDevices: ResourceSlice = {
  metadata: { name: "s1" },
  spec: { driver: driver1, pool: { name: pool1, generation: 0, resourceSliceCount: 0 } },
};
const slice2NoDevices: ResourceSlice = {
  metadata: { name: "s2" },
  spec: { driver: driver2, pool: { name: pool2, generation: 0, resourceSliceCount: 0 } },
};
const unchangedSlice: ResourceSlice = {
  metadata: { name: "no-change" },
  spec: { driver: "", pool: { name: "", generation: 0, resourceSliceCount: 0 } },
};

const deviceWithTaints = (device: Device, taints: DeviceTaint[]): Device => ({ ...device, taints });
const device0: Device = { name: device0Name };
const device1: Device = { name: device1Name };
const device2: Device = { name: device2Name };

const deviceTaint1: DeviceTaint = {
  key: "example.com/taint",
  value: "tainted",
  effect: "NoExecute",
  timeAdded: now,
};
const deviceTaint2: DeviceTaint = {
  key: "example.com/taint2",
  value: "tainted2",
  effect: "NoExecute",
  timeAdded: now,
};
const device1Tainted = deviceWithTaints(device1, [deviceTaint1]);
const device2Tainted = deviceWithTaints(device2, [deviceTaint1]);
const devices = [device1];
const threeDevices = [device0, device1, device2];
const threeDevicesOneTainted = [device0, device1Tainted, device2];
const devices2 = [device2];
const taintedDevices = [device1Tainted];
const taintedDevices2 = [device2Tainted];
const existingTaintedDevices = [deviceWithTaints(device1, [deviceTaint2])];
const mergedTaintedDevices = [deviceWithTaints(device1, [deviceTaint2, deviceTaint1])];

const slice1 = sliceWithDevices(slice1NoDevices, devices);
const slice1Tainted = sliceWithDevices(slice1, taintedDevices);
const slice1AlreadyTainted = sliceWithDevices(slice1, existingTaintedDevices);
const slice1MergedTaints = sliceWithDevices(slice1, mergedTaintedDevices);
const slice2 = sliceWithDevices(slice2NoDevices, devices2);
const slice2Tainted = sliceWithDevices(slice2, taintedDevices2);

const taintAllDevicesRule: DeviceTaintRule = { metadata: { name: "rule" }, spec: { taint: deviceTaint1 } };
const withSelector = (
  rule: DeviceTaintRule,
  selector: NonNullable<DeviceTaintRule["spec"]["deviceSelector"]>,
): DeviceTaintRule => ({ ...rule, spec: { ...rule.spec, deviceSelector: selector } });
// upstream's helpers replace the selector: nested calls keep only the outermost field.
const taintPoolDevicesRule = (rule: DeviceTaintRule, pool: string) => withSelector(rule, { pool });
const taintDriverDevicesRule = (rule: DeviceTaintRule, driver: string) => withSelector(rule, { driver });
const taintNamedDevicesRule = (rule: DeviceTaintRule, device: string) => withSelector(rule, { device });
const taintPool1DevicesRule = taintPoolDevicesRule(taintAllDevicesRule, pool1);
const taintPool2DevicesRule = taintPoolDevicesRule(taintAllDevicesRule, pool2);
const taintDriver1DevicesRule = taintDriverDevicesRule(taintAllDevicesRule, driver1);
const taintDevice1Rule = taintNamedDevicesRule(taintAllDevicesRule, device1Name);

type Obj = ResourceSlice | DeviceTaintRule | DeviceClass;
/** [old, new]: an add has no old, a delete no new. */
type Pair = readonly [Obj | undefined, Obj | undefined];
const add = (o: Obj): Pair => [undefined, o];
const remove = (o: Obj): Pair => [o, undefined];
const update = (o: Obj, n: Obj): Pair => [o, n];

interface Case {
  /** Pairs, or lists of pairs applied in their order (other events may come in between). */
  events: (Pair | Pair[])[];
  expectedPatchedSlices: ResourceSlice[];
}

const tests: Record<string, Case> = {
  "add-slices-no-patches": { events: [add(slice1), add(slice2)], expectedPatchedSlices: [slice1, slice2] },
  "update-slices-no-patches": {
    events: [
      [add(slice1NoDevices), update(slice1NoDevices, slice1)],
      [add(slice2NoDevices), update(slice2NoDevices, slice2)],
      add(unchangedSlice),
    ],
    expectedPatchedSlices: [slice1, slice2, unchangedSlice],
  },
  "delete-slices": {
    events: [[add(slice1), remove(slice1)], [add(slice2), remove(slice2)], add(unchangedSlice)],
    expectedPatchedSlices: [unchangedSlice],
  },
  "patch-all-slices": {
    events: [add(slice1), add(taintAllDevicesRule)],
    expectedPatchedSlices: [slice1Tainted],
  },
  "update-patch": {
    events: [
      [add(taintPool1DevicesRule), update(taintPool1DevicesRule, taintPool2DevicesRule)],
      add(slice1),
      add(slice2),
    ],
    expectedPatchedSlices: [slice1, slice2Tainted],
  },
  "merge-taints": {
    events: [add(taintAllDevicesRule), add(slice1AlreadyTainted)],
    expectedPatchedSlices: [slice1MergedTaints],
  },
  "add-taint-for-driver": {
    events: [add(taintDriver1DevicesRule), add(slice1), add(slice2)],
    expectedPatchedSlices: [slice1Tainted, slice2],
  },
  "add-taint-for-pool": {
    events: [add(taintPool1DevicesRule), add(slice1), add(slice2)],
    expectedPatchedSlices: [slice1Tainted, slice2],
  },
  "add-taint-for-device": {
    events: [add(taintDevice1Rule), add(slice1), add(slice2)],
    expectedPatchedSlices: [slice1Tainted, slice2],
  },
  "filter-all-criteria": {
    events: [
      add(deviceClass1),
      add(
        taintDriverDevicesRule(
          taintPoolDevicesRule(taintNamedDevicesRule(taintAllDevicesRule, device1Name), pool1),
          driver1,
        ),
      ),
      add(slice1),
      add(slice2),
    ],
    expectedPatchedSlices: [slice1Tainted, slice2],
  },
  "update-patched-slice": {
    events: [
      add(taintDevice1Rule),
      [add(slice1), update(slice1, sliceWithDevices(slice1, threeDevices))],
      [
        add(sliceWithDevices(slice2, threeDevices)),
        update(sliceWithDevices(slice2, threeDevices), sliceWithDevices(slice2, devices)),
      ],
    ],
    expectedPatchedSlices: [
      sliceWithDevices(slice1, threeDevicesOneTainted),
      sliceWithDevices(slice2, taintedDevices),
    ],
  },
};

/** Every order of the flattened events that keeps each nested list's order (upstream's permutate). */
function permutations(events: (Pair | Pair[])[]): Pair[][] {
  // A pair's first element is an object or undefined, a nested list's is a pair.
  const groups = events.map((e) => (Array.isArray(e[0]) ? (e as Pair[]) : [e as Pair]));
  const out: Pair[][] = [];
  const next = groups.map(() => 0);
  const walk = (acc: Pair[]) => {
    if (acc.length === groups.reduce((n, g) => n + g.length, 0)) {
      out.push([...acc]);
      return;
    }
    groups.forEach((g, i) => {
      const at = next[i] ?? 0;
      const pair = g[at];
      if (pair === undefined) return;
      next[i] = at + 1;
      acc.push(pair);
      walk(acc);
      acc.pop();
      next[i] = at;
    });
  };
  walk([]);
  return out;
}

const isRule = (o: Obj): o is DeviceTaintRule => "taint" in (o.spec ?? {});
const isSlice = (o: Obj): o is ResourceSlice => "pool" in (o.spec ?? {});

/** Informer caches fed by the events (a DeviceClass event changes nothing the tracker reads). */
function informers() {
  const slices = new Map<string, ResourceSlice>();
  const rules = new Map<string, DeviceTaintRule>();
  return {
    sources: {
      resourceSlices: { list: () => [...slices.values()], get: (n: string) => slices.get(n) },
      deviceTaintRules: { list: () => [...rules.values()] },
    },
    apply([oldObj, newObj]: Pair) {
      const obj = (newObj ?? oldObj) as Obj;
      const name = obj.metadata?.name ?? "";
      const store: Map<string, Obj> | undefined = isRule(obj)
        ? (rules as Map<string, Obj>)
        : isSlice(obj)
          ? (slices as Map<string, Obj>)
          : undefined;
      if (store === undefined) return;
      if (newObj === undefined) store.delete(name);
      else store.set(name, newObj);
    },
  };
}

const byName = (a: ResourceSlice, b: ResourceSlice) =>
  (a.metadata?.name ?? "").localeCompare(b.metadata?.name ?? "");

describe("TestListPatchedResourceSlices", () => {
  for (const [name, tc] of Object.entries(tests)) {
    it(name, () => {
      const orders = permutations(tc.events);
      expect(orders.length).toBeGreaterThan(0);
      for (const order of orders) {
        const inf = informers();
        const tracker = new ResourceSliceTracker(inf.sources);
        // Listed after every event, as a scheduler between cycles: what was kept must not go stale.
        for (const pair of order) {
          inf.apply(pair);
          tracker.list();
        }
        expect([...tracker.list()].sort(byName)).toEqual([...tc.expectedPatchedSlices].sort(byName));
        for (const s of tc.expectedPatchedSlices) expect(tracker.get(s.metadata?.name ?? "")).toEqual(s);
      }
    });
  }
});

describe("ResourceSliceTracker", () => {
  it("keeps slice objects while nothing changes: unpatched slices are the informer's, patched ones the same copy", () => {
    const inf = informers();
    inf.apply(add(slice1));
    inf.apply(add(slice2));
    const tracker = new ResourceSliceTracker(inf.sources);
    expect(tracker.list()[0]).toBe(slice1);
    inf.apply(add(taintPool1DevicesRule));
    const first = tracker.list();
    const again = tracker.list();
    expect(again).toBe(first);
    expect(first.find((s) => s.metadata?.name === "s2")).toBe(slice2);
    // An unrelated slice changing leaves the patched copy of s1 as it was.
    inf.apply(update(slice2, sliceWithDevices(slice2, threeDevices)));
    expect(tracker.list().find((s) => s.metadata?.name === "s1")).toBe(
      first.find((s) => s.metadata?.name === "s1"),
    );
    expect(slice1.spec.devices?.[0]?.taints).toBeUndefined();
  });

  it("applyDeviceTaintRules appends the taints of every matching rule in rule order", () => {
    const second: DeviceTaintRule = { metadata: { name: "second" }, spec: { taint: deviceTaint2 } };
    expect(applyDeviceTaintRules(slice1, [taintAllDevicesRule, second]).spec.devices).toEqual([
      deviceWithTaints(device1, [deviceTaint1, deviceTaint2]),
    ]);
    expect(applyDeviceTaintRules(slice1, [taintPool2DevicesRule])).toBe(slice1);
  });

  it("a rule added, changed or deleted between two allocators sharing a PoolCache changes the answer", () => {
    const noSchedule = (device: string): DeviceTaintRule => ({
      metadata: { name: "rule" },
      spec: { deviceSelector: { device }, taint: { key: "maintenance", effect: "NoSchedule" } },
    });
    const nodeSlice: ResourceSlice = {
      metadata: { name: "node-a-gpus" },
      spec: {
        driver: driver1,
        nodeName: "node-a",
        pool: { name: "node-a", generation: 1, resourceSliceCount: 1 },
        devices: [{ name: "gpu-0" }, { name: "gpu-1" }],
      },
    };
    const gpuClass: DeviceClass = { metadata: { name: "gpu" }, spec: {} };
    const claim: ResourceClaim = {
      metadata: { name: "claim", namespace: "default", uid: "claim-uid" },
      spec: { devices: { requests: [{ name: "gpu", exactly: { deviceClassName: "gpu", count: 1 } }] } },
    };
    const inf = informers();
    inf.apply(add(nodeSlice));
    const tracker = new ResourceSliceTracker(inf.sources);
    const poolCache = new PoolCache();
    const celCache = new Cache(10, { enableConsumableCapacity: true, enableListTypeAttributes: false });
    const allocate = () => {
      const results = newAllocator({
        features: { ...featuresAll },
        allocatedState: { allocatedDevices: new Set() },
        classLister: { list: () => [gpuClass], get: () => gpuClass },
        slices: tracker.list(),
        celCache,
        poolCache,
      }).allocate({ metadata: { name: "node-a" } }, [claim]);
      return results === null
        ? null
        : results.flatMap((r) => (r.devices?.results ?? []).map((d) => d.device));
    };
    expect(allocate()).toEqual(["gpu-0"]);
    inf.apply(add(noSchedule("gpu-0")));
    expect(allocate()).toEqual(["gpu-1"]);
    inf.apply(
      update(noSchedule("gpu-0"), {
        ...noSchedule("gpu-0"),
        spec: { taint: noSchedule("gpu-0").spec.taint },
      }),
    );
    expect(allocate()).toBeNull();
    inf.apply(remove(noSchedule("gpu-0")));
    expect(allocate()).toEqual(["gpu-0"]);
  });
});

// The ResourceSlice updates a DeviceTaintRule event sends (upstream tracker deviceTaintAdd/Update/
// Delete → syncSlice: an update only for the slices whose devices' taints changed). Upstream's
// TestListPatchedResourceSlices (614b1e90) expects one such event in its listed orders,
// `patch-all-slices`; the other cases are kubesched's own.
describe("slicesRetainted: the slice updates of a DeviceTaintRule event", () => {
  const ruleEvent = (slices: ResourceSlice[], rules: DeviceTaintRule[], [oldRule, newRule]: Pair) => {
    const o = oldRule as DeviceTaintRule | undefined;
    const n = newRule as DeviceTaintRule | undefined;
    const name = (n ?? o)?.metadata?.name;
    const after = n
      ? [...rules.filter((r) => r.metadata?.name !== name), n]
      : rules.filter((r) => r.metadata?.name !== name);
    const before = o
      ? [...rules.filter((r) => r.metadata?.name !== name), o]
      : rules.filter((r) => r.metadata?.name !== name);
    return slicesRetainted(slices, before, after, { old: o, new: n }).map((e) => [e.oldSlice, e.newSlice]);
  };

  it("patch-all-slices (upstream): adding a rule updates the slice it taints", () => {
    expect(ruleEvent([slice1], [], add(taintAllDevicesRule))).toEqual([[slice1, slice1Tainted]]);
  });
  it("deleting the rule updates the slice back", () => {
    expect(ruleEvent([slice1], [taintAllDevicesRule], remove(taintAllDevicesRule))).toEqual([
      [slice1Tainted, slice1],
    ]);
  });
  it("moving a rule from pool-1 to pool-2 updates both slices (the old rule's and the new rule's)", () => {
    expect(
      ruleEvent(
        [slice1, slice2],
        [taintPool1DevicesRule],
        update(taintPool1DevicesRule, taintPool2DevicesRule),
      ),
    ).toEqual([
      [slice1Tainted, slice1],
      [slice2, slice2Tainted],
    ]);
  });
  it("a rule that selects no device of any slice, or an update that changes no taint, updates nothing", () => {
    expect(ruleEvent([slice1], [], add(taintPoolDevicesRule(taintAllDevicesRule, "other-pool")))).toEqual([]);
    expect(ruleEvent([slice1NoDevices], [], add(taintAllDevicesRule))).toEqual([]);
    const relabeled: DeviceTaintRule = {
      ...taintAllDevicesRule,
      metadata: { name: "rule", labels: { team: "a" } },
      status: { conditions: [{ type: "EvictionInProgress" }] },
    };
    expect(
      ruleEvent([slice1, slice2], [taintAllDevicesRule], update(taintAllDevicesRule, relabeled)),
    ).toEqual([]);
  });
  it("a changed taint (another effect) updates the slices whose devices carry it", () => {
    const noSchedule = {
      ...taintDevice1Rule,
      spec: { ...taintDevice1Rule.spec, taint: { ...deviceTaint1, effect: "NoSchedule" } },
    };
    const events = ruleEvent([slice1, slice2], [taintDevice1Rule], update(taintDevice1Rule, noSchedule));
    expect(events.map(([, n]) => n?.metadata?.name)).toEqual(["s1"]);
    expect(events[0]?.[1]?.spec.devices?.[0]?.taints?.[0]?.effect).toBe("NoSchedule");
  });
});
