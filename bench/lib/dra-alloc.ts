// upstream allocResourceClaimsOp (test/integration/scheduler_perf/dra.go, read at the v1 version
// the index holds as id 54868950851): every claim of a namespace not allocated yet is allocated by
// the structured allocator on a node picked at random (the nodes shuffled per claim, the first
// that fits taken), one claim at a time, each allocation stored before the next claim, with no
// pod reserving it. Randomness is seeded here, so the same run allocates the same devices.
import type { Node, ResourceClaim } from "@kubesched/api";
import type { InMemoryCluster } from "@kubesched/cluster";
import { Cache } from "@kubesched/dynamic-resource-allocation/cel";
import {
  type DeviceID,
  featuresAll,
  makeDeviceID,
  newAllocator,
} from "@kubesched/dynamic-resource-allocation/structured";
import { seededRandom } from "@kubesched/framework";

/** Allocates the namespace's unallocated claims; throws when one fits no node (as upstream's Fatalf). */
export function allocateClaims(cluster: InMemoryCluster, namespace: string, seed = 1): number {
  const rand = seededRandom(seed);
  const celCache = new Cache(10, { enableConsumableCapacity: true, enableListTypeAttributes: false });
  const classes = {
    list: () => cluster.deviceClasses.list(),
    get: (name: string) => {
      const c = cluster.deviceClasses.get(name);
      if (!c) throw new Error(`deviceclass.resource.k8s.io "${name}" not found`);
      return c;
    },
  };
  const slices = cluster.resourceSlices.list();
  const nodes: Node[] = [...cluster.nodes.list()];
  // The allocated devices of every claim (upstream rebuilds the set from the claim cache per claim).
  const allocatedDevices = new Set<DeviceID>();
  for (const c of cluster.resourceClaims.list())
    for (const r of c.status?.allocation?.devices?.results ?? [])
      allocatedDevices.add(makeDeviceID(r.driver, r.pool, r.device));
  const claims = cluster.resourceClaims.list(namespace);
  let allocated = 0;
  claims.forEach((claim: ResourceClaim, i: number) => {
    if (claim.status?.allocation) return;
    const allocator = newAllocator({
      features: featuresAll,
      allocatedState: { allocatedDevices },
      classLister: classes,
      slices,
      celCache,
    });
    // Fisher-Yates, as rand.Shuffle.
    for (let j = nodes.length - 1; j > 0; j--) {
      const k = rand.intn(j + 1);
      [nodes[j], nodes[k]] = [nodes[k] as Node, nodes[j] as Node];
    }
    for (const node of nodes) {
      const result = allocator.allocate(node, [claim]);
      if (!result?.[0]) continue;
      cluster.updateResourceClaim({ ...claim, status: { ...claim.status, allocation: result[0] } }, "status");
      for (const r of result[0].devices?.results ?? [])
        allocatedDevices.add(makeDeviceID(r.driver, r.pool, r.device));
      allocated++;
      return;
    }
    throw new Error(`Could not allocate claim ${i} out of ${claims.length}`);
  });
  return allocated;
}
