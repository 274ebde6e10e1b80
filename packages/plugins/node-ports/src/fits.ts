// upstream: pkg/scheduler/framework/plugins/nodeports/node_ports.go (Fits, fitsPorts)
import { type ContainerPort, getContainerPorts, type HostPortInfo, type Pod } from "@kubesched/api";
import type { FilterDetail, NodeInfo } from "@kubesched/framework";

/** Whether none of `wantPorts` conflicts with `portsInUse`. */
export function fitsPorts(wantPorts: readonly ContainerPort[], portsInUse: HostPortInfo): boolean {
  for (let i = 0; i < wantPorts.length; i++) {
    const cp = wantPorts[i]!;
    if (portsInUse.checkConflict(cp.hostIP, cp.protocol, cp.hostPort)) return false;
  }
  return true;
}

/** Whether the pod's host ports are free on the node (upstream Fits). */
export function fits(pod: Pod, nodeInfo: NodeInfo): boolean {
  return fitsPorts(getContainerPorts(pod), nodeInfo.usedPorts);
}

/** The wanted host ports that conflict with `portsInUse`, for the diagnostic pass. */
export function conflictingPorts(
  wantPorts: readonly ContainerPort[],
  portsInUse: HostPortInfo,
): FilterDetail[] {
  const out: FilterDetail[] = [];
  for (const cp of wantPorts) {
    if (!portsInUse.checkConflict(cp.hostIP, cp.protocol, cp.hostPort)) continue;
    out.push({
      kind: "HostPortConflict",
      protocol: cp.protocol || "TCP",
      hostIP: cp.hostIP || "0.0.0.0",
      hostPort: cp.hostPort ?? 0,
    });
  }
  return out;
}
