// The DRA workloads' decisions, checked after their runs: no device allocated twice (per
// driver/pool/device over every claim; admin access does not count, devices that allow multiple
// allocations count their consumed capacity), every allocation within its claim's requests
// (class and request selectors evaluated with the allocator's own CEL, counts, matchAttribute /
// distinctAttribute constraints; a firstAvailable request's results all name one of its
// subrequests, `<request>/<subrequest>`, with that subrequest's count), the counters partitionable
// devices consume within their pools' shared counter sets, every bound pod's claims allocated,
// reserved for it and on its node; a share of a device that allows multiple allocations consumes
// what its request asks for (or the policy's default) rounded up as the device's requestPolicy
// says, and the shares of a device stay within its capacity; every allocated device's NoSchedule
// and NoExecute taints (those its ResourceSlice publishes and those of the DeviceTaintRules that
// select it, matched here on their own) tolerated by its request. Whether an earlier subrequest could have been chosen is not
// checked: that depends on the other claims and the order they were allocated in, which the final
// state does not show.
// And the special claims of DRAExtendedResource: every bound pod's extended resources that a
// DeviceClass backs served by its `<pod>-extended-resources-*` claim as its status maps them.
import {
  type DeviceAttribute,
  type DeviceClass,
  type DeviceConstraint,
  type DeviceSubRequest,
  type DeviceTaint,
  type DeviceTaintRule,
  type DeviceToleration,
  type ExactDeviceRequest,
  type Node,
  type Pod,
  Quantity,
  type ResourceClaim,
  type ResourceSlice,
} from "@kubesched/api";
import { type Device as CELDevice, getCompiler } from "@kubesched/dynamic-resource-allocation/cel";
import { DeviceClassResolver, isDRAExtendedResourceName } from "@kubesched/plugin-helpers";

export interface DRAState {
  pods: readonly Pod[];
  resourceClaims: readonly ResourceClaim[];
  resourceSlices: readonly ResourceSlice[];
  deviceClasses: readonly DeviceClass[];
  /** DeviceTaintRules whose taints the devices they select carry too (DRADeviceTaintRules on). */
  deviceTaintRules?: readonly DeviceTaintRule[];
}

/** The taints of the rules that select the device (KEP-5055: driver, pool, device; none set: all). */
function ruleTaints(
  rules: readonly DeviceTaintRule[],
  slice: ResourceSlice,
  device: SliceDevice,
): DeviceTaint[] {
  return rules
    .filter((r) => {
      const s = r.spec.deviceSelector;
      return (
        (s?.driver === undefined || s.driver === slice.spec.driver) &&
        (s?.pool === undefined || s.pool === slice.spec.pool.name) &&
        (s?.device === undefined || s.device === device.name)
      );
    })
    .map((r) => r.spec.taint);
}

export interface DRACheck {
  /** Allocated claims checked, device results checked. */
  claims: number;
  devices: number;
  /** Pods with claims that are bound. */
  pods: number;
  /** At most a few problems, each one line. */
  problems: string[];
  /** How many problems in all. */
  problemCount: number;
}

type SliceDevice = NonNullable<ResourceSlice["spec"]["devices"]>[number];

const compiler = getCompiler({ enableConsumableCapacity: true, enableListTypeAttributes: true });

/** A device's attribute by (possibly qualified) name: `domain/id` with the driver's domain is also `id`. */
function attribute(device: SliceDevice, driver: string, name: string): DeviceAttribute | undefined {
  const attrs = device.attributes ?? {};
  if (attrs[name]) return attrs[name];
  const slash = name.indexOf("/");
  if (slash > 0 && name.slice(0, slash) === driver) return attrs[name.slice(slash + 1)];
  return undefined;
}

/** The request (or subrequest, `parent/sub`) a result names, as exact requests. */
function requestOf(claim: ResourceClaim, name: string): ExactDeviceRequest | DeviceSubRequest | undefined {
  const [parent, sub] = name.split("/");
  const req = claim.spec?.devices?.requests?.find((r) => r.name === parent);
  if (!req) return undefined;
  if (sub !== undefined) return req.firstAvailable?.find((s) => s.name === sub);
  return req.exactly;
}

