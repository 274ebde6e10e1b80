// upstream: apis/scheduling/v1alpha1/types.go (ElasticQuota) and pkg/capacityscheduling/elasticquota.go
import { type Pod, type ResourceList, resourceListToAmounts } from "@kubesched/api";
import {
  type CustomObject,
  defineCustomResource,
  type FieldError,
  fieldErrors,
  Resource,
} from "@kubesched/framework";

/** scheduling.x-k8s.io/v1alpha1 ElasticQuota: guaranteed (min) and limit (max) per namespace. */
export interface ElasticQuota extends CustomObject {
  spec?: {
    /** Guaranteed resources; other namespaces' pods using them may be preempted. */
    min?: ResourceList;
    /** The namespace's pods never use more than this. */
    max?: ResourceList;
  };
  status?: { used?: ResourceList };
}

function quantityErrors(list: unknown, field: string): FieldError[] {
  if (list === undefined) return [];
  if (typeof list !== "object" || list === null || Array.isArray(list)) {
    return [fieldErrors.invalid(field, list, "must be a map of resource name to quantity")];
  }
  const errs: FieldError[] = [];
  for (const [name, q] of Object.entries(list)) {
    try {
      resourceListToAmounts({ [name]: String(q) });
    } catch (e) {
      errs.push(fieldErrors.invalid(`${field}.${name}`, q, (e as Error).message));
    }
  }
  return errs;
}

/** The ElasticQuota custom resource, as the CRD of scheduler-plugins declares it. */
export const elasticQuotaResource = defineCustomResource<ElasticQuota>({
  group: "scheduling.x-k8s.io",
  version: "v1alpha1",
  resource: "elasticquotas",
  kind: "ElasticQuota",
  namespaced: true,
  validate: (eq) => [
    ...quantityErrors(eq.spec?.min, "spec.min"),
    ...quantityErrors(eq.spec?.max, "spec.max"),
  ],
});

/** No max: no limit. */
export const UpperBoundOfMax = Number.MAX_SAFE_INTEGER;
/** No min: nothing guaranteed. */
export const LowerBoundOfMin = 0;

function boundResource(bound: number): Resource {
  const r = new Resource();
  r.milliCPU = bound;
  r.memory = bound;
  r.ephemeralStorage = bound;
  return r;
}

/** upstream cmp2: whether x1 + x2 exceeds y in any resource (scalars missing from y count `bound`). */
export function cmp2(x1: Resource, x2: Resource, y: Resource, bound: number): boolean {
  if (x1.milliCPU + x2.milliCPU > y.milliCPU) return true;
  if (x1.memory + x2.memory > y.memory) return true;
  if (x1.ephemeralStorage + x2.ephemeralStorage > y.ephemeralStorage) return true;
  if (x1.allowedPodNumber + x2.allowedPodNumber > y.allowedPodNumber) return true;
  for (const [name, q] of x1.scalarResources ?? []) {
    const yq = y.scalarResources?.has(name) ? y.scalar(name) : bound;
    if (q + x2.scalar(name) > yq) return true;
  }
  return false;
}

/** upstream cmp: whether x exceeds y in any resource. */
export function cmp(x: Resource, y: Resource, bound: number): boolean {
  return cmp2(x, new Resource(), y, bound);
}

/** upstream computePodResourceRequest: containers summed, each init container a floor, overhead added. */
export function computePodResourceRequest(pod: Pod): Resource {
  const result = new Resource();
  for (const c of pod.spec?.containers ?? []) result.add(resourceListToAmounts(c.resources?.requests));
  for (const c of pod.spec?.initContainers ?? []) {
    result.setMaxResource(Resource.fromList(c.resources?.requests));
  }
  if (pod.spec?.overhead) result.add(resourceListToAmounts(pod.spec.overhead));
  return result;
}

function podKeyOf(pod: Pod): string {
  return pod.metadata?.uid || `${pod.metadata?.namespace ?? ""}/${pod.metadata?.name ?? ""}`;
}

/** upstream ElasticQuotaInfo: one namespace's min, max and what its pods use. */
export class ElasticQuotaInfo {
  pods = new Set<string>();

  constructor(
    readonly namespace: string,
    /** null: nothing guaranteed (used is always over it). */
    public min: Resource | null,
    /** null: no limit. */
    public max: Resource | null,
    public used: Resource,
  ) {}

  /** upstream newElasticQuotaInfo: an absent min is 0, an absent max unbounded. */
  static of(
    namespace: string,
    min?: ResourceList,
    max?: ResourceList,
    used?: ResourceList,
  ): ElasticQuotaInfo {
    return new ElasticQuotaInfo(
      namespace,
      min ? Resource.fromList(min) : boundResource(LowerBoundOfMin),
      max ? Resource.fromList(max) : boundResource(UpperBoundOfMax),
      Resource.fromList(used),
    );
  }

  reserveResource(request: Resource): void {
    this.used.addResource(request);
  }

  unreserveResource(request: Resource): void {
    this.used.subResource(request);
  }

  usedOverMinWith(podRequest: Resource): boolean {
    if (!this.min) return true;
    return cmp2(podRequest, this.used, this.min, LowerBoundOfMin);
  }

  usedOverMaxWith(podRequest: Resource): boolean {
    if (!this.max) return false;
    return cmp2(podRequest, this.used, this.max, UpperBoundOfMax);
  }

  usedOverMin(): boolean {
    if (!this.min) return true;
    return cmp(this.used, this.min, LowerBoundOfMin);
  }

  clone(): ElasticQuotaInfo {
    const c = new ElasticQuotaInfo(
      this.namespace,
      this.min?.clone() ?? null,
      this.max?.clone() ?? null,
      this.used.clone(),
    );
    c.pods = new Set(this.pods);
    return c;
  }

  addPodIfNotPresent(pod: Pod): void {
    const key = podKeyOf(pod);
    if (this.pods.has(key)) return;
    this.pods.add(key);
    this.reserveResource(computePodResourceRequest(pod));
  }

  deletePodIfPresent(pod: Pod): void {
    const key = podKeyOf(pod);
    if (!this.pods.has(key)) return;
    this.pods.delete(key);
    this.unreserveResource(computePodResourceRequest(pod));
  }
}

/** upstream ElasticQuotaInfos: namespace → info. */
export class ElasticQuotaInfos extends Map<string, ElasticQuotaInfo> {
  clone(): ElasticQuotaInfos {
    const c = new ElasticQuotaInfos();
    for (const [k, v] of this) c.set(k, v.clone());
    return c;
  }

  /** Whether every namespace's used plus `podRequest` exceeds the sum of the mins. */
  aggregatedUsedOverMinWith(podRequest: Resource): boolean {
    const used = new Resource();
    const min = new Resource();
    for (const info of this.values()) {
      used.addResource(info.used);
      if (info.min) min.addResource(info.min);
    }
    used.addResource(podRequest);
    return cmp(used, min, LowerBoundOfMin);
  }
}
