// upstream: pkg/scheduler/framework/plugins/nodeports/node_ports.go (Fits, fitsPorts)
import { type ContainerPort, getContainerPorts, type HostPortInfo, type Pod } from "@kubesched/api";
import type { NodeInfo } from "@kubesched/framework";

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