export function checkDRAAllocations(state: DRAState): DRACheck {
  const problems: string[] = [];
  let problemCount = 0;
  const problem = (line: string) => {
    problemCount++;
    if (problems.length < 5) problems.push(line);
  };
  const devices = new Map<string, { slice: ResourceSlice; device: SliceDevice }>();
  for (const slice of state.resourceSlices)
    for (const device of slice.spec.devices ?? [])
      devices.set(`${slice.spec.driver}/${slice.spec.pool.name}/${device.name}`, { slice, device });
  const classes = new Map(state.deviceClasses.map((c) => [c.metadata?.name ?? "", c] as const));
  const compiled = new Map<string, ReturnType<typeof compiler.compileCELExpression>>();
  const matches = (expression: string, device: CELDevice): boolean => {
    let c = compiled.get(expression);
    if (!c) {
      c = compiler.compileCELExpression(expression);
      compiled.set(expression, c);
    }
    if (c.error) return false;
    const r = c.deviceMatches(device);
    return r.error === null && r.matches;
  };

  const exclusive = new Map<string, string>();
  const consumed = new Map<string, Map<string, number>>();
  let claimCount = 0;
  let deviceCount = 0;
  for (const claim of state.resourceClaims) {
    const results = claim.status?.allocation?.devices?.results;
    if (!results) continue;
    claimCount++;
    const claimKey = `${claim.metadata?.namespace}/${claim.metadata?.name}`;
    const perRequest = new Map<string, number>();
    for (const r of results) {
      deviceCount++;
      const id = `${r.driver}/${r.pool}/${r.device}`;
      const found = devices.get(id);
      if (!found) {
        problem(`claim ${claimKey}: device ${id} is in no ResourceSlice`);
        continue;
      }
      perRequest.set(r.request, (perRequest.get(r.request) ?? 0) + 1);
      if (!r.adminAccess) {
        if (r.shareID !== undefined || found.device.allowMultipleAllocations) {
          const used = consumed.get(id) ?? new Map<string, number>();
          for (const [k, v] of Object.entries(r.consumedCapacity ?? {}))
            used.set(k, (used.get(k) ?? 0) + Quantity.parse(v).value());
          consumed.set(id, used);
          if (!found.device.allowMultipleAllocations)
            problem(
              `claim ${claimKey}: device ${id} shared (shareID) but does not allow multiple allocations`,
            );
          if (exclusive.has(id))
            problem(`device ${id} allocated to ${exclusive.get(id)} and shared by ${claimKey}`);
        } else {
          const other = exclusive.get(id);
          if (other !== undefined || consumed.has(id))
            problem(`device ${id} allocated twice: to ${other ?? "shared claims"} and ${claimKey}`);
          exclusive.set(id, claimKey);
        }
      }
      const request = requestOf(claim, r.request);
      if (!request) {
        problem(`claim ${claimKey}: result for unknown request ${r.request}`);
        continue;
      }
      const cls = classes.get(request.deviceClassName);
      if (!cls) {
        problem(`claim ${claimKey}: class ${request.deviceClassName} does not exist`);
        continue;
      }
      for (const taint of [
        ...(found.device.taints ?? []),
        ...ruleTaints(state.deviceTaintRules ?? [], found.slice, found.device),
      ])
        if (
          (taint.effect === "NoSchedule" || taint.effect === "NoExecute") &&
          !tolerated(taint, request.tolerations)
        )
          problem(
            `claim ${claimKey}: device ${id} has taint ${taint.key}=${taint.value ?? ""}:${taint.effect} its request does not tolerate`,
          );
      if (r.shareID !== undefined && found.device.allowMultipleAllocations)
        checkConsumedCapacity(claimKey, id, r, request, found.device, problem);
      const celDevice: CELDevice = {
        driver: r.driver,
        allowMultipleAllocations: found.device.allowMultipleAllocations ?? false,
        attributes: found.device.attributes ?? {},
        capacity: found.device.capacity ?? {},
      };
      const selectors = [...(cls.spec?.selectors ?? []), ...(request.selectors ?? [])];
      for (const s of selectors) {
        if (s.cel && !matches(s.cel.expression, celDevice))
          problem(
            `claim ${claimKey}: device ${id} does not match selector ${JSON.stringify(s.cel.expression)}`,
          );
      }
    }
    // Counts: an ExactCount request (the default) has exactly `count` devices.
    for (const req of claim.spec?.devices?.requests ?? []) {
      const exact = req.exactly;
      if (exact && (exact.allocationMode ?? "ExactCount") === "ExactCount") {
        const want = exact.count ?? 1;
        const got = perRequest.get(req.name) ?? 0;
        if (got !== want) problem(`claim ${claimKey}: request ${req.name} has ${got} devices, wants ${want}`);
      }
    }
    for (const req of claim.spec?.devices?.requests ?? [])
      if (req.firstAvailable?.length)
        checkFirstAvailable(claimKey, req.name, req.firstAvailable, results, problem);
    for (const c of claim.spec?.devices?.constraints ?? [])
      checkConstraint(claim, claimKey, c, devices, problem);
  }
  for (const [id, used] of consumed) {
    const cap = devices.get(id)?.device.capacity ?? {};
    for (const [k, v] of used) {
      const total = cap[k] ? Quantity.parse(cap[k].value).value() : 0;
      if (v > total) problem(`device ${id}: ${k} consumed ${v} of ${total}`);
    }
  }

  checkCounters(state, devices, problem);
  checkCompatibilityGroups(state, devices, problem);

  // Bound pods: their claims allocated, reserved for them, on their node.
  const claimByKey = new Map(
    state.resourceClaims.map((c) => [`${c.metadata?.namespace}/${c.metadata?.name}`, c] as const),
  );
  let podCount = 0;
  for (const pod of state.pods) {
    const node = pod.spec?.nodeName;
    if (!node || !pod.spec?.resourceClaims?.length) continue;
    podCount++;
    const ns = pod.metadata?.namespace ?? "";
    for (const pc of pod.spec.resourceClaims) {
      const name =
        pc.resourceClaimName ??
        pod.status?.resourceClaimStatuses?.find((s) => s.name === pc.name)?.resourceClaimName;
      const claim = name ? claimByKey.get(`${ns}/${name}`) : undefined;
      const podKey = `${ns}/${pod.metadata?.name}`;
      if (!claim?.status?.allocation) {
        problem(`pod ${podKey} on ${node}: claim ${name ?? pc.name} not allocated`);
        continue;
      }
      if (!claim.status.reservedFor?.some((r) => r.resource === "pods" && r.uid === pod.metadata?.uid))
        problem(`pod ${podKey}: claim ${name} not reserved for it`);
      for (const r of claim.status.allocation.devices?.results ?? []) {
        const slice = devices.get(`${r.driver}/${r.pool}/${r.device}`)?.slice;
        if (slice?.spec.nodeName !== undefined && slice.spec.nodeName !== node)
          problem(
            `pod ${podKey} on ${node}: claim ${name} has device ${r.device} of node ${slice.spec.nodeName}`,
          );
      }
    }
  }
  return { claims: claimCount, devices: deviceCount, pods: podCount, problems, problemCount };
}

