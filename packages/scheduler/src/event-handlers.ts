// upstream: pkg/scheduler/eventhandlers.go — informer events into the cache and the queue.
import {
  type DeviceTaintRule,
  type Node,
  type Pod,
  podIsTerminal,
  podKey,
  podPriority,
  podUID,
} from "@kubesched/api";
import { slicesRetainted } from "@kubesched/dynamic-resource-allocation/structured";
import { ActionType, type ClusterEvent, customResourceEventName, EventResource } from "@kubesched/framework";
import {
  EventAssignedPodAdd,
  EventAssignedPodDelete,
  nodeSchedulingPropertiesChange,
  podSchedulingPropertiesChange,
} from "@kubesched/queue";
import type { OtherResourceKind } from "./cluster-source";
import type { SchedulerState } from "./scheduler-state";

const nodeAdd: ClusterEvent = { resource: EventResource.Node, actionType: ActionType.Add };
const nodeDelete: ClusterEvent = { resource: EventResource.Node, actionType: ActionType.Delete };

const otherResource: Record<OtherResourceKind, string> = {
  PersistentVolume: EventResource.PersistentVolume,
  PersistentVolumeClaim: EventResource.PersistentVolumeClaim,
  StorageClass: EventResource.StorageClass,
  CSINode: EventResource.CSINode,
  CSIDriver: EventResource.CSIDriver,
  CSIStorageCapacity: EventResource.CSIStorageCapacity,
  Namespace: "Namespace",
  Service: "Service",
  ReplicaSet: "ReplicaSet",
  StatefulSet: "StatefulSet",
  ReplicationController: "ReplicationController",
  PodDisruptionBudget: "PodDisruptionBudget",
  PriorityClass: "PriorityClass",
  ResourceClaim: EventResource.ResourceClaim,
  ResourceClaimTemplate: "resource.k8s.io/ResourceClaimTemplate",
  ResourceSlice: EventResource.ResourceSlice,
  DeviceClass: EventResource.DeviceClass,
  // Reaches plugins as the update of the slices it taints (below).
  DeviceTaintRule: EventResource.ResourceSlice,
};

/** Bound and not terminal: the pod occupies its node (the assigned-pod informer's filter). */
function assignedPod(pod: Pod): boolean {
  return !!pod.spec?.nodeName && !podIsTerminal(pod);
}

function lePriorityPreCheck(priority: number): (p: Pod) => boolean {
  return (p) => podPriority(p) <= priority;
}

/**
 * The pod as the cache accounts it: with DRANodeAllocatableResources off, without the node
 * allocatable resources of its DRA claims (upstream PodInfo.CalculateResource reads them only
 * with the gate on; a pod carries them from a scheduler that had it on).
 */
function forCache(pod: Pod, draNodeAllocatable: boolean): Pod {
  if (draNodeAllocatable || pod.status?.nodeAllocatableResourceClaimStatuses === undefined) return pod;
  const { nodeAllocatableResourceClaimStatuses: _ignored, ...status } = pod.status;
  return { ...pod, status };
}

