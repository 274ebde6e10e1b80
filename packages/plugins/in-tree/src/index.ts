// The in-tree registry: every kubesched in-tree plugin by its upstream name (upstream
// pkg/scheduler/framework/plugins/registry.go NewInTreeRegistry).
import { type PluginDescriptor, type Registry, registryEntry, registryOf } from "@kubesched/framework";
import { defaultBinderPlugin } from "@kubesched/plugin-default-binder";
import { defaultPreemptionPlugin } from "@kubesched/plugin-default-preemption";
import { dynamicResourcesPlugin } from "@kubesched/plugin-dynamic-resources";
import { imageLocalityPlugin } from "@kubesched/plugin-image-locality";
import { interPodAffinityPlugin } from "@kubesched/plugin-inter-pod-affinity";
import { nodeAffinityPlugin } from "@kubesched/plugin-node-affinity";
import { nodeDeclaredFeaturesPlugin } from "@kubesched/plugin-node-declared-features";
import { nodeNamePlugin } from "@kubesched/plugin-node-name";
import { nodePortsPlugin } from "@kubesched/plugin-node-ports";
import { nodeResourcesBalancedAllocationPlugin } from "@kubesched/plugin-node-resources-balanced-allocation";
import { nodeResourcesFitPlugin } from "@kubesched/plugin-node-resources-fit";
import { nodeUnschedulablePlugin } from "@kubesched/plugin-node-unschedulable";
import { nodeVolumeLimitsPlugin } from "@kubesched/plugin-node-volume-limits";
import { podTopologySpreadPlugin } from "@kubesched/plugin-pod-topology-spread";
import { prioritySortPlugin } from "@kubesched/plugin-priority-sort";
import { schedulingGatesPlugin } from "@kubesched/plugin-scheduling-gates";
import { taintTolerationPlugin } from "@kubesched/plugin-taint-toleration";
import { volumeBindingPlugin } from "@kubesched/plugin-volume-binding";
import { volumeRestrictionsPlugin } from "@kubesched/plugin-volume-restrictions";
import { volumeZonePlugin } from "@kubesched/plugin-volume-zone";

/** Every in-tree plugin descriptor, in upstream's default-profile order. */
export const inTreePlugins: readonly PluginDescriptor<unknown>[] = [
  registryEntry(schedulingGatesPlugin),
  registryEntry(prioritySortPlugin),
  registryEntry(nodeUnschedulablePlugin),
  registryEntry(nodeNamePlugin),
  registryEntry(taintTolerationPlugin),
  registryEntry(nodeAffinityPlugin),
  registryEntry(nodePortsPlugin),
  registryEntry(nodeResourcesFitPlugin),
  registryEntry(volumeRestrictionsPlugin),
  registryEntry(nodeVolumeLimitsPlugin),
  registryEntry(volumeBindingPlugin),
  registryEntry(volumeZonePlugin),
  registryEntry(podTopologySpreadPlugin),
  registryEntry(interPodAffinityPlugin),
  registryEntry(dynamicResourcesPlugin),
  registryEntry(defaultPreemptionPlugin),
  registryEntry(nodeResourcesBalancedAllocationPlugin),
  registryEntry(imageLocalityPlugin),
  registryEntry(defaultBinderPlugin),
  registryEntry(nodeDeclaredFeaturesPlugin),
];

/** name → descriptor, for the config loader and the runtime. */
export const inTreeRegistry: Registry = registryOf(...inTreePlugins);