/**
 * An attribute's values, a scalar as a list of one (DRAListTypeAttributes, experimental/constraint.go:
 * `string` "x" and `strings` ["x"] share "x").
 */
function attributeValues(attr: DeviceAttribute): string[] {
  if (attr.strings) return attr.strings.map((v) => `string:${v}`);
  if (attr.ints) return attr.ints.map((v) => `int:${v}`);
  if (attr.bools) return attr.bools.map((v) => `bool:${v}`);
  if (attr.versions) return attr.versions.map((v) => `version:${v}`);
  if (attr.string !== undefined) return [`string:${attr.string}`];
  if (attr.int !== undefined) return [`int:${attr.int}`];
  if (attr.bool !== undefined) return [`bool:${attr.bool}`];
  if (attr.version !== undefined) return [`version:${attr.version}`];
  return [];
}

/**
 * matchAttribute: the constrained results' values intersect (scalars: all equal); distinctAttribute:
 * pairwise disjoint (scalars: all differ). A list attribute counts as its values (DRAListTypeAttributes).
 */
function checkConstraint(
  claim: ResourceClaim,
  claimKey: string,
  c: DeviceConstraint,
  devices: ReadonlyMap<string, { slice: ResourceSlice; device: SliceDevice }>,
  problem: (line: string) => void,
): void {
  const name = c.matchAttribute ?? c.distinctAttribute;
  if (!name) return;
  const scoped = c.requests?.length ? new Set(c.requests) : null;
  const values: (string[] | null)[] = [];
  const shownValues: string[] = [];
  for (const r of claim.status?.allocation?.devices?.results ?? []) {
    const parent = r.request.split("/")[0] ?? "";
    if (scoped && !scoped.has(r.request) && !scoped.has(parent)) continue;
    const found = devices.get(`${r.driver}/${r.pool}/${r.device}`);
    const attr = found ? attribute(found.device, r.driver, name) : undefined;
    values.push(attr === undefined ? null : attributeValues(attr));
    shownValues.push(attr === undefined ? "<missing>" : JSON.stringify(attr));
  }
  const shown = () => shownValues.join(", ");
  if (c.matchAttribute) {
    let common: Set<string> | null = null;
    for (const v of values) {
      if (v === null) {
        common = new Set();
        break;
      }
      common = common === null ? new Set(v) : new Set(v.filter((x) => (common as Set<string>).has(x)));
    }
    if (common !== null && common.size === 0)
      problem(`claim ${claimKey}: matchAttribute ${name} not matched (${shown()})`);
  }
  if (c.distinctAttribute) {
    const seen = new Set<string>();
    let overlap = false;
    for (const v of values)
      for (const x of new Set(v ?? [])) {
        if (seen.has(x)) overlap = true;
        seen.add(x);
      }
    if (overlap) problem(`claim ${claimKey}: distinctAttribute ${name} not distinct (${shown()})`);
  }
}