export function addAllEventHandlers(sched: SchedulerState): void {
  const { cache, queue, logger } = sched;
  const responsible = (pod: Pod) => sched.responsibleForPod(pod);
  const draNodeAllocatable = sched.draNodeAllocatableResources;

  // Assigned pods → cache. The V(3)/V(4) lines are upstream's: with the binding lines of
  // schedule-one.ts they are what the scheduler saw of a pod.
  const addPodToCache = (pod: Pod) => {
    if (logger.v(3)) logger.debug(3, "Add event for scheduled pod", { pod: podKey(pod) });
    try {
      cache.addPod(forCache(pod, draNodeAllocatable));
    } catch (err) {
      logger.error("Scheduler cache AddPod failed", { err, pod: podKey(pod) });
      return;
    }
    // upstream addAssignedPodToCache: with queueing hints, every plugin's hints decide (the
    // queue's pre-filter only knows the in-tree cross-topology plugins).
    if (sched.queueingHints) queue.moveAllToActiveOrBackoffQueue(EventAssignedPodAdd, undefined, pod);
    else queue.assignedPodAdded(pod);
  };
  const updatePodInCache = (oldPod: Pod, newPod: Pod) => {
    if (logger.v(4)) logger.debug(4, "Update event for scheduled pod", { pod: podKey(oldPod) });
    try {
      cache.updatePod(forCache(oldPod, draNodeAllocatable), forCache(newPod, draNodeAllocatable));
    } catch (err) {
      logger.error("Scheduler cache UpdatePod failed", { err, pod: podKey(newPod) });
      return;
    }
    // upstream updateAssignedPodInCache: as for additions, the hints of every plugin decide.
    for (const evt of podSchedulingPropertiesChange(newPod, oldPod)) {
      if (sched.queueingHints) queue.moveAllToActiveOrBackoffQueue(evt, oldPod, newPod);
      else queue.assignedPodUpdated(oldPod, newPod, evt);
    }
  };
  const deletePodFromCache = (pod: Pod) => {
    if (logger.v(3)) logger.debug(3, "Delete event for scheduled pod", { pod: podKey(pod) });
    try {
      cache.removePod(pod);
    } catch (err) {
      logger.error("Scheduler cache RemovePod failed", { err, pod: podKey(pod) });
    }
    queue.moveAllToActiveOrBackoffQueue(EventAssignedPodDelete, pod, undefined);
  };

  // Unassigned pods of our profiles → queue.
  const addPodToQueue = (pod: Pod) => {
    if (logger.v(3)) logger.debug(3, "Add event for unscheduled pod", { pod: podKey(pod) });
    queue.add(pod);
  };
  const updatePodInQueue = (oldPod: Pod, newPod: Pod) => {
    const oldRV = oldPod.metadata?.resourceVersion;
    if (oldRV !== undefined && oldRV === newPod.metadata?.resourceVersion) return;
    if (cache.isAssumedPod(newPod)) return;
    if (logger.v(4)) logger.debug(4, "Update event for unscheduled pod", { pod: podKey(newPod) });
    queue.update(oldPod, newPod);
    if ((oldPod.status?.nominatedNodeName ?? "") !== (newPod.status?.nominatedNodeName ?? "")) {
      queue.moveAllToActiveOrBackoffQueue(
        EventAssignedPodDelete,
        oldPod,
        undefined,
        lePriorityPreCheck(podPriority(oldPod)),
      );
    }
  };
  const deletePodFromQueue = (pod: Pod) => {
    if (logger.v(3)) logger.debug(3, "Delete event for unscheduled pod", { pod: podKey(pod) });
    queue.delete(pod);
    const fwk = sched.frameworkForPod(pod);
    if (fwk?.rejectWaitingPod(podUID(pod))) {
      queue.moveAllToActiveOrBackoffQueue(EventAssignedPodDelete, pod, undefined);
    } else if (pod.status?.nominatedNodeName) {
      queue.moveAllToActiveOrBackoffQueue(
        EventAssignedPodDelete,
        pod,
        undefined,
        lePriorityPreCheck(podPriority(pod)),
      );
    }
  };

  sched.source.subscribe({
    onNodeAdd(node: Node) {
      cache.addNode(node);
      queue.moveAllToActiveOrBackoffQueue(nodeAdd, undefined, node);
    },
    onNodeUpdate(oldNode: Node, newNode: Node) {
      cache.updateNode(oldNode, newNode);
      for (const evt of nodeSchedulingPropertiesChange(newNode, oldNode)) {
        queue.moveAllToActiveOrBackoffQueue(evt, oldNode, newNode);
      }
    },
    onNodeDelete(node: Node) {
      try {
        cache.removeNode(node);
      } catch (err) {
        logger.error("Scheduler cache RemoveNode failed", { err, node: node.metadata?.name ?? "" });
      }
      queue.moveAllToActiveOrBackoffQueue(nodeDelete, node, undefined);
    },
    onPodAdd(pod: Pod) {
      if (assignedPod(pod)) addPodToCache(pod);
      else if (!pod.spec?.nodeName && responsible(pod)) addPodToQueue(pod);
    },
    onPodUpdate(oldPod: Pod, newPod: Pod) {
      // The assigned-pod informer's view (FilteringResourceEventHandler semantics).
      const oldA = assignedPod(oldPod);
      const newA = assignedPod(newPod);
      if (oldA && newA) updatePodInCache(oldPod, newPod);
      else if (oldA && !newA) deletePodFromCache(oldPod);
      // The unscheduled-pod informer's view.
      const oldU = !oldPod.spec?.nodeName && responsible(oldPod);
      const newU = !newPod.spec?.nodeName && responsible(newPod);
      if (oldU && newU) updatePodInQueue(oldPod, newPod);
      else if (oldU && !newU) deletePodFromQueue(oldPod);
      else if (!oldU && newU) addPodToQueue(newPod);
      if (!oldA && newA) addPodToCache(newPod);
    },
    onPodDelete(pod: Pod) {
      // The final state of a pod that turned terminal (it left the informer's field selector) is
      // terminal: it is still in the cache and must leave it (upstream assignedPod is nodeName).
      if (assignedPod(pod) || (pod.spec?.nodeName && cache.getPod(pod))) deletePodFromCache(pod);
      else if (!pod.spec?.nodeName && responsible(pod)) deletePodFromQueue(pod);
    },
    onOtherEvent(kind, action, oldObj, newObj) {
      if (kind === "DeviceTaintRule") {
        // upstream: the DRA manager's ResourceSlice tracker (dynamic-resource-allocation/resourceslice/
        // tracker) turns a DeviceTaintRule's add/update/delete into updates of the slices whose
        // devices' taints it changes (old and new patched slice); plugins register ResourceSlice
        // events, never DeviceTaintRule ones. A change that retaints no device requeues nothing.
        const listers = sched.source.listers();
        const rules = listers.deviceTaintRules;
        if (!rules) return;
        const oldRule = oldObj as DeviceTaintRule | undefined;
        const newRule = newObj as DeviceTaintRule | undefined;
        const name = (newRule ?? oldRule)?.metadata?.name;
        // The informer's store holds the rules after the event; before it, the old rule in place.
        const after = rules.list();
        const others = after.filter((r) => r.metadata?.name !== name);
        const before = oldRule
          ? newRule
            ? after.map((r) => (r.metadata?.name === name ? oldRule : r))
            : [...after, oldRule]
          : others;
        for (const { oldSlice, newSlice } of slicesRetainted(listers.resourceSlices.list(), before, after, {
          old: oldRule,
          new: newRule,
        })) {
          queue.moveAllToActiveOrBackoffQueue(
            { resource: EventResource.ResourceSlice, actionType: ActionType.Update },
            oldSlice,
            newSlice,
          );
        }
        return;
      }
      const actionType = actionTypeOf(action);
      queue.moveAllToActiveOrBackoffQueue({ resource: otherResource[kind], actionType }, oldObj, newObj);
    },
    onCustomResourceEvent(resource, action, oldObj, newObj) {
      const actionType = actionTypeOf(action);
      // upstream: custom resources' events are named `<resource>.<version>.<group>` (eventhandlers.go)
      queue.moveAllToActiveOrBackoffQueue(
        { resource: customResourceEventName(resource), actionType },
        oldObj,
        newObj,
      );
    },
  });
}

function actionTypeOf(action: "Add" | "Update" | "Delete"): number {
  return action === "Add" ? ActionType.Add : action === "Delete" ? ActionType.Delete : ActionType.Update;
}
