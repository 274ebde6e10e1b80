// DRADeviceCompatibilityGroups (1.37 alpha): devices drawing from
// one counter set may be allocated together only while the compatibility groups they declare
// there intersect. upstream:
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/experimental/compatibility_groups.go
// (read at kubernetes/kubernetes 4426859839df: the groups of already-allocated devices read live
// from the slices) and compatibility_groups_test.go (65b832c30cc6).

/**
 * The rolling intersection of the compatibility groups declared on one counter set by every
 * device placed on it so far: allocated devices and devices of the current attempt (upstream
 * compatibilityGroupIntersection). A device declaring no groups only goes with devices that
 * declare none either, which a plain set intersection cannot express: `allEmpty` tracks that
 * state. Values are never changed in place, so a kept value is a snapshot for backtracking.
 */
export interface CompatibilityGroupIntersection {
  /** False until the first device is placed on the counter set; then any device is admitted. */
  readonly hasMembers: boolean;
  /** Every device placed so far declared no groups (only meaningful with members). */
  readonly allEmpty: boolean;
  /** The intersection of the devices' (non-empty) group lists (with members, not allEmpty). */
  readonly groups: ReadonlySet<string> | undefined;
}

/** The state of a counter set no device uses yet. */
export const noCompatibilityGroupMembers: CompatibilityGroupIntersection = Object.freeze({
  hasMembers: false,
  allEmpty: false,
  groups: undefined,
});

/** A device's declared groups as a set; none (absent or empty) gives `undefined` (upstream compatibilityGroupSet). */
export function compatibilityGroupSet(
  groups: readonly string[] | undefined,
): ReadonlySet<string> | undefined {
  return groups === undefined || groups.length === 0 ? undefined : new Set(groups);
}

/** Whether a device declaring `groups` may join the counter set's devices (upstream admits). */
export function admitsCompatibilityGroups(
  i: CompatibilityGroupIntersection,
  groups: ReadonlySet<string> | undefined,
): boolean {
  if (!i.hasMembers) return true;
  // A device with no groups only co-allocates with other no-group devices.
  if (groups === undefined || groups.size === 0) return i.allEmpty;
  // Existing members declared no groups; a grouped device is incompatible.
  if (i.allEmpty) return false;
  for (const group of groups) if (i.groups?.has(group)) return true;
  return false;
}

/** The intersection with a device's groups folded in, a new value (upstream add). */
export function addCompatibilityGroups(
  i: CompatibilityGroupIntersection,
  groups: ReadonlySet<string> | undefined,
): CompatibilityGroupIntersection {
  const none = groups === undefined || groups.size === 0;
  if (!i.hasMembers) {
    return none
      ? { hasMembers: true, allEmpty: true, groups: undefined }
      : { hasMembers: true, allEmpty: false, groups: new Set(groups) };
  }
  // Either side declared no groups: admits() guaranteed the other matched, nothing changes.
  if (i.allEmpty || none) return i;
  const narrowed = new Set<string>();
  for (const group of groups) if (i.groups?.has(group)) narrowed.add(group);
  return { hasMembers: true, allEmpty: false, groups: narrowed };
}