/** Production's DeviceClassResolver over a fixed list of classes. */
function classResolver(deviceClasses: readonly DeviceClass[]): DeviceClassResolver {
  return new DeviceClassResolver({
    list: () => deviceClasses,
    get: (name) => deviceClasses.find((c) => c.metadata?.name === name),
  });
}

/**
 * Whether a DeviceClass backs the extended resource (DRAExtendedResource, production's
 * DeviceClassResolver): on a node without allocatable for it, DynamicResources serves the request.
 */
export function draBackedResources(deviceClasses: readonly DeviceClass[]): (resource: string) => boolean {
  const resolver = classResolver(deviceClasses);
  return (resource) => isDRAExtendedResourceName(resource) && resolver.getDeviceClass(resource) !== undefined;
}

export interface ExtendedResourceCheck {
  /** Bound pods with extended resources a DeviceClass backs. */
  pods: number;
  /** Devices their claims hold. */
  devices: number;
  problems: string[];
  problemCount: number;
}

/**
 * DRAExtendedResource's decisions: each bound pod requesting an extended resource that a
 * DeviceClass backs (production's DeviceClassResolver) on a node without allocatable for it has
 * `status.extendedResourceClaimStatus` naming its claim `<pod>-extended-resources-*`, allocated and
 * reserved for it; each such container request is mapped to a claim request of the backing class
 * for as many devices as units requested, allocated that many devices, all on the pod's node. (That
 * no device is used twice and each matches its class is checkDRAAllocations'.)
 */
