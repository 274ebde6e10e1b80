// The objects of upstream dynamicresources_test.go (podWithClaimName, pendingClaim,
// allocatedClaim, workerNodeSlice, ...) and the st.MakeResourceClaim / MakeResourceSlice helpers
// they are built with, as plain objects; a fake API server for ResourceClaims (upstream's fake
// clientset with createReactor: UIDs, resourceVersions, conflicts).
import type { AllocationResult, DeviceClass, Node, Pod, ResourceClaim, ResourceSlice } from "@kubesched/api";
import type { ClusterClient, PodStatusPatch } from "@kubesched/framework";
import type { ArrayLister } from "@kubesched/testing";
import { makeNode, makePod } from "@kubesched/testing";

export const nodeName = "worker";
export const node2Name = "worker-2";
export const node3Name = "worker-3";
export const driver = "some-driver";
export const driver2 = "some-driver-2";
export const podName = "my-pod";
export const podUID = "1234";
export const resourceName = "my-resource";
export const resourceName2 = `${resourceName}-2`;
export const claimName = `${podName}-${resourceName}`;
export const claimName2 = `${podName}-${resourceName2}`;
export const className = "my-resource-class";
export const namespace = "default";
export const attrName = "healthy";
export const finalizer = "resource.kubernetes.io/delete-protection";

export const deviceClass: DeviceClass = { metadata: { name: className } };

export const podWithClaimName: Pod = makePod()
  .name(podName)
  .namespace(namespace)
  .uid(podUID)
  .podResourceClaims({ name: resourceName, resourceClaimName: claimName })
  .obj();
export const podWithClaimTemplate: Pod = makePod()
  .name(podName)
  .namespace(namespace)
  .uid(podUID)
  .podResourceClaims({ name: resourceName, resourceClaimTemplateName: claimName })
  .obj();
export const podWithClaimTemplateInStatus: Pod = {
  ...podWithClaimTemplate,
  status: { resourceClaimStatuses: [{ name: resourceName, resourceClaimName: claimName }] },
};
export const podWithTwoClaimTemplates: Pod = makePod()
  .name(podName)
  .namespace(namespace)
  .uid(podUID)
  .podResourceClaims({ name: resourceName, resourceClaimTemplateName: claimName })
  .podResourceClaims({ name: resourceName2, resourceClaimTemplateName: claimName })
  .obj();
export const podWithTwoClaimNames: Pod = makePod()
  .name(podName)
  .namespace(namespace)
  .uid(podUID)
  .podResourceClaims({ name: resourceName, resourceClaimName: claimName })
  .podResourceClaims({ name: resourceName2, resourceClaimName: claimName2 })
  .obj();

function node(name: string): Node {
  return makeNode().name(name).label("kubernetes.io/hostname", name).obj();
}
export const workerNode = node(nodeName);
export const workerNode2 = node(node2Name);
export const workerNode3 = node(node3Name);

type Attributes = Record<string, { bool?: boolean }>;

/** st.MakeResourceSlice(nodeName, driver).Device(...): one pool per node, named after it. */
export function makeResourceSlice(
  onNode: string,
  sliceDriver: string,
  ...devices: (string | [string, Attributes])[]
): ResourceSlice {
  return {
    apiVersion: "resource.k8s.io/v1",
    kind: "ResourceSlice",
    metadata: { name: `${onNode}-${sliceDriver}` },
    spec: {
      nodeName: onNode,
      driver: sliceDriver,
      pool: { name: onNode, resourceSliceCount: 1, generation: 1 },
      devices: devices.map((d) => (typeof d === "string" ? { name: d } : { name: d[0], attributes: d[1] })),
    },
  };
}

