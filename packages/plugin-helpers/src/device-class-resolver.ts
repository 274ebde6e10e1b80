// upstream: staging/src/k8s.io/dynamic-resource-allocation/deviceclass/extendedresourcecache
// (ExtendedResourceCache: GetDeviceClass, betterDeviceClass) and pkg/scheduler/util
// (IsDRAExtendedResourceName), as DynamicResources and NodeResourcesFit read them through the
// DRA manager's DeviceClassResolver (DRAExtendedResource).
import { type DeviceClass, isExtendedResourceName, ResourceDeviceClassPrefix } from "@kubesched/api";
import type {
  ClusterScopedLister,
  DeviceClassResolver as DeviceClassResolverInterface,
} from "@kubesched/framework";

/**
 * upstream schedutil.IsDRAExtendedResourceName: an extended resource name, or the implicit
 * `deviceclass.resource.kubernetes.io/<class>` name every DeviceClass answers to.
 */
export function isDRAExtendedResourceName(name: string): boolean {
  return isExtendedResourceName(name) || name.startsWith(ResourceDeviceClassPrefix);
}

function creationMs(c: DeviceClass): number {
  const t = Date.parse(c.metadata?.creationTimestamp ?? "");
  return Number.isNaN(t) ? 0 : t;
}

/** upstream betterDeviceClass: the newer class wins, the alphabetically lower name on a tie. */
function betterDeviceClass(a: DeviceClass, b: DeviceClass | undefined): boolean {
  if (!b) return true;
  const d = creationMs(a) - creationMs(b);
  if (d !== 0) return d > 0;
  return (a.metadata?.name ?? "") < (b.metadata?.name ?? "");
}

/**
 * Which DeviceClass backs an extended resource name (upstream fwk.DeviceClassResolver): a class's
 * `spec.extendedResourceName` (several classes naming the same resource: the newest, then the
 * lowest name) and the implicit `deviceclass.resource.kubernetes.io/<class name>` of every class.
 * Reads the DeviceClass lister; the mapping is rebuilt only when the classes changed.
 */
export class DeviceClassResolver implements DeviceClassResolverInterface {
  private seen: readonly DeviceClass[] = [];
  private byName = new Map<string, DeviceClass>();

  constructor(private readonly classes: ClusterScopedLister<DeviceClass>) {}

  /** The class backing `resourceName`, or undefined (upstream GetDeviceClass returns nil). */
  getDeviceClass(resourceName: string): DeviceClass | undefined {
    this.refresh();
    return this.byName.get(resourceName);
  }

  /** Whether some DeviceClass exists (the cheap test before a pod's requests are read). */
  hasClasses(): boolean {
    this.refresh();
    return this.seen.length > 0;
  }

  private refresh(): void {
    const list = this.classes.list();
    if (list.length === this.seen.length && list.every((c, i) => c === this.seen[i])) return;
    const byName = new Map<string, DeviceClass>();
    for (const c of list) {
      const explicit = c.spec?.extendedResourceName;
      if (explicit && betterDeviceClass(c, byName.get(explicit))) byName.set(explicit, c);
    }
    // The implicit name is unique to its class (validation keeps it out of extendedResourceName).
    for (const c of list) byName.set(ResourceDeviceClassPrefix + (c.metadata?.name ?? ""), c);
    this.seen = [...list];
    this.byName = byName;
  }
}