export function checkExtendedResourceClaims(state: DRAState, nodes: readonly Node[]): ExtendedResourceCheck {
  const problems: string[] = [];
  let problemCount = 0;
  const problem = (line: string) => {
    problemCount++;
    if (problems.length < 5) problems.push(line);
  };
  const resolver = classResolver(state.deviceClasses);
  const nodeByName = new Map(nodes.map((n) => [n.metadata?.name ?? "", n] as const));
  const claimByKey = new Map(
    state.resourceClaims.map((c) => [`${c.metadata?.namespace}/${c.metadata?.name}`, c] as const),
  );
  const sliceNode = new Map<string, string | undefined>();
  for (const slice of state.resourceSlices)
    for (const device of slice.spec.devices ?? [])
      sliceNode.set(`${slice.spec.driver}/${slice.spec.pool.name}/${device.name}`, slice.spec.nodeName);
  let podCount = 0;
  let deviceCount = 0;
  for (const pod of state.pods) {
    const nodeName = pod.spec?.nodeName;
    if (!nodeName) continue;
    const allocatable = nodeByName.get(nodeName)?.status?.allocatable ?? {};
    const wanted: { container: string; resource: string; className: string; count: number }[] = [];
    for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
      for (const [resource, q] of Object.entries(c.resources?.requests ?? {})) {
        if (!isDRAExtendedResourceName(resource)) continue;
        const cls = resolver.getDeviceClass(resource);
        if (
          !cls ||
          (allocatable[resource] !== undefined && Quantity.parse(allocatable[resource]).value() > 0)
        )
          continue;
        const count = Quantity.parse(q).value();
        if (count > 0)
          wanted.push({ container: c.name, resource, className: cls.metadata?.name ?? "", count });
      }
    }
    if (wanted.length === 0) continue;
    podCount++;
    const ns = pod.metadata?.namespace ?? "";
    const podKey = `${ns}/${pod.metadata?.name}`;
    const status = pod.status?.extendedResourceClaimStatus;
    if (!status) {
      problem(`pod ${podKey} on ${nodeName}: no extendedResourceClaimStatus`);
      continue;
    }
    const claim = claimByKey.get(`${ns}/${status.resourceClaimName}`);
    if (!status.resourceClaimName.startsWith(`${pod.metadata?.name}-extended-resources-`))
      problem(`pod ${podKey}: special claim named ${status.resourceClaimName}`);
    if (!claim?.status?.allocation) {
      problem(`pod ${podKey} on ${nodeName}: claim ${status.resourceClaimName} not allocated`);
      continue;
    }
    if (!claim.status.reservedFor?.some((r) => r.resource === "pods" && r.uid === pod.metadata?.uid))
      problem(`pod ${podKey}: claim ${status.resourceClaimName} not reserved for it`);
    if (status.requestMappings.length !== wanted.length)
      problem(
        `pod ${podKey}: ${status.requestMappings.length} request mappings for ${wanted.length} requests`,
      );
    const results = claim.status.allocation.devices?.results ?? [];
    for (const w of wanted) {
      const mapping = status.requestMappings.find(
        (m) => m.containerName === w.container && m.resourceName === w.resource,
      );
      if (!mapping) {
        problem(`pod ${podKey}: no request mapping for ${w.container} ${w.resource}`);
        continue;
      }
      const request = claim.spec?.devices?.requests?.find((r) => r.name === mapping.requestName)?.exactly;
      if (request?.deviceClassName !== w.className || (request.count ?? 1) !== w.count)
        problem(
          `pod ${podKey}: request ${mapping.requestName} asks ${request?.count ?? 1} of ${request?.deviceClassName}, wants ${w.count} of ${w.className}`,
        );
      const got = results.filter((r) => r.request === mapping.requestName);
      if (got.length !== w.count)
        problem(`pod ${podKey}: ${got.length} devices for ${w.resource}, requested ${w.count}`);
      for (const r of got) {
        deviceCount++;
        const on = sliceNode.get(`${r.driver}/${r.pool}/${r.device}`);
        if (on !== nodeName)
          problem(`pod ${podKey} on ${nodeName}: device ${r.device} of node ${on ?? "none"}`);
      }
    }
  }
  return { pods: podCount, devices: deviceCount, problems, problemCount };
}

/**
 * firstAvailable: every result of the request names `<request>/<subrequest>`, all the same
 * subrequest, and an ExactCount subrequest has its count (class and selectors are checked per
 * result against that subrequest).
 */