export const workerNodeSlice = makeResourceSlice(nodeName, driver, "instance-1");
export const largeWorkerNodeSlice = makeResourceSlice(
  nodeName,
  driver,
  "instance-1",
  "instance-2",
  "instance-3",
  "instance-4",
);
export const workerNode2Slice = makeResourceSlice(node2Name, driver, [
  "instance-1",
  { [attrName]: { bool: true } },
]);
export const workerNode3Slice = makeResourceSlice(node3Name, driver, [
  "instance-1",
  { [attrName]: { bool: true } },
]);

export const brokenSelector = { cel: { expression: `device.attributes["${driver}"].${attrName}` } };

type Req = { name: string; exactly?: object; firstAvailable?: object[] };

/** st.MakeResourceClaim().Name(name).Namespace(namespace) with requests req-1, req-2, ... */
export function makeClaim(name: string, ...requests: ((i: number) => Req)[]): ResourceClaim {
  return {
    apiVersion: "resource.k8s.io/v1",
    kind: "ResourceClaim",
    metadata: { name, namespace },
    spec: { devices: { requests: requests.map((r, i) => r(i + 1)) as never } },
  };
}
/** st.Request(className): `req-N`, exactly one device of the class. */
export const request =
  (cls: string) =>
  (i: number): Req => ({
    name: `req-${i}`,
    exactly: { deviceClassName: cls, allocationMode: "ExactCount", count: 1 },
  });
/** st.RequestWithPrioritizedList(subrequests...). */
export const prioritizedList =
  (...subs: { name: string; deviceClassName: string; count?: number; selector?: string }[]) =>
  (i: number): Req => ({
    name: `req-${i}`,
    firstAvailable: subs.map((s) => ({
      name: s.name,
      deviceClassName: s.deviceClassName,
      allocationMode: "ExactCount",
      count: s.count ?? 1,
      ...(s.selector ? { selectors: [{ cel: { expression: s.selector } }] } : {}),
    })),
  });

/** st.FromResourceClaim(c).OwnerReference(podName, podUID, podKind). */
export function owned(c: ResourceClaim): ResourceClaim {
  return {
    ...c,
    metadata: {
      ...c.metadata,
      ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: podName, uid: podUID, controller: true }],
    },
  };
}
/** st.FromResourceClaim(c).Allocation(a): the allocation and the finalizer. */
export function allocated(c: ResourceClaim, a: AllocationResult | undefined): ResourceClaim {
  const finalizers = c.metadata?.finalizers ?? [];
  const out: ResourceClaim = {
    ...c,
    metadata: {
      ...c.metadata,
      finalizers: finalizers.includes(finalizer) ? finalizers : [...finalizers, finalizer],
    },
    status: { ...c.status, allocation: a },
  };
  if (!a) delete out.status?.allocation;
  return out;
}
/** reserve(claim, pod): reservedFor the pod. */
export function reserve(c: ResourceClaim, pod: Pod = podWithClaimName): ResourceClaim {
  return {
    ...c,
    status: {
      ...c.status,
      reservedFor: [
        ...(c.status?.reservedFor ?? []),
        { resource: "pods", name: pod.metadata?.name ?? "", uid: pod.metadata?.uid ?? "" },
      ],
    },
  };
}
/** adminAccess(claim): every request and result with admin access. */
export function adminAccess(c: ResourceClaim): ResourceClaim {
  const out = structuredClone(c);
  for (const r of out.spec?.devices?.requests ?? []) if (r.exactly) r.exactly.adminAccess = true;
  for (const r of out.status?.allocation?.devices?.results ?? []) r.adminAccess = true;
  return out;
}
/** breakCELInClaim: every request selects with brokenSelector. */
export function breakCELInClaim(c: ResourceClaim): ResourceClaim {
  const out = structuredClone(c);
  for (const r of out.spec?.devices?.requests ?? []) if (r.exactly) r.exactly.selectors = [brokenSelector];
  return out;
}
/** breakCELInClass. */
export function breakCELInClass(c: DeviceClass): DeviceClass {
  return { ...c, spec: { ...c.spec, selectors: [brokenSelector] } };
}
/** updateDeviceClassName. */
export function updateDeviceClassName(c: ResourceClaim, cls: string): ResourceClaim {
  const out = structuredClone(c);
  for (const r of out.spec?.devices?.requests ?? []) {
    if (r.exactly) r.exactly.deviceClassName = cls;
    for (const s of r.firstAvailable ?? []) s.deviceClassName = cls;
  }
  return out;
}

