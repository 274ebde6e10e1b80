// The DRA decision checks catch what a wrong allocation looks like: a device given twice, a device
// outside the class's selector, a claim of a bound pod that is not reserved for it or sits on
// another node's device, an unmet matchAttribute constraint.
import type { Pod, ResourceClaim } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import {
  makeDRANode,
  makeDriverSlice,
  makeTestClaim,
  makeTestDeviceClass,
  testDriver,
} from "./dra-templates";
import { checkDRAAllocations } from "./verify-dra";

const slices = [0, 1].map((i) => makeDriverSlice(testDriver, makeDRANode(i).metadata!.name!, 2));
const deviceClasses = [makeTestDeviceClass()];

function allocated(index: number, node: string, device: string, driver = testDriver): ResourceClaim {
  const c = makeTestClaim("test", index);
  return {
    ...c,
    status: {
      allocation: { devices: { results: [{ request: "req-0", driver, pool: node, device }] } },
      reservedFor: [{ resource: "pods", name: `p${index}`, uid: `test/p${index}` }],
    },
  };
}

function podOf(index: number, node: string): Pod {
  return {
    metadata: { name: `p${index}`, namespace: "test", uid: `test/p${index}` },
    spec: {
      nodeName: node,
      containers: [{ name: "c" }],
      resourceClaims: [{ name: "resource", resourceClaimName: `test-claim-${index}` }],
    },
  };
}

const n0 = "scheduler-perf-dra-0";
const n1 = "scheduler-perf-dra-1";

describe("checkDRAAllocations", () => {
  it("accepts distinct devices matching the class, reserved for pods on their nodes", () => {
    const r = checkDRAAllocations({
      pods: [podOf(0, n0), podOf(1, n1)],
      resourceClaims: [allocated(0, n0, "instance-0"), allocated(1, n1, "instance-1")],
      resourceSlices: slices,
      deviceClasses,
    });
    expect(r).toMatchObject({ claims: 2, devices: 2, pods: 2, problemCount: 0 });
  });

  it("finds a device allocated twice", () => {
    const r = checkDRAAllocations({
      pods: [],
      resourceClaims: [allocated(0, n0, "instance-0"), allocated(1, n0, "instance-0")],
      resourceSlices: slices,
      deviceClasses,
    });
    expect(r.problems).toEqual([
      `device ${testDriver}/${n0}/instance-0 allocated twice: to test/test-claim-0 and test/test-claim-1`,
    ]);
  });

  it("evaluates the class's CEL selector with the allocator's environment", () => {
    const other = makeDriverSlice("other.example.com", n0, 1);
    const r = checkDRAAllocations({
      pods: [],
      resourceClaims: [allocated(0, n0, "instance-0", "other.example.com")],
      resourceSlices: [...slices, other],
      deviceClasses,
    });
    expect(r.problems).toEqual([
      `claim test/test-claim-0: device other.example.com/${n0}/instance-0 does not match selector "device.driver == \\"${testDriver}\\""`,
    ]);
  });

  it("finds a bound pod whose claim is on another node or not reserved for it", () => {
    const claim = allocated(0, n1, "instance-0");
    const r = checkDRAAllocations({
      pods: [podOf(0, n0)],
      resourceClaims: [{ ...claim, status: { ...claim.status, reservedFor: [] } }],
      resourceSlices: slices,
      deviceClasses,
    });
    expect(r.problems).toEqual([
      "pod test/p0: claim test-claim-0 not reserved for it",
      `pod test/p0 on ${n0}: claim test-claim-0 has device instance-0 of node ${n1}`,
    ]);
  });

  it("checks matchAttribute constraints and request counts", () => {
    const c = makeTestClaim("test", 0);
    const claim: ResourceClaim = {
      ...c,
      spec: {
        devices: {
          requests: [{ name: "req-0", exactly: { deviceClassName: "test-class", count: 2 } }],
          constraints: [{ matchAttribute: "dra.example.com/numa" }],
        },
      },
      status: {
        allocation: {
          devices: {
            results: ["instance-0", "instance-1"].map((device) => ({
              request: "req-0",
              driver: testDriver,
              pool: n0,
              device,
            })),
          },
        },
      },
    };
    // numa is the device's index: the two differ.
    const r = checkDRAAllocations({
      pods: [],
      resourceClaims: [claim],
      resourceSlices: slices,
      deviceClasses,
    });
    expect(r.problems).toEqual([
      `claim test/test-claim-0: matchAttribute dra.example.com/numa not matched ({"int":0}, {"int":1})`,
    ]);
  });
});

describe("checkDRAAllocations with list attributes (DRAListTypeAttributes)", () => {
  // Two devices of node 0 with list attributes: instance-0 [a, b], instance-1 [b, c].
  const listSlice = {
    ...slices[0]!,
    spec: {
      ...slices[0]!.spec,
      devices: [
        { name: "instance-0", attributes: { "dra.example.com/match": { strings: ["a", "b"] } } },
        { name: "instance-1", attributes: { "dra.example.com/match": { strings: ["b", "c"] } } },
      ],
    },
  };
  const claimOfTwo = (constraint: {
    matchAttribute?: string;
    distinctAttribute?: string;
  }): ResourceClaim => ({
    metadata: { name: "two", namespace: "test" },
    spec: {
      devices: {
        constraints: [constraint],
        requests: [{ name: "req-0", exactly: { deviceClassName: "test-class", count: 2 } }],
      },
    },
    status: {
      allocation: {
        devices: {
          results: ["instance-0", "instance-1"].map((device) => ({
            request: "req-0",
            driver: testDriver,
            pool: n0,
            device,
          })),
        },
      },
    },
  });
  const run = (c: ResourceClaim) =>
    checkDRAAllocations({ pods: [], resourceClaims: [c], resourceSlices: [listSlice], deviceClasses });
  it("matchAttribute holds when the lists intersect; distinctAttribute fails when they do", () => {
    expect(run(claimOfTwo({ matchAttribute: "dra.example.com/match" })).problemCount).toBe(0);
    expect(run(claimOfTwo({ distinctAttribute: "dra.example.com/match" })).problems).toEqual([
      'claim test/two: distinctAttribute dra.example.com/match not distinct ({"strings":["a","b"]}, {"strings":["b","c"]})',
    ]);
  });
});