function checkFirstAvailable(
  claimKey: string,
  request: string,
  subrequests: readonly DeviceSubRequest[],
  results: readonly { request: string }[],
  problem: (line: string) => void,
): void {
  const chosen = new Map<string, number>();
  for (const r of results) {
    if (r.request === request) {
      problem(`claim ${claimKey}: result for firstAvailable request ${request} names no subrequest`);
      continue;
    }
    if (!r.request.startsWith(`${request}/`)) continue;
    const sub = r.request.slice(request.length + 1);
    chosen.set(sub, (chosen.get(sub) ?? 0) + 1);
  }
  if (chosen.size === 0) {
    problem(`claim ${claimKey}: firstAvailable request ${request} has no devices`);
    return;
  }
  if (chosen.size > 1)
    problem(`claim ${claimKey}: request ${request} mixes subrequests ${[...chosen.keys()].join(", ")}`);
  for (const [name, got] of chosen) {
    const sub = subrequests.find((s) => s.name === name);
    if (!sub || (sub.allocationMode ?? "ExactCount") !== "ExactCount") continue;
    const want = sub.count ?? 1;
    if (got !== want)
      problem(`claim ${claimKey}: subrequest ${request}/${name} has ${got} devices, wants ${want}`);
  }
}

/**
 * Partitionable devices: over every allocated device (each once, admin access aside), the counters
 * they consume from a counter set stay within what the pool's slices publish in `sharedCounters`.
 */
function checkCounters(
  state: DRAState,
  devices: ReadonlyMap<string, { slice: ResourceSlice; device: SliceDevice }>,
  problem: (line: string) => void,
): void {
  const available = new Map<string, number>();
  for (const slice of state.resourceSlices)
    for (const set of slice.spec.sharedCounters ?? [])
      for (const [name, c] of Object.entries(set.counters))
        available.set(
          `${slice.spec.driver}/${slice.spec.pool.name}/${set.name}/${name}`,
          Quantity.parse(c.value).value(),
        );
  const allocated = new Set<string>();
  for (const claim of state.resourceClaims)
    for (const r of claim.status?.allocation?.devices?.results ?? [])
      if (!r.adminAccess) allocated.add(`${r.driver}/${r.pool}/${r.device}`);
  const consumed = new Map<string, number>();
  for (const id of allocated) {
    const found = devices.get(id);
    if (!found) continue;
    const { driver, pool } = found.slice.spec;
    for (const cc of found.device.consumesCounters ?? [])
      for (const [name, c] of Object.entries(cc.counters)) {
        const key = `${driver}/${pool.name}/${cc.counterSet}/${name}`;
        consumed.set(key, (consumed.get(key) ?? 0) + Quantity.parse(c.value).value());
      }
  }
  for (const [key, used] of consumed) {
    const total = available.get(key);
    if (total === undefined) problem(`counter ${key}: consumed ${used}, no counter set publishes it`);
    else if (used > total) problem(`counter ${key}: consumed ${used} of ${total}`);
  }
}

/**
 * Compatibility groups (DRADeviceCompatibilityGroups): the allocated devices drawing from one
 * counter set either all declare no groups there, or all declare groups with at least one group
 * common to every one of them.
 */
function checkCompatibilityGroups(
  state: DRAState,
  devices: ReadonlyMap<string, { slice: ResourceSlice; device: SliceDevice }>,
  problem: (line: string) => void,
): void {
  const bySet = new Map<string, { device: string; groups: readonly string[] }[]>();
  const seen = new Set<string>();
  for (const claim of state.resourceClaims)
    for (const r of claim.status?.allocation?.devices?.results ?? []) {
      const id = `${r.driver}/${r.pool}/${r.device}`;
      if (r.adminAccess || seen.has(id)) continue;
      seen.add(id);
      const found = devices.get(id);
      if (!found) continue;
      for (const cc of found.device.consumesCounters ?? []) {
        const key = `${found.slice.spec.driver}/${found.slice.spec.pool.name}/${cc.counterSet}`;
        let members = bySet.get(key);
        if (!members) {
          members = [];
          bySet.set(key, members);
        }
        members.push({ device: id, groups: cc.compatibilityGroups ?? [] });
      }
    }
  for (const [key, members] of bySet) {
    const grouped = members.filter((m) => m.groups.length > 0);
    if (grouped.length === 0) continue;
    if (grouped.length < members.length) {
      problem(`counter set ${key}: devices with and without compatibility groups allocated together`);
      continue;
    }
    const common = grouped
      .slice(1)
      .reduce((acc, m) => acc.filter((g) => m.groups.includes(g)), [...grouped[0]!.groups]);
    if (common.length === 0)
      problem(`counter set ${key}: ${members.map((m) => m.device).join(", ")} share no compatibility group`);
  }
}