function onNode(name: string) {
  return {
    nodeSelectorTerms: [{ matchFields: [{ key: "metadata.name", operator: "In", values: [name] }] }],
  };
}
function result(request: string, device = "instance-1", resultDriver = driver) {
  return { request, driver: resultDriver, pool: nodeName, device };
}

export const allocationResult: AllocationResult = {
  devices: { results: [result("req-1")] },
  nodeSelector: onNode(nodeName),
};
export const allocationResult2: AllocationResult = {
  devices: { results: [result("req-2", "instance-2", driver2)] },
  nodeSelector: onNode(nodeName),
};

export const claim = makeClaim(claimName, request(className));
export const largeClaim = makeClaim(
  claimName,
  request(className),
  request(className),
  request(className),
  request(className),
  request(className),
);
export const claim2 = makeClaim(claimName2, request(className));
export const claimWithPrioritizedList = makeClaim(
  claimName,
  prioritizedList({ name: "subreq-1", deviceClassName: className }),
);
export const claimWithPrioritizedListAndSelector = makeClaim(
  claimName,
  prioritizedList(
    { name: "subreq-1", deviceClassName: className, selector: `device.attributes["${driver}"].${attrName}` },
    { name: "subreq-2", deviceClassName: className },
  ),
);
export const claimWithMultiplePrioritizedListRequests = makeClaim(
  claimName,
  prioritizedList(
    { name: "subreq-1", deviceClassName: className, count: 2 },
    { name: "subreq-2", deviceClassName: className },
  ),
  prioritizedList(
    { name: "subreq-1", deviceClassName: className, count: 2 },
    { name: "subreq-2", deviceClassName: className },
  ),
);
export const claim2WithPrioritizedListAndMultipleSubrequests = makeClaim(
  claimName2,
  prioritizedList(
    { name: "subreq-1", deviceClassName: className, count: 4 },
    { name: "subreq-2", deviceClassName: className, count: 3 },
    { name: "subreq-3", deviceClassName: className, count: 2 },
    { name: "subreq-4", deviceClassName: className, count: 1 },
  ),
);

export const pendingClaim = owned(claim);
export const pendingClaim2 = owned(claim2);
export const pendingClaimWithPrioritizedList = owned(claimWithPrioritizedList);
export const pendingClaimWithPrioritizedListAndSelector = owned(claimWithPrioritizedListAndSelector);
export const pendingClaimWithMultiplePrioritizedListRequests = owned(
  claimWithMultiplePrioritizedListRequests,
);
export const pendingClaim2WithPrioritizedListAndMultipleSubrequests = owned(
  claim2WithPrioritizedListAndMultipleSubrequests,
);

