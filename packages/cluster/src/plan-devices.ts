// The devices of `kubesched plan`'s report: per pool, the devices its nodes in the proof publish
// (their ResourceSlices) and how many claims hold; per DeviceClass, the devices its selectors
// match after (the proof's device output, simulate.ts), how many claims hold and how many the
// pools' nodes added (the proof's count less the baseline's).
import { addedNodeNames } from "./counterfactual";
import type { PlanDevices, PlanPool } from "./plan";
import type { SimulationResult } from "./simulate";

/** The proof's devices; null when it has no DeviceClass and no pool node publishes a slice. */
export function planDevices(
  pools: readonly PlanPool[],
  counts: readonly number[],
  baseline: SimulationResult,
  proof: SimulationResult,
): PlanDevices | null {
  const nodes = new Map(proof.nodes.map((n) => [n.name, n]));
  const perPool = pools.flatMap((pool, i) => {
    if ((pool.resourceSlices ?? []).length === 0 || (counts[i] ?? 0) === 0) return [];
    let published = 0;
    let allocated = 0;
    for (const name of addedNodeNames(pool.name, counts[i] ?? 0))
      for (const d of nodes.get(name)?.devices ?? []) {
        published += d.published;
        allocated += d.allocated;
      }
    return [{ pool: pool.name, published, allocated }];
  });
  const before = new Map((baseline.deviceClasses ?? []).map((c) => [c.name, c.published]));
  const classes = (proof.deviceClasses ?? []).map((c) => ({
    name: c.name,
    published: c.published,
    allocated: c.allocated,
    added: c.published - (before.get(c.name) ?? 0),
  }));
  return perPool.length === 0 && classes.length === 0 ? null : { pools: perPool, classes };
}