/** What a share consumes of one capacity: the request (or the policy's default, else all of it), rounded up by the policy. */
function expectedShare(requested: string | undefined, cap: DeviceCapacityOf): number {
  const policy = cap.requestPolicy;
  const total = Quantity.parse(cap.value).value();
  if (requested === undefined)
    return policy?.default !== undefined ? Quantity.parse(policy.default).value() : total;
  const want = Quantity.parse(requested).value();
  const range = policy?.validRange;
  if (range?.min !== undefined) {
    const min = Quantity.parse(range.min).value();
    if (want <= min) return min;
    if (range.step === undefined) return want;
    const step = Quantity.parse(range.step).value();
    return min + Math.ceil((want - min) / step) * step;
  }
  if (policy?.validValues) {
    const up = policy.validValues.map((v) => Quantity.parse(v).value()).find((v) => want <= v);
    return up ?? want;
  }
  return want;
}

type DeviceCapacityOf = NonNullable<SliceDevice["capacity"]>[string];

/**
 * Consumable capacity: a share records, for each of the device's capacities, what the request
 * asked for rounded up by the requestPolicy (its default when it asked for none), and that value
 * is one the policy allows (at most validRange.max, on a step from min, one of validValues).
 */
function checkConsumedCapacity(
  claimKey: string,
  id: string,
  result: { request: string; consumedCapacity?: { [name: string]: string } },
  request: ExactDeviceRequest | DeviceSubRequest,
  device: SliceDevice,
  problem: (line: string) => void,
): void {
  const asked = request.capacity?.requests ?? {};
  for (const [name, cap] of Object.entries(device.capacity ?? {})) {
    const requested = asked[name] ?? Object.entries(asked).find(([k]) => k.endsWith(`/${name}`))?.[1];
    const got = result.consumedCapacity?.[name];
    const want = expectedShare(requested, cap);
    if (got === undefined || Quantity.parse(got).value() !== want) {
      problem(
        `claim ${claimKey}: device ${id} share of ${name} is ${got ?? "missing"}, the request and policy give ${want}`,
      );
      continue;
    }
    const policy = cap.requestPolicy;
    const value = Quantity.parse(got).value();
    const isDefault = policy?.default !== undefined && Quantity.parse(policy.default).value() === value;
    const range = policy?.validRange;
    const min = range?.min !== undefined ? Quantity.parse(range.min).value() : 0;
    const outside =
      !isDefault &&
      ((range?.max !== undefined && value > Quantity.parse(range.max).value()) ||
        (range?.step !== undefined && (value - min) % Quantity.parse(range.step).value() !== 0) ||
        (range === undefined &&
          (policy?.validValues?.length ?? 0) > 0 &&
          !policy?.validValues?.some((v) => Quantity.parse(v).value() === value)));
    if (outside)
      problem(`claim ${claimKey}: device ${id} share of ${name} ${got} is outside its requestPolicy`);
  }
}

/** A device toleration matching a taint (upstream's DeviceToleration.ToleratesTaint; the operator defaults to Equal). */
function tolerated(taint: DeviceTaint, tolerations: readonly DeviceToleration[] | undefined): boolean {
  return (tolerations ?? []).some((t) => {
    if (t.effect && t.effect !== taint.effect) return false;
    if (t.key && t.key !== taint.key) return false;
    if (t.operator === "Exists") return true;
    return (t.value ?? "") === (taint.value ?? "");
  });
}
