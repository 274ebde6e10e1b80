// upstream: pkg/scheduler/framework/plugins/nodeports/node_ports.go
// (EventsToRegister, isSchedulableAfterPodDeleted)
import { getContainerPorts, HostPortInfo, type Pod } from "@kubesched/api";
import {
  ActionType,
  type ClusterEventWithHint,
  EventResource,
  QueueingHint,
  type QueueingHintFn,
} from "@kubesched/framework";
import { fitsPorts } from "./fits";

/**
 * Queue when the deleted pod was assigned (or nominated) and used a host port that conflicts
 * with one the rejected pod asks for.
 */
export const isSchedulableAfterPodDeleted: QueueingHintFn = (pod, oldObj) => {
  if (oldObj === undefined || oldObj === null || typeof oldObj !== "object" || Array.isArray(oldObj)) {
    throw new TypeError(`expected *v1.Pod, but got ${Array.isArray(oldObj) ? "array" : typeof oldObj}`);
  }
  const deletedPod = oldObj as Pod;
  // An unscheduled pod held no ports.
  if (!deletedPod.spec?.nodeName && !deletedPod.status?.nominatedNodeName) return QueueingHint.QueueSkip;
  const ports = getContainerPorts(deletedPod);
  if (ports.length === 0) return QueueingHint.QueueSkip;
  const portsInUse = new HostPortInfo();
  for (const p of ports) portsInUse.add(p.hostIP, p.protocol, p.hostPort);
  return fitsPorts(getContainerPorts(pod), portsInUse) ? QueueingHint.QueueSkip : QueueingHint.Queue;
};

export function eventsToRegister(enableSchedulingQueueHint: boolean): ClusterEventWithHint[] {
  // Without QueueingHints, preCheck may drop Node/Add, so taint and label updates are registered too (#109437).
  const nodeActionType = enableSchedulingQueueHint
    ? ActionType.Add
    : ActionType.Add | ActionType.UpdateNodeTaint | ActionType.UpdateNodeLabel;
  return [
    // Container ports are immutable: pod updates never free a port.
    {
      event: { resource: EventResource.Pod, actionType: ActionType.Delete },
      queueingHintFn: isSchedulableAfterPodDeleted,
    },
    // No hint: a new node is always worth a retry (with backoff).
    { event: { resource: EventResource.Node, actionType: nodeActionType } },
  ];
}