export const allocatedClaim = allocated(pendingClaim, allocationResult);
export const inUseClaim = reserve(allocatedClaim);
export const allocatedClaimWithPrioritizedList = allocated(pendingClaimWithPrioritizedList, {
  devices: { results: [result("req-1/subreq-1")] },
  nodeSelector: onNode(nodeName),
});
export const allocatedClaimWithPrioritizedListAndSelector = allocated(
  pendingClaimWithPrioritizedListAndSelector,
  {
    devices: { results: [result("req-1/subreq-1")] },
    nodeSelector: onNode(nodeName),
  },
);
export const allocatedClaim2WithPrioritizedListAndMultipleSubrequests = allocated(
  pendingClaim2WithPrioritizedListAndMultipleSubrequests,
  {
    devices: {
      results: [
        result("req-1/subreq-2", "instance-1"),
        result("req-1/subreq-2", "instance-2"),
        result("req-1/subreq-2", "instance-3"),
      ],
    },
    nodeSelector: onNode(nodeName),
  },
);
export const allocatedClaimWithMultiplePrioritizedListRequests = allocated(
  pendingClaimWithMultiplePrioritizedListRequests,
  {
    devices: {
      results: [
        result("req-1/subreq-1", "instance-1"),
        result("req-1/subreq-1", "instance-2"),
        result("req-2/subreq-1", "instance-1"),
        result("req-2/subreq-1", "instance-2"),
      ],
    },
    nodeSelector: onNode(nodeName),
  },
);
export const allocatedClaimWithWrongTopology = allocated(allocatedClaim, {
  nodeSelector: {
    nodeSelectorTerms: [
      { matchExpressions: [{ key: "no-such-label", operator: "In", values: ["no-such-value"] }] },
    ],
  },
});
export const allocatedClaimWithGoodTopology = allocated(allocatedClaim, {
  nodeSelector: {
    nodeSelectorTerms: [
      { matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: [nodeName] }] },
    ],
  },
});
export const allocatedClaim2 = allocated(owned(claim2), allocationResult2);

// DRA device binding conditions.
export const bindingConditions = ["condition"];
export const bindingFailureConditions = ["failed"];

/** A slice whose one device binds to the node and has binding conditions. */
export function fabricSlice(sliceDriver: string, device: string): ResourceSlice {
  const s = makeResourceSlice(nodeName, sliceDriver, device);
  const d = s.spec?.devices?.[0];
  if (d) Object.assign(d, { bindsToNode: true, bindingConditions, bindingFailureConditions });
  if (s.spec) {
    s.spec.nodeSelector = onNode(nodeName);
    delete s.spec.nodeName;
  }
  return s;
}

export const allocationResultWithBindingConditions: AllocationResult = {
  devices: { results: [{ ...result("req-1"), bindingConditions, bindingFailureConditions }] },
  nodeSelector: onNode(nodeName),
};
export const allocationResultWithBindingConditions2: AllocationResult = {
  devices: {
    results: [{ ...result("req-2", "instance-2", driver2), bindingConditions, bindingFailureConditions }],
  },
  nodeSelector: onNode(nodeName),
};

/** st.FromResourceClaim(c).Allocation(a).AllocatedDeviceStatuses(...). */
function withDeviceStatus(
  c: ResourceClaim,
  a: AllocationResult,
  statusDriver: string,
  device: string,
  conditions: Record<string, "True" | "False">,
): ResourceClaim {
  const out = allocated(c, a);
  out.status = {
    ...out.status,
    devices: [
      {
        driver: statusDriver,
        pool: nodeName,
        device,
        conditions: Object.entries(conditions).map(([type, status]) => ({ type, status })),
      },
    ],
  };
  return out;
}
export const boundClaim = withDeviceStatus(
  allocatedClaim,
  allocationResultWithBindingConditions,
  driver,
  "instance-1",
  {
    condition: "True",
    failed: "False",
  },
);
export const boundClaim2 = withDeviceStatus(
  allocatedClaim2,
  allocationResultWithBindingConditions2,
  driver2,
  "instance-2",
  {
    condition: "True",
    failed: "False",
  },
);
export const failedBindingClaim = withDeviceStatus(
  allocatedClaim,
  allocationResultWithBindingConditions,
  driver,
  "instance-1",
  { condition: "False", failed: "True" },
);
export const failedBindingClaim2 = withDeviceStatus(
  allocatedClaim2,
  allocationResultWithBindingConditions2,
  driver2,
  "instance-2",
  { condition: "False", failed: "True" },
);

export const otherClaim = makeClaim("not-my-claim", request(className));
export const otherAllocatedClaim = allocated(otherClaim, allocationResult);

/**
 * ResourceClaims behind an API server, as upstream's fake clientset with createReactor: creates
 * get a UID and a resourceVersion, updates need the current resourceVersion (else Conflict) and
 * get a new one. The store is the listers' (the informer sees every write at once).
 */
