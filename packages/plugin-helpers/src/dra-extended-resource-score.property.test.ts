// NodeResourcesFit's DRA-backed scoring totals (upstream calculateDRAResourceTotals: the node's
// devices of the class, and those of them claims hold) stay what a gather from every claim and a
// check of every device give (the oracle here, upstream's way), while the held devices are kept
// between cycles from the claim listing and each slice's selected devices and held count are
// kept per slice: random sequences of claims allocated (exclusive, shared by two claims, admin
// access), updated, deallocated and deleted, with the listing's order kept or rotated (fast-check).
import type { DeviceClass, Node, ResourceClaim, ResourceSlice } from "@kubesched/api";
import { Cache } from "@kubesched/dynamic-resource-allocation/cel";
import type { ClusterScopedLister, Lister } from "@kubesched/framework";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { DRAExtendedResourceScoring } from "./dra-extended-resource-score";
import { DefaultDRAManager } from "./dra-manager";

const driver = "gpu.example.com";
const nodes: Node[] = ["node-a", "node-b"].map((name) => ({ metadata: { name } }));
const classes: DeviceClass[] = [
  {
    metadata: { name: "gpu" },
    spec: {
      extendedResourceName: "example.com/gpu",
      selectors: [{ cel: { expression: `device.driver == "${driver}"` } }],
    },
  },
  {
    metadata: { name: "big" },
    spec: {
      extendedResourceName: "example.com/big",
      selectors: [{ cel: { expression: `device.attributes["${driver}"].size == "big"` } }],
    },
  },
];
const slices: ResourceSlice[] = nodes.map((n) => {
  const nodeName = n.metadata?.name ?? "";
  return {
    metadata: { name: `${nodeName}-gpus` },
    spec: {
      driver,
      nodeName,
      pool: { name: nodeName, generation: 1, resourceSliceCount: 1 },
      devices: [0, 1, 2, 3].map((i) => ({
        name: `gpu-${i}`,
        attributes: { size: { string: i % 2 === 0 ? "big" : "small" } },
      })),
    },
  };
});

function lister<T extends { metadata?: { name?: string; namespace?: string } }>(get: () => readonly T[]) {
  return {
    list: () => get(),
    get: (a: string, b?: string) =>
      get().find((o) =>
        b === undefined ? o.metadata?.name === a : o.metadata?.namespace === a && o.metadata?.name === b,
      ),
  };
}

/** upstream's totals: every device of the node's slices the class selects, held by some claim. */
function oracle(node: Node, deviceClass: DeviceClass, claims: readonly ResourceClaim[]): [number, number] {
  const held = new Set(
    claims.flatMap((c) =>
      (c.status?.allocation?.devices?.results ?? [])
        .filter((r) => r.adminAccess !== true)
        .map((r) => `${r.driver}/${r.pool}/${r.device}`),
    ),
  );
  let capacity = 0;
  let allocated = 0;
  for (const s of slices) {
    if (s.spec.nodeName !== node.metadata?.name) continue;
    s.spec.devices?.forEach((d, i) => {
      if (deviceClass.metadata?.name === "big" && i % 2 !== 0) return;
      capacity++;
      if (held.has(`${driver}/${s.spec.pool.name}/${d.name}`)) allocated++;
    });
  }
  return [capacity, allocated];
}

const eventArb = fc.record({
  claim: fc.integer({ min: 0, max: 4 }),
  op: fc.constantFrom("allocate", "allocate", "deallocate", "delete"),
  node: fc.integer({ min: 0, max: 1 }),
  devices: fc.uniqueArray(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 2 }),
  admin: fc.boolean(),
  rotate: fc.integer({ min: 0, max: 4 }),
});

/** The scoring over the classes, the slices and the claims `claims` returns. */
function newScoring(claims: () => readonly ResourceClaim[]): DRAExtendedResourceScoring {
  const manager = new DefaultDRAManager({
    listers: {
      resourceClaims: lister(claims) as Lister<ResourceClaim>,
      resourceSlices: lister(() => slices) as ClusterScopedLister<ResourceSlice>,
      deviceClasses: lister(() => classes) as ClusterScopedLister<DeviceClass>,
    },
    deviceTaintRules: false,
  });
  return new DRAExtendedResourceScoring(manager, {
    enableConsumableCapacity: true,
    enableListTypeAttributes: false,
  });
}

describe("DRA-backed scoring totals kept between cycles", () => {
  it("equal a gather from every claim and device, as claims come and go", () => {
    fc.assert(
      fc.property(fc.array(eventArb, { minLength: 1, maxLength: 30 }), (events) => {
        let claims: ResourceClaim[] = [];
        const scoring = newScoring(() => claims);
        let version = 0;
        for (const e of events) {
          const name = `claim-${e.claim}`;
          const at = claims.findIndex((c) => c.metadata?.name === name);
          if (e.op === "delete") {
            claims = claims.filter((_c, i) => i !== at);
          } else {
            const nodeName = nodes[e.node]?.metadata?.name ?? "";
            const c: ResourceClaim = {
              metadata: { name, namespace: "ns", uid: name, resourceVersion: String(++version) },
              spec: {},
              ...(e.op === "allocate"
                ? {
                    status: {
                      allocation: {
                        devices: {
                          results: e.devices.map((d) => ({
                            request: "r",
                            driver,
                            pool: nodeName,
                            device: `gpu-${d}`,
                            ...(e.admin ? { adminAccess: true } : {}),
                          })),
                        },
                      },
                    },
                  }
                : {}),
            };
            claims = at >= 0 ? claims.map((old, i) => (i === at ? c : old)) : [...claims, c];
          }
          if (e.rotate > 0 && claims.length > 0) {
            const k = e.rotate % claims.length;
            claims = [...claims.slice(k), ...claims.slice(0, k)];
          }
          const state = scoring.preScore([{ name: "example.com/gpu", weight: 1 }]);
          expect(state).not.toBeNull();
          for (const node of nodes) {
            for (const deviceClass of classes) {
              const resource = deviceClass.spec?.extendedResourceName ?? "";
              expect([node.metadata?.name, resource, state?.allocatableRequest(node, resource)]).toEqual([
                node.metadata?.name,
                resource,
                oracle(node, deviceClass, claims),
              ]);
            }
          }
        }
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it("checks each device against a class once, not per node and cycle", () => {
    let claims: ResourceClaim[] = [];
    const scoring = newScoring(() => claims);
    const matches = vi.spyOn(Cache.prototype, "deviceMatches");
    try {
      for (const cycle of [0, 1, 2]) {
        const state = scoring.preScore([{ name: "example.com/gpu", weight: 1 }]);
        for (const node of nodes) state?.allocatableRequest(node, "example.com/gpu");
        // A claim allocated between cycles: counted, without checking devices again.
        claims = [
          ...claims,
          {
            metadata: { name: `c${cycle}`, namespace: "ns", uid: `c${cycle}` },
            spec: {},
            status: {
              allocation: {
                devices: { results: [{ request: "r", driver, pool: "node-a", device: `gpu-${cycle}` }] },
              },
            },
          },
        ];
      }
      const state = scoring.preScore([{ name: "example.com/gpu", weight: 1 }]);
      expect(state?.allocatableRequest(nodes[0] as Node, "example.com/gpu")).toEqual([4, 3]);
      // Two nodes' 4 devices, once each (upstream: per node, per cycle).
      expect(matches).toHaveBeenCalledTimes(8);
    } finally {
      matches.mockRestore();
    }
  });
});