export class FakeClaimApi
  implements
    Pick<
      ClusterClient,
      | "updateResourceClaim"
      | "updateResourceClaimStatus"
      | "createResourceClaim"
      | "deleteResourceClaim"
      | "patchPodStatus"
    >
{
  private rv = 0;
  private uid = 0;
  private nameCounter = 0;
  store: ArrayLister<ResourceClaim> | null = null;
  /** pods/status patches fail with "patch error" (upstream failPatch). */
  failPatch = false;
  /** Creates fail with this message (upstream's create reactor returning BadRequest). */
  failCreate: string | null = null;
  /** The pods/status patches, in order. */
  readonly podPatches: { pod: Pod; patch: PodStatusPatch }[] = [];

  private lister(): ArrayLister<ResourceClaim> {
    if (!this.store) throw new Error("FakeClaimApi: no store");
    return this.store;
  }

  /** Create through the API (UID and resourceVersion assigned). */
  create(claim: ResourceClaim): ResourceClaim {
    const stored = structuredClone(claim);
    stored.metadata = { ...stored.metadata, uid: `UID-${this.uid++}`, resourceVersion: String(this.rv++) };
    this.lister().add(stored);
    return stored;
  }

  private put(claim: ResourceClaim, part: "spec" | "status" | "all"): ResourceClaim {
    const ns = claim.metadata?.namespace ?? "";
    const name = claim.metadata?.name ?? "";
    const cur = this.lister().get(ns, name);
    if (!cur)
      throw Object.assign(new Error(`resourceclaims.resource.k8s.io "${name}" not found`), {
        reason: "NotFound",
      });
    if (claim.metadata?.resourceVersion !== cur.metadata?.resourceVersion) {
      throw Object.assign(new Error("ResourceVersion must match the object that gets updated"), {
        reason: "Conflict",
      });
    }
    const next: ResourceClaim =
      part === "status"
        ? { ...structuredClone(cur), status: structuredClone(claim.status) }
        : part === "spec"
          ? { ...structuredClone(claim), status: structuredClone(cur.status) }
          : structuredClone(claim);
    if (next.status === undefined) delete next.status;
    next.metadata = { ...next.metadata, resourceVersion: String(this.rv++) };
    this.lister().add(next);
    return structuredClone(next);
  }

  /** PUT the whole object (the test's own preparations). */
  update(claim: ResourceClaim): ResourceClaim {
    return this.put(claim, "all");
  }

  async updateResourceClaim(claim: ResourceClaim): Promise<ResourceClaim> {
    return this.put(claim, "spec");
  }

  async updateResourceClaimStatus(claim: ResourceClaim): Promise<ResourceClaim> {
    return this.put(claim, "status");
  }

  /** upstream createReactor's create: no uid or resourceVersion given; generateName + a counter. */
  async createResourceClaim(claim: ResourceClaim): Promise<ResourceClaim> {
    if (this.failCreate !== null) throw Object.assign(new Error(this.failCreate), { reason: "BadRequest" });
    if (claim.metadata?.uid) throw new Error("UID must not be set on create");
    if (claim.metadata?.resourceVersion) throw new Error("ResourceVersion must not be set on create");
    const stored = structuredClone(claim);
    if (!stored.metadata?.name) {
      stored.metadata = {
        ...stored.metadata,
        name: `${stored.metadata?.generateName ?? ""}${this.nameCounter++}`,
      };
    }
    return structuredClone(this.create(stored));
  }

  async deleteResourceClaim(claim: ResourceClaim): Promise<void> {
    this.lister().remove(claim.metadata?.namespace ?? "", claim.metadata?.name ?? "");
  }

  async patchPodStatus(pod: Pod, patch: PodStatusPatch): Promise<void> {
    if (this.failPatch) throw new Error("patch error");
    this.podPatches.push({ pod, patch });
  }
}
