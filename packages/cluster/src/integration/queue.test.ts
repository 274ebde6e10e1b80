// upstream: test/integration/scheduler/queueing/queue_test.go (kubernetes/kubernetes at 008b3652,
// v1.37 line): TestSchedulingGates, TestCustomResourceEnqueue, TestRequeueByBindFailure,
// TestRequeueByPermitRejection, TestPopFromBackoffQWhenActiveQEmpty, and TestCoreResourceEnqueue,
// whose table is CoreResourceEnqueueTestCases in queueing/queue.go (at 055fd392), on the
// assembled scheduler of the simulate path (openSimulation): the profile enables only the
// plugins the case names (with PrioritySort and DefaultBinder), backoff is zero as upstream sets
// it, every pod is attempted once and must be left unschedulable, the trigger changes the
// cluster, and the pods in activeQ afterwards are exactly the ones upstream expects: a pod whose
// rejecting plugins' queueing hints skip the event stays in the unschedulable pool.
//
// Not ported (the objects the case needs are not part of kubesched's cluster model):
// - "…is requeued when a Node does not have the extended resource, and DRAExtendedResource is
//   enabled", "…requeued when created DeviceClass…", "…requeued when updated DeviceClass…":
//   DeviceClass (resource.k8s.io) objects are not loaded (see @kubesched/plugin-dynamic-resources).
// - the five "…CSIDriver…" / "…CSIStorageCapacity…" cases: CSIDriver and CSIStorageCapacity
//   objects are not held by the cluster (no lister, no events from a snapshot or live source).
// - "Pod with PVC rejected the CSI NodeVolumeLimits plugin is requeued when the VolumeAttachment
//   is deleted" and "Pod with Inline Migratable volume …": VolumeAttachment objects are not held.
// - the two "…GangScheduling plugin…" cases: GangScheduling (Workload and PodGroup,
//   scheduling.k8s.io/v1alpha2, gates GenericWorkload and GangScheduling) is not implemented.
// The "Pod rejected the CSI NodeVolumeLimits plugin is requeued when the CSINode is added" case
// runs without its CSIDriver object (nothing in kubesched reads one).
// Upstream also waits for the scheduler_event_handling_duration_seconds samples of the trigger's
// events; the simulator delivers events synchronously, so the requeued set is checked directly.
import type {
  CSINode,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  StorageClass,
} from "@kubesched/api";
import { defaultConfig, type KubeSchedulerConfiguration } from "@kubesched/config";
import {
  ActionType,
  type BindPlugin,
  type ClusterEventWithHint,
  Code,
  type CycleState,
  defineCustomResource,
  definePlugin,
  EventResource,
  type Features,
  type PluginDescriptor,
  QueueingHint,
  type Registry,
  registryEntry,
  Status,
  type WaitingPod,
} from "@kubesched/framework";
import {
  type DeclaredFeature,
  NodeDeclaredFeatures,
  name as nodeDeclaredFeaturesName,
} from "@kubesched/plugin-node-declared-features";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import {
  makeCSINode,
  makeLabelSelector,
  makeNode,
  makePersistentVolume,
  makePersistentVolumeClaim,
  makePod,
  makeStorageClass,
  NodeSelectorTypeMatchFields,
} from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import type { SimulationSession } from "../simulate";
import {
  addPods,
  configOf,
  create,
  deletePod,
  openSession,
  updateNode,
  updateNodeStatus,
  updatePod,
} from "./integration-cluster.test-util";

const notReadyTaint = { key: "node.kubernetes.io/not-ready", effect: "NoSchedule" as const };
const zoneLabel = "topology.kubernetes.io/zone";
const betaZoneLabel = "failure-domain.beta.kubernetes.io/zone";
const bindCompleted = "pv.kubernetes.io/bind-completed";
const migratedPluginsAnnotation = "storage.alpha.kubernetes.io/migrated-plugins";
const mi = { storage: "1Mi" };
const hostPath = { path: "/tmp", type: "DirectoryOrCreate" };

const pod = (name: string) => makePod().name(name);
const node = (name: string) => makeNode().name(name);
const spreadPod = (name: string, key: string, topologyKey: string, minDomains: number | null) =>
  pod(name)
    .label(key, "val")
    .spreadConstraint(1, topologyKey, "DoNotSchedule", makeLabelSelector().exists(key).obj(), minDomains)
    .container("image");

/** A hostPath PV of 1Mi. */
const pv = (name: string, accessMode: string) =>
  makePersistentVolume().name(name).accessModes([accessMode]).capacity(mi).hostPathVolumeSource(hostPath);
/** A CSI PV of 1Mi. */
const csiPV = (name: string, volumeHandle: string) =>
  makePersistentVolume()
    .name(name)
    .accessModes(["ReadWriteMany"])
    .capacity(mi)
    .persistentVolumeSource({ csi: { driver: "csidriver", volumeHandle } });
/** A claim of 1Mi. */
const pvc = (name: string, accessMode: string) =>
  makePersistentVolumeClaim()
    .name(name)
    .namespace("default")
    .accessModes([accessMode])
    .resources({ requests: mi });
/** A claim of 1Mi bound to `volumeName`. */
const boundPVC = (name: string, volumeName: string, accessMode: string) =>
  pvc(name, accessMode).annotation(bindCompleted, "true").volumeName(volumeName);
const wffcClass = (name: string) =>
  makeStorageClass().name(name).volumeBindingMode("WaitForFirstConsumer").provisioner("p");
const zoneTopology = (zone: string): NonNullable<StorageClass["allowedTopologies"]> => [
  { matchLabelExpressions: [{ key: zoneLabel, values: [zone] }] },
];
const csiNodeWithLimit = (count: number) =>
  makeCSINode()
    .name("fake-node")
    .driver({ name: "csidriver", nodeID: "fake-node", allocatable: { count } })
    .obj();

/** upstream's mock declared feature: required when the first toleration has tolerationSeconds > 0. */
const featureA: DeclaredFeature = {
  name: "FeatureA",
  inferForScheduling: (spec) => (spec.tolerations?.[0]?.tolerationSeconds ?? 0) > 0,
  maxVersion: null,
};
/** upstream ndftesting.SetFrameworkDuringTest: NodeDeclaredFeatures over the mock feature only. */
const mockFeatureRegistry: Registry = new Map([
  ...inTreeRegistry,
  [
    nodeDeclaredFeaturesName,
    registryEntry(
      definePlugin<undefined>({
        name: nodeDeclaredFeaturesName,
        factory: () => new NodeDeclaredFeatures({ enabled: true, registry: [featureA] }),
      }),
    ),
  ],
]);
const featurePod = () =>
  pod("pod1")
    .container("pause")
    .tolerations([{ key: "featureA", effect: "NoExecute", tolerationSeconds: 200 }]);

interface CoreResourceEnqueueTestCase {
  name: string;
  initialNodes: Node[];
  initialPods?: Pod[];
  initialPVCs?: PersistentVolumeClaim[];
  initialPVs?: PersistentVolume[];
  initialStorageClasses?: StorageClass[];
  initialCSINodes?: CSINode[];
  /** All of them are expected to be unschedulable at first. */
  pods: Pod[];
  trigger: (s: SimulationSession) => void;
  wantRequeuedPods: string[];
  /** The plugins to enable (PrioritySort and DefaultBinder always are); all when absent. */
  enablePlugins?: string[];
  enableDRAExtendedResource?: boolean;
  /** upstream EnableNodeDeclaredFeatures: NodeDeclaredFeatures over upstream's mock feature. */
  enableNodeDeclaredFeatures?: boolean;
}

const cases: CoreResourceEnqueueTestCase[] = [
  {
    name: "Pod without a required toleration to a node isn't requeued to activeQ",
    enablePlugins: ["TaintToleration", "NodeResourcesFit"],
    initialNodes: [node("fake-node").capacity({ cpu: "2" }).taints([notReadyTaint]).obj()],
    pods: [
      pod("pod1").req({ cpu: "4" }).container("image").obj(),
      pod("pod2").toleration(notReadyTaint.key).req({ cpu: "4" }).container("image").obj(),
    ],
    trigger: (s) =>
      updateNodeStatus(s, node("fake-node").capacity({ cpu: "4" }).taints([notReadyTaint]).obj()),
    wantRequeuedPods: ["pod2"],
  },
  {
    name: "Pod rejected by the PodAffinity plugin is requeued when a new Node is created",
    enablePlugins: ["InterPodAffinity"],
    initialNodes: [node("fake-node").label("node", "fake-node").capacity({ cpu: "2" }).obj()],
    initialPods: [
      pod("pod1")
        .label("anti", "anti")
        .podAntiAffinityExists("anti", "node", "required")
        .container("image")
        .node("fake-node")
        .obj(),
    ],
    pods: [
      pod("pod2")
        .label("anti", "anti")
        .podAntiAffinityExists("anti", "node", "required")
        .container("image")
        .obj(),
    ],
    trigger: (s) =>
      create(s, { nodes: [node("fake-node2").label("node", "fake-node2").capacity({ cpu: "2" }).obj()] }),
    wantRequeuedPods: ["pod2"],
  },
  {
    name: "Pod rejected by the NodeAffinity plugin is requeued when a Node's label is updated",
    enablePlugins: ["NodeAffinity"],
    initialNodes: [node("fake-node1").label("group", "a").obj()],
    pods: [
      pod("pod1").nodeAffinityIn("group", ["b"]).container("image").obj(),
      pod("pod2").nodeAffinityIn("group", ["c"]).container("image").obj(),
    ],
    trigger: (s) => updateNode(s, node("fake-node1").label("group", "b").obj()),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected by the NodeAffinity plugin is not requeued when an updated Node haven't changed the 'match' verdict",
    enablePlugins: ["NodeAffinity", "NodeResourcesFit"],
    initialNodes: [
      node("node1").label("group", "a").capacity({ cpu: "2" }).obj(),
      node("node2").label("group", "b").obj(),
    ],
    pods: [pod("pod1").nodeAffinityIn("group", ["a"]).req({ cpu: "4" }).container("image").obj()],
    trigger: (s) => updateNode(s, node("node1").label("group", "a").label("node", "fake-node").obj()),
    wantRequeuedPods: [],
  },
  {
    name: "Pod rejected by the NodeAffinity plugin is requeued when a Node is added",
    enablePlugins: ["NodeAffinity"],
    initialNodes: [node("fake-node1").label("group", "a").obj()],
    pods: [
      pod("pod1").nodeAffinityIn("group", ["b"]).container("image").obj(),
      pod("pod2").nodeAffinityIn("group", ["c"]).container("image").obj(),
    ],
    trigger: (s) => create(s, { nodes: [node("fake-node2").label("group", "b").obj()] }),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod updated with toleration requeued to activeQ",
    enablePlugins: ["TaintToleration"],
    initialNodes: [
      node("fake-node")
        .taints([{ key: "taint-key", effect: "NoSchedule" }])
        .obj(),
    ],
    pods: [pod("pod1").container("image").obj(), pod("pod2").container("image").obj()],
    trigger: (s) => updatePod(s, pod("pod1").container("image").toleration("taint-key").obj()),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected by the TaintToleration plugin is requeued when the Node's taint is updated",
    enablePlugins: ["TaintToleration"],
    initialNodes: [node("fake-node").taints([notReadyTaint]).obj()],
    pods: [
      pod("pod1").toleration("taint-key").container("image").obj(),
      pod("pod2").toleration("taint-key2").container("image").obj(),
      pod("pod3").container("image").obj(),
    ],
    trigger: (s) =>
      updateNode(
        s,
        node("fake-node")
          .taints([{ key: "taint-key", effect: "NoSchedule" }])
          .obj(),
      ),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected by the TaintToleration plugin is requeued when a Node that has the correspoding taint is added",
    enablePlugins: ["TaintToleration"],
    initialNodes: [node("fake-node1").taints([notReadyTaint]).obj()],
    pods: [
      pod("pod1").toleration("taint-key").container("image").obj(),
      pod("pod2").container("image").obj(),
    ],
    trigger: (s) =>
      create(s, {
        nodes: [
          node("fake-node2")
            .taints([{ key: "taint-key", effect: "NoSchedule" }])
            .obj(),
        ],
      }),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected by the NodeResourcesFit plugin is requeued when the Pod is updated to scale down",
    enablePlugins: ["NodeResourcesFit"],
    initialNodes: [node("fake-node").capacity({ cpu: "2" }).obj()],
    pods: [pod("pod1").req({ cpu: "4" }).container("image").obj()],
    // upstream resizes through the pods/resize subresource.
    trigger: (s) => updatePod(s, pod("pod1").req({ cpu: "2" }).container("image").obj()),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected by the NodeResourcesFit plugin is requeued when a Pod is deleted",
    enablePlugins: ["NodeResourcesFit"],
    initialNodes: [node("fake-node").capacity({ cpu: "2" }).obj()],
    initialPods: [pod("pod1").req({ cpu: "2" }).container("image").node("fake-node").obj()],
    pods: [pod("pod2").req({ cpu: "2" }).container("image").obj()],
    trigger: (s) => deletePod(s, "pod1"),
    wantRequeuedPods: ["pod2"],
  },
  {
    name: "Pod rejected by the NodeResourcesFit plugin is requeued when a Node is created",
    enablePlugins: ["NodeResourcesFit"],
    initialNodes: [node("fake-node1").capacity({ cpu: "2" }).obj()],
    pods: [
      pod("pod1").req({ cpu: "4" }).container("image").obj(),
      pod("pod2").req({ cpu: "5" }).container("image").obj(),
    ],
    trigger: (s) => create(s, { nodes: [node("fake-node2").capacity({ cpu: "4" }).obj()] }),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected by the NodeResourcesFit plugin is requeued when a Node is updated",
    enablePlugins: ["NodeResourcesFit"],
    initialNodes: [node("fake-node").capacity({ cpu: "2" }).obj()],
    pods: [
      pod("pod1").req({ cpu: "4" }).container("image").obj(),
      pod("pod2").req({ cpu: "5" }).container("image").obj(),
    ],
    trigger: (s) => updateNodeStatus(s, node("fake-node").capacity({ cpu: "4" }).obj()),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected by the NodeResourcesFit plugin isn't requeued when a Node has the extended resource, and DRAExtendedResource is disabled",
    enablePlugins: ["NodeResourcesFit", "DynamicResources"],
    initialNodes: [node("fake-node1").capacity({ cpu: "4", "example.com/gpu": "1" }).obj()],
    pods: [pod("pod1").res({ cpu: "5", "example.com/gpu": "1" }).container("image").obj()],
    trigger: (s) => updateNodeStatus(s, node("fake-node1").capacity({ cpu: "4", memory: "4000" }).obj()),
    wantRequeuedPods: [],
    enableDRAExtendedResource: false,
  },
  {
    name: "Pod rejected by the NodeResourcesFit plugin isn't requeued when a Node has the extended resource, and DRAExtendedResource is enabled",
    enablePlugins: ["NodeResourcesFit", "DynamicResources"],
    initialNodes: [node("fake-node1").capacity({ cpu: "4", "example.com/gpu": "1" }).obj()],
    pods: [pod("pod1").res({ cpu: "5", "example.com/gpu": "1" }).container("image").obj()],
    trigger: (s) => updateNodeStatus(s, node("fake-node1").capacity({ cpu: "4", memory: "4000" }).obj()),
    wantRequeuedPods: [],
    enableDRAExtendedResource: true,
  },
  {
    name: "Pod rejected by the NodeResourcesFit plugin isn't requeued when a Node does not have the extended resource, and DRAExtendedResource is disabled",
    enablePlugins: ["NodeResourcesFit", "DynamicResources"],
    initialNodes: [node("fake-node1").capacity({ cpu: "4" }).obj()],
    pods: [pod("pod1").res({ "example.com/gpu": "1" }).container("image").obj()],
    trigger: (s) => updateNodeStatus(s, node("fake-node1").capacity({ cpu: "4", memory: "4000" }).obj()),
    wantRequeuedPods: [],
    enableDRAExtendedResource: false,
  },
  {
    name: "Pod rejected by the NodeResourcesFit plugin isn't requeued when a Node is updated without increase in the requested resources",
    enablePlugins: ["NodeResourcesFit", "NodeAffinity"],
    initialNodes: [
      node("fake-node1").capacity({ cpu: "4" }).obj(),
      node("fake-node2").capacity({ cpu: "2" }).label("group", "b").obj(),
    ],
    pods: [pod("pod1").req({ cpu: "4" }).nodeAffinityIn("group", ["b"]).container("image").obj()],
    trigger: (s) => updateNodeStatus(s, node("fake-node1").capacity({ cpu: "4", memory: "4000" }).obj()),
    wantRequeuedPods: [],
  },
  {
    name: "Pod rejected by the NodeResourcesFit plugin is requeued when a Node is updated with increase in the requested resources",
    enablePlugins: ["NodeResourcesFit", "NodeAffinity"],
    initialNodes: [
      node("fake-node1").capacity({ cpu: "4" }).obj(),
      node("fake-node2").capacity({ cpu: "2" }).label("group", "b").obj(),
    ],
    pods: [pod("pod1").req({ cpu: "4" }).nodeAffinityIn("group", ["b"]).container("image").obj()],
    trigger: (s) => updateNodeStatus(s, node("fake-node1").capacity({ cpu: "5" }).obj()),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected by the NodeResourcesFit plugin is requeued when a Node is updated with increase in the allowed pods number",
    enablePlugins: ["NodeResourcesFit", "NodeAffinity"],
    initialNodes: [
      node("fake-node1").capacity({ pods: "2" }).obj(),
      node("fake-node2").capacity({ pods: "1" }).label("group", "b").obj(),
    ],
    initialPods: [pod("pod1").nodeAffinityIn("group", ["b"]).container("image").node("fake-node2").obj()],
    pods: [pod("pod2").nodeAffinityIn("group", ["b"]).container("image").obj()],
    trigger: (s) => updateNodeStatus(s, node("fake-node1").capacity({ pods: "3" }).obj()),
    wantRequeuedPods: ["pod2"],
  },
  {
    name: "Updating pod label doesn't retry scheduling if the Pod was rejected by TaintToleration",
    enablePlugins: ["TaintToleration"],
    initialNodes: [node("fake-node").taints([notReadyTaint]).obj()],
    pods: [pod("pod1").container("image").obj()],
    trigger: (s) => updatePod(s, pod("pod1").label("key", "val").container("image").obj()),
    wantRequeuedPods: [],
  },
  {
    // PreFilter plugins returning a PreFilterResult are recorded as rejectors too
    // (kubernetes/kubernetes#122018).
    name: "Pod rejected by the PreFilter of NodeAffinity plugin and Filter of NodeResourcesFit is requeued based on both plugins",
    enablePlugins: ["NodeAffinity", "NodeResourcesFit"],
    initialNodes: [
      node("fake-node").label("node", "fake-node").capacity({ cpu: "2" }).obj(),
      node("fake-node2").label("node", "fake-node2").label("zone", "zone1").capacity({ cpu: "2" }).obj(),
    ],
    pods: [
      pod("pod1")
        .label("unscheduled", "plugins")
        .nodeAffinityIn("metadata.name", ["fake-node"], NodeSelectorTypeMatchFields)
        .req({ cpu: "4" })
        .obj(),
    ],
    trigger: (s) =>
      updateNodeStatus(s, node("fake-node").label("metadata.name", "fake-node").capacity({ cpu: "4" }).obj()),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected by the InterPodAffinity plugin is requeued when deleting the existed pod's label that matches the podAntiAffinity",
    enablePlugins: ["InterPodAffinity"],
    initialNodes: [node("fake-node").label("node", "fake-node").obj()],
    initialPods: [
      pod("pod1").label("anti1", "anti1").label("anti2", "anti2").container("image").node("fake-node").obj(),
    ],
    pods: [
      pod("pod2")
        .label("anti1", "anti1")
        .podAntiAffinityExists("anti1", "node", "required")
        .container("image")
        .obj(),
      pod("pod3")
        .label("anti2", "anti2")
        .podAntiAffinityExists("anti2", "node", "required")
        .container("image")
        .obj(),
    ],
    trigger: (s) =>
      updatePod(s, pod("pod1").label("anti2", "anti2").container("image").node("fake-node").obj()),
    wantRequeuedPods: ["pod2"],
  },
  {
    name: "Pod rejected by the InterPodAffinity plugin is requeued when deleting the existing pod that matches the target podAntiAffinity",
    enablePlugins: ["InterPodAffinity"],
    initialNodes: [node("fake-node").label("node", "fake-node").obj()],
    initialPods: [
      pod("pod1").label("anti1", "anti1").container("image").node("fake-node").obj(),
      pod("pod2").label("anti2", "anti2").container("image").node("fake-node").obj(),
    ],
    pods: [
      pod("pod3")
        .label("anti1", "anti1")
        .podAntiAffinityExists("anti1", "node", "required")
        .container("image")
        .obj(),
      pod("pod4")
        .label("anti2", "anti2")
        .podAntiAffinityExists("anti2", "node", "required")
        .container("image")
        .obj(),
    ],
    trigger: (s) => deletePod(s, "pod1"),
    wantRequeuedPods: ["pod3"],
  },
  {
    name: "Pod rejected by the InterPodAffinity plugin is requeued when deleting the existing pod with podAntiAffinity that matches the target pod",
    enablePlugins: ["InterPodAffinity"],
    initialNodes: [node("fake-node").label("node", "fake-node").obj()],
    initialPods: [
      pod("pod1")
        .podAntiAffinityExists("anti1", "node", "required")
        .container("image")
        .node("fake-node")
        .obj(),
      pod("pod2")
        .podAntiAffinityExists("anti2", "node", "required")
        .container("image")
        .node("fake-node")
        .obj(),
    ],
    pods: [
      pod("pod3").label("anti1", "anti1").container("image").obj(),
      pod("pod4").label("anti2", "anti2").container("image").obj(),
    ],
    trigger: (s) => deletePod(s, "pod1"),
    wantRequeuedPods: ["pod3"],
  },
  {
    name: "Pod rejected by the PodAffinity plugin is requeued when updating the existed pod's label to make it match the pod's podAffinity",
    enablePlugins: ["InterPodAffinity"],
    initialNodes: [node("fake-node").label("node", "fake-node").obj()],
    initialPods: [pod("pod1").container("image").node("fake-node").obj()],
    pods: [
      pod("pod2").podAffinityExists("aaa", "node", "required").container("image").obj(),
      pod("pod3").podAffinityExists("bbb", "node", "required").container("image").obj(),
    ],
    trigger: (s) => updatePod(s, pod("pod1").label("aaa", "bbb").container("image").node("fake-node").obj()),
    wantRequeuedPods: ["pod2"],
  },
  {
    name: "Pod rejected by the InterPodAffinity plugin is requeued when creating the node with the topologyKey label of the pod affinity",
    enablePlugins: ["InterPodAffinity"],
    initialNodes: [node("fake-node1").label("aaa", "fake-node").obj()],
    pods: [
      pod("pod1").podAffinityExists("bbb", "zone", "required").container("image").obj(),
      pod("pod2").podAffinityExists("ccc", "region", "required").container("image").obj(),
    ],
    trigger: (s) => create(s, { nodes: [node("fake-node2").label("zone", "zone1").obj()] }),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected by the InterPodAffinity plugin is requeued when updating the node with the topologyKey label of the pod affinity",
    enablePlugins: ["InterPodAffinity", "NodeAffinity"],
    initialNodes: [
      node("fake-node").label("region", "region-1").obj(),
      node("fake-node2").label("region", "region-2").label("group", "b").obj(),
    ],
    initialPods: [pod("pod1").label("affinity1", "affinity1").container("image").node("fake-node").obj()],
    pods: [
      pod("pod2")
        .label("affinity1", "affinity1")
        .podAffinityExists("affinity1", "node", "required")
        .container("image")
        .obj(),
      pod("pod3")
        .label("affinity1", "affinity1")
        .podAffinityExists("affinity1", "other", "required")
        .container("image")
        .obj(),
      // No label, so that its PodAffinity does not match the pod itself.
      pod("pod4")
        .podAffinityExists("affinity1", "region", "required")
        .nodeAffinityIn("group", ["b"])
        .container("image")
        .obj(),
    ],
    trigger: (s) =>
      updateNode(s, node("fake-node").label("node", "fake-node").label("region", "region-2").obj()),
    wantRequeuedPods: ["pod2", "pod4"],
  },
  {
    name: "Pod rejected by the InterPodAffinity plugin is requeued when updating the node with the topologyKey label of the pod anti affinity",
    enablePlugins: ["InterPodAffinity"],
    initialNodes: [
      node("fake-node")
        .label("node", "fake-node")
        .label("service", "service-a")
        .label("other", "fake-node")
        .obj(),
    ],
    initialPods: [pod("pod1").label("anti1", "anti1").container("image").node("fake-node").obj()],
    pods: [
      pod("pod2")
        .label("anti1", "anti1")
        .podAntiAffinityExists("anti1", "node", "required")
        .container("image")
        .obj(),
      pod("pod3")
        .label("anti1", "anti1")
        .podAntiAffinityExists("anti1", "service", "required")
        .container("image")
        .obj(),
      pod("pod4")
        .label("anti1", "anti1")
        .podAntiAffinityExists("anti1", "other", "required")
        .container("image")
        .obj(),
    ],
    trigger: (s) =>
      updateNode(
        s,
        node("fake-node")
          .label("service", "service-b")
          .label("region", "fake-node")
          .label("other", "fake-node")
          .obj(),
      ),
    wantRequeuedPods: ["pod2", "pod3"],
  },
  {
    name: "Pod rejected by the InterPodAffinity plugin is requeued when creating the node with the topologyKey label of the pod anti affinity",
    enablePlugins: ["InterPodAffinity"],
    initialNodes: [node("fake-node1").label("zone", "fake-node").label("node", "fake-node").obj()],
    initialPods: [pod("pod1").label("anti1", "anti1").container("image").node("fake-node1").obj()],
    pods: [
      pod("pod2").podAntiAffinityExists("anti1", "zone", "required").container("image").obj(),
      pod("pod3").podAntiAffinityExists("anti1", "node", "required").container("image").obj(),
    ],
    trigger: (s) => create(s, { nodes: [node("fake-node2").label("zone", "fake-node").obj()] }),
    wantRequeuedPods: ["pod2", "pod3"],
  },
  {
    name: "Pod rejected with hostport by the NodePorts plugin is requeued when pod with common hostport is deleted",
    enablePlugins: ["NodePorts"],
    initialNodes: [node("fake-node").label("node", "fake-node").obj()],
    initialPods: [
      pod("pod1")
        .container("image")
        .containerPort([{ containerPort: 8080, hostPort: 8080 }])
        .node("fake-node")
        .obj(),
      pod("pod2")
        .container("image")
        .containerPort([{ containerPort: 8080, hostPort: 8081 }])
        .node("fake-node")
        .obj(),
    ],
    pods: [
      pod("pod3")
        .container("image")
        .containerPort([{ containerPort: 8080, hostPort: 8080 }])
        .obj(),
      pod("pod4")
        .container("image")
        .containerPort([{ containerPort: 8080, hostPort: 8081 }])
        .obj(),
    ],
    trigger: (s) => deletePod(s, "pod1"),
    wantRequeuedPods: ["pod3"],
  },
  {
    name: "Pod rejected with hostport by the NodePorts plugin is requeued when new node is created",
    enablePlugins: ["NodePorts"],
    initialNodes: [node("fake-node").label("node", "fake-node").obj()],
    initialPods: [
      pod("pod1")
        .container("image")
        .containerPort([{ containerPort: 8080, hostPort: 8080 }])
        .node("fake-node")
        .obj(),
    ],
    pods: [
      pod("pod2")
        .container("image")
        .containerPort([{ containerPort: 8080, hostPort: 8080 }])
        .obj(),
    ],
    trigger: (s) => create(s, { nodes: [node("fake-node2").label("node", "fake-node2").obj()] }),
    wantRequeuedPods: ["pod2"],
  },
  {
    name: "Pod rejected by the NodeUnschedulable plugin is requeued when the node is turned to ready",
    enablePlugins: ["NodeUnschedulable"],
    initialNodes: [node("fake-node").unschedulable(true).obj()],
    pods: [pod("pod1").container("image").obj()],
    trigger: (s) => updateNode(s, node("fake-node").unschedulable(false).obj()),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected by the NodeUnschedulable plugin is requeued when a new node is created",
    enablePlugins: ["NodeUnschedulable"],
    initialNodes: [node("fake-node1").unschedulable(true).obj()],
    pods: [pod("pod1").container("image").obj()],
    trigger: (s) => create(s, { nodes: [node("fake-node2").obj()] }),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected by the NodeUnschedulable plugin isn't requeued when another unschedulable node is created",
    enablePlugins: ["NodeUnschedulable"],
    initialNodes: [node("fake-node1").unschedulable(true).obj()],
    pods: [pod("pod1").container("image").obj()],
    trigger: (s) => create(s, { nodes: [node("fake-node2").unschedulable(true).obj()] }),
    wantRequeuedPods: [],
  },
  {
    name: "Pods with PodTopologySpread should be requeued when a Pod with matching label is scheduled",
    enablePlugins: ["PodTopologySpread"],
    initialNodes: [node("fake-node").label("node", "fake-node").capacity({ cpu: "2" }).obj()],
    initialPods: [
      pod("pod1").label("key1", "val").container("image").node("fake-node").obj(),
      pod("pod2").label("key2", "val").container("image").node("fake-node").obj(),
    ],
    pods: [spreadPod("pod3", "key1", "node", 3).obj(), spreadPod("pod4", "key2", "node", 3).obj()],
    trigger: (s) => addPods(s, pod("pod5").label("key1", "val").node("fake-node").container("image").obj()),
    wantRequeuedPods: ["pod3"],
  },
  {
    name: "Pods with PodTopologySpread should be requeued when a scheduled Pod label is updated to match the selector",
    enablePlugins: ["PodTopologySpread"],
    initialNodes: [node("fake-node").label("node", "fake-node").capacity({ cpu: "2" }).obj()],
    initialPods: [
      pod("pod1").label("key1", "val").container("image").node("fake-node").obj(),
      pod("pod2").label("key2", "val").container("image").node("fake-node").obj(),
    ],
    pods: [spreadPod("pod3", "key1", "node", 3).obj(), spreadPod("pod4", "key2", "node", 3).obj()],
    trigger: (s) => updatePod(s, pod("pod1").label("key3", "val").container("image").node("fake-node").obj()),
    wantRequeuedPods: ["pod3"],
  },
  {
    name: "Pods with PodTopologySpread should be requeued when a scheduled Pod with matching label is deleted",
    enablePlugins: ["PodTopologySpread"],
    initialNodes: [node("fake-node").label("node", "fake-node").capacity({ cpu: "2" }).obj()],
    initialPods: [
      pod("pod1").label("key1", "val").container("image").node("fake-node").obj(),
      pod("pod2").label("key2", "val").container("image").node("fake-node").obj(),
    ],
    pods: [spreadPod("pod3", "key1", "node", 2).obj(), spreadPod("pod4", "key2", "node", 3).obj()],
    trigger: (s) => deletePod(s, "pod1"),
    wantRequeuedPods: ["pod3"],
  },
  {
    name: "Pods with PodTopologySpread should be requeued when a Node with topology label is created",
    enablePlugins: ["PodTopologySpread"],
    initialNodes: [
      node("fake-node1").label("node", "fake-node").obj(),
      node("fake-node2").label("zone", "fake-zone").obj(),
    ],
    initialPods: [
      pod("pod1").label("key1", "val").container("image").node("fake-node1").obj(),
      pod("pod2").label("key1", "val").container("image").node("fake-node2").obj(),
    ],
    pods: [spreadPod("pod3", "key1", "node", 2).obj(), spreadPod("pod4", "key1", "zone", 2).obj()],
    trigger: (s) => create(s, { nodes: [node("fake-node3").label("node", "fake-node").obj()] }),
    wantRequeuedPods: ["pod3"],
  },
  {
    name: "Pods with PodTopologySpread should be requeued when a Node is updated to have the topology label",
    enablePlugins: ["PodTopologySpread"],
    initialNodes: [
      node("fake-node1")
        .label("node", "fake-node")
        .label("region", "fake-node")
        .label("service", "service-a")
        .obj(),
      node("fake-node2")
        .label("node", "fake-node")
        .label("region", "fake-node")
        .label("service", "service-a")
        .obj(),
    ],
    initialPods: [
      spreadPod("pod1", "key1", "node", null).node("fake-node1").obj(),
      spreadPod("pod2", "key1", "zone", null).node("fake-node2").obj(),
      spreadPod("pod3", "key1", "region", null).node("fake-node2").obj(),
      spreadPod("pod4", "key1", "service", null).node("fake-node2").obj(),
    ],
    pods: [
      spreadPod("pod5", "key1", "node", 3).obj(),
      spreadPod("pod6", "key1", "zone", 3).obj(),
      spreadPod("pod7", "key1", "region", 3).obj(),
      spreadPod("pod8", "key1", "other", 3).obj(),
      spreadPod("pod9", "key1", "service", 3).obj(),
    ],
    // Removes "node" (pod5), adds "zone" (pod6), keeps "region" (not pod7), does not add "other"
    // (not pod8), changes "service" (pod9).
    trigger: (s) =>
      updateNode(
        s,
        node("fake-node2")
          .label("zone", "fake-node")
          .label("region", "fake-node")
          .label("service", "service-b")
          .obj(),
      ),
    wantRequeuedPods: ["pod5", "pod6", "pod9"],
  },
  {
    name: "Pods with PodTopologySpread should be requeued when a Node with a topology label is deleted",
    enablePlugins: ["PodTopologySpread"],
    initialNodes: [
      node("fake-node1").label("node", "fake-node").obj(),
      node("fake-node2").label("zone", "fake-node").obj(),
    ],
    initialPods: [
      spreadPod("pod1", "key1", "node", null).node("fake-node1").obj(),
      spreadPod("pod2", "key1", "zone", null).node("fake-node2").obj(),
    ],
    pods: [spreadPod("pod3", "key1", "node", 3).obj(), spreadPod("pod4", "key1", "zone", 3).obj()],
    trigger: (s) => {
      const n = s.cluster.nodes.get("fake-node2");
      if (!n) throw new Error("fake-node2 does not exist");
      s.cluster.delete("Node", n);
    },
    wantRequeuedPods: ["pod4"],
  },
  {
    name: "Pods with PodTopologySpread should be requeued when a NodeTaint of a Node with a topology label has been updated",
    enablePlugins: ["PodTopologySpread"],
    initialNodes: [
      node("fake-node1").label("node", "fake-node").obj(),
      node("fake-node2").label("zone", "fake-node").obj(),
      node("fake-node3").label("zone", "fake-node").taints([notReadyTaint]).obj(),
    ],
    initialPods: [
      spreadPod("pod1", "key1", "node", null).node("fake-node1").obj(),
      spreadPod("pod2", "key1", "node", null).node("fake-node2").obj(),
    ],
    pods: [
      spreadPod("pod3", "key1", "node", 3).obj(),
      spreadPod("pod4", "key1", "zone", 3).toleration("aaa").obj(),
    ],
    trigger: (s) =>
      updateNode(
        s,
        node("fake-node3")
          .label("zone", "fake-node")
          .taints([{ key: "aaa", value: "bbb", effect: "NoSchedule" }])
          .obj(),
      ),
    wantRequeuedPods: ["pod4"],
  },
  {
    name: "Pod rejected with node by the VolumeZone plugin is requeued when the PV is added",
    enablePlugins: ["VolumeZone"],
    initialNodes: [node("fake-node").label("node", "fake-node").label(zoneLabel, "us-west1-a").obj()],
    initialPVs: [
      pv("pv1", "ReadOnlyMany")
        .labels({ [zoneLabel]: "us-west1-a" })
        .obj(),
    ],
    initialPVCs: [
      boundPVC("pvc1", "pv1", "ReadWriteOncePod").obj(),
      boundPVC("pvc2", "pv2", "ReadWriteOncePod").obj(),
    ],
    initialPods: [pod("pod1").container("image").pvc("pvc1").node("fake-node").obj()],
    pods: [pod("pod2").container("image").pvc("pvc2").obj()],
    trigger: (s) =>
      create(s, { persistentVolumes: [pv("pv2", "ReadOnlyMany").label(zoneLabel, "us-west1-a").obj()] }),
    wantRequeuedPods: ["pod2"],
  },
  {
    name: "Pod rejected with node by the VolumeZone plugin is requeued when the PV is updated",
    enablePlugins: ["VolumeZone"],
    initialNodes: [node("fake-node").label("node", "fake-node").label(zoneLabel, "us-west1-a").obj()],
    initialPVs: [
      pv("pv1", "ReadOnlyMany")
        .labels({ [zoneLabel]: "us-west1-a" })
        .obj(),
      pv("pv2", "ReadOnlyMany")
        .labels({ [zoneLabel]: "us-east1" })
        .obj(),
    ],
    initialPVCs: [
      boundPVC("pvc1", "pv1", "ReadWriteOncePod").obj(),
      boundPVC("pvc2", "pv2", "ReadWriteOncePod").obj(),
    ],
    initialPods: [pod("pod1").container("image").pvc("pvc1").node("fake-node").obj()],
    pods: [pod("pod2").container("image").pvc("pvc2").obj()],
    trigger: (s) =>
      create(s, { persistentVolumes: [pv("pv2", "ReadOnlyMany").label(zoneLabel, "us-west1-a").obj()] }),
    wantRequeuedPods: ["pod2"],
  },
  {
    name: "Pod rejected with node by the VolumeZone plugin is requeued when the PVC bound to the pod is added",
    enablePlugins: ["VolumeZone"],
    initialNodes: [node("fake-node").label("node", "fake-node").label(zoneLabel, "us-west1-a").obj()],
    initialPVs: [
      pv("pv1", "ReadOnlyMany")
        .labels({ [zoneLabel]: "us-west1-a" })
        .obj(),
      pv("pv2", "ReadOnlyMany")
        .labels({ [zoneLabel]: "us-east1" })
        .obj(),
    ],
    initialPVCs: [boundPVC("pvc1", "pv1", "ReadWriteOncePod").obj()],
    initialPods: [pod("pod1").container("image").pvc("pvc1").node("fake-node").obj()],
    pods: [
      pod("pod2").container("image").pvc("pvc2").obj(),
      pod("pod3").container("image").pvc("pvc3").obj(),
    ],
    trigger: (s) =>
      create(s, { persistentVolumeClaims: [boundPVC("pvc2", "pv2", "ReadWriteOncePod").obj()] }),
    wantRequeuedPods: ["pod2"],
  },
  {
    name: "Pod rejected with node by the VolumeZone plugin is requeued when the PVC bound to the pod is updated",
    enablePlugins: ["VolumeZone"],
    initialNodes: [node("fake-node").label("node", "fake-node").label(zoneLabel, "us-west1-a").obj()],
    initialPVs: [
      pv("pv1", "ReadOnlyMany")
        .labels({ [zoneLabel]: "us-west1-a" })
        .obj(),
      pv("pv2", "ReadOnlyMany")
        .labels({ [zoneLabel]: "us-east1" })
        .obj(),
    ],
    initialPVCs: [
      boundPVC("pvc1", "pv1", "ReadWriteOncePod").obj(),
      pvc("pvc2", "ReadWriteOncePod").annotation(bindCompleted, "true").obj(),
    ],
    initialPods: [pod("pod1").container("image").pvc("pvc1").node("fake-node").obj()],
    pods: [
      pod("pod2").container("image").pvc("pvc2").obj(),
      pod("pod3").container("image").pvc("pvc3").obj(),
    ],
    trigger: (s) =>
      create(s, { persistentVolumeClaims: [boundPVC("pvc2", "pv2", "ReadWriteOncePod").obj()] }),
    wantRequeuedPods: ["pod2"],
  },
  {
    name: "Pod rejected with node by the VolumeZone plugin is requeued when the Storage class is added",
    enablePlugins: ["VolumeZone"],
    initialNodes: [node("fake-node").label("node", "fake-node").label(zoneLabel, "us-west1-a").obj()],
    initialPVs: [
      pv("pv1", "ReadOnlyMany")
        .labels({ [zoneLabel]: "us-west1-a" })
        .obj(),
    ],
    initialPVCs: [
      boundPVC("pvc1", "pv1", "ReadWriteOncePod").obj(),
      boundPVC("pvc2", "pv2", "ReadWriteOncePod").obj(),
    ],
    initialPods: [pod("pod1").container("image").pvc("pvc1").node("fake-node").obj()],
    pods: [pod("pod2").container("image").pvc("pvc2").obj()],
    trigger: (s) => create(s, { storageClasses: [wffcClass("sc1").obj()] }),
    wantRequeuedPods: ["pod2"],
  },
  {
    name: "Pod rejected with node by the VolumeZone plugin is not requeued when the PV is updated but the topology is same",
    enablePlugins: ["VolumeZone"],
    initialNodes: [node("fake-node").label("node", "fake-node").label(zoneLabel, "us-west1-a").obj()],
    initialPVs: [
      pv("pv1", "ReadOnlyMany")
        .labels({ [zoneLabel]: "us-west1-a" })
        .obj(),
      pv("pv2", "ReadOnlyMany")
        .labels({ [zoneLabel]: "us-east1" })
        .obj(),
    ],
    initialPVCs: [
      boundPVC("pvc1", "pv1", "ReadWriteOncePod").obj(),
      boundPVC("pvc2", "pv2", "ReadWriteOncePod").obj(),
    ],
    initialPods: [pod("pod1").container("image").pvc("pvc1").node("fake-node").obj()],
    pods: [pod("pod2").container("image").pvc("pvc2").obj()],
    trigger: (s) =>
      create(s, {
        persistentVolumes: [
          pv("pv2", "ReadOnlyMany")
            .labels({ [zoneLabel]: "us-east1", unrelated: "unrelated" })
            .obj(),
        ],
      }),
    wantRequeuedPods: [],
  },
  {
    name: "Pod rejected by the VolumeRestriction plugin is requeued when the PVC bound to the pod is added",
    enablePlugins: ["VolumeRestrictions"],
    initialNodes: [node("fake-node").label("node", "fake-node").obj()],
    initialPVs: [pv("pv1", "ReadWriteOnce").obj()],
    pods: [
      pod("pod1").container("image").pvc("pvc1").obj(),
      pod("pod2").container("image").pvc("pvc2").obj(),
    ],
    trigger: (s) =>
      create(s, { persistentVolumeClaims: [boundPVC("pvc1", "pv1", "ReadWriteOncePod").obj()] }),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected by the VolumeRestriction plugin is requeued when the pod is deleted",
    enablePlugins: ["VolumeRestrictions"],
    initialNodes: [node("fake-node").label("node", "fake-node").obj()],
    initialPVs: [pv("pv1", "ReadWriteOnce").obj()],
    initialPVCs: [boundPVC("pvc1", "pv1", "ReadWriteOncePod").obj()],
    initialPods: [pod("pod1").container("image").pvc("pvc1").node("fake-node").obj()],
    pods: [
      pod("pod2").container("image").pvc("pvc1").obj(),
      pod("pod3").container("image").pvc("pvc2").obj(),
    ],
    trigger: (s) => deletePod(s, "pod1"),
    wantRequeuedPods: ["pod2"],
  },
  {
    name: "Pod rejected with node by the VolumeBinding plugin is requeued when the Node is created",
    enablePlugins: ["VolumeBinding"],
    initialNodes: [node("fake-node").label("node", "fake-node").label(zoneLabel, "us-east-1b").obj()],
    initialPVs: [pv("pv1", "ReadOnlyMany").nodeAffinityIn(zoneLabel, ["us-east-1a"]).obj()],
    initialPVCs: [boundPVC("pvc1", "pv1", "ReadOnlyMany").obj()],
    pods: [pod("pod1").container("image").pvc("pvc1").obj()],
    trigger: (s) => create(s, { nodes: [node("fake-node2").label(zoneLabel, "us-east-1a").obj()] }),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected with node by the VolumeBinding plugin is requeued when the Node is updated",
    enablePlugins: ["VolumeBinding"],
    initialNodes: [node("fake-node").label("node", "fake-node").label("aaa", "bbb").obj()],
    initialPVs: [pv("pv1", "ReadWriteMany").nodeAffinityIn("aaa", ["ccc"]).obj()],
    initialPVCs: [boundPVC("pvc1", "pv1", "ReadWriteMany").obj()],
    pods: [pod("pod1").container("image").pvc("pvc1").obj()],
    trigger: (s) => updateNode(s, node("fake-node").label("node", "fake-node").label("aaa", "ccc").obj()),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected with node by the VolumeBinding plugin is requeued when the PV is created",
    enablePlugins: ["VolumeBinding"],
    initialNodes: [node("fake-node").label("node", "fake-node").label("aaa", "bbb").obj()],
    initialPVs: [pv("pv1", "ReadWriteMany").nodeAffinityIn("aaa", ["ccc"]).obj()],
    initialPVCs: [boundPVC("pvc1", "pv1", "ReadWriteMany").obj()],
    pods: [pod("pod1").container("image").pvc("pvc1").obj()],
    trigger: (s) => {
      const old = s.cluster.persistentVolumes.get("pv1");
      if (!old) throw new Error("pv1 does not exist");
      s.cluster.delete("PersistentVolume", old);
      create(s, { persistentVolumes: [pv("pv1", "ReadWriteMany").nodeAffinityIn("aaa", ["bbb"]).obj()] });
    },
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected with node by the VolumeBinding plugin is requeued when the PV is updated",
    enablePlugins: ["VolumeBinding"],
    initialNodes: [node("fake-node").label("node", "fake-node").label(zoneLabel, "us-east-1a").obj()],
    initialPVs: [pv("pv1", "ReadWriteMany").nodeAffinityIn(betaZoneLabel, ["us-east-1a"]).obj()],
    initialPVCs: [boundPVC("pvc1", "pv1", "ReadWriteMany").obj()],
    pods: [pod("pod1").container("image").pvc("pvc1").obj()],
    trigger: (s) =>
      create(s, {
        persistentVolumes: [pv("pv1", "ReadWriteMany").nodeAffinityIn(zoneLabel, ["us-east-1a"]).obj()],
      }),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected with node by the VolumeBinding plugin is requeued when the PVC is created",
    enablePlugins: ["VolumeBinding"],
    initialNodes: [node("fake-node").label("node", "fake-node").obj()],
    initialPVs: [pv("pv1", "ReadOnlyMany").obj()],
    initialPVCs: [pvc("pvc1", "ReadOnlyMany").obj(), pvc("pvc2", "ReadOnlyMany").obj()],
    pods: [
      pod("pod1").container("image").pvc("pvc1").obj(),
      pod("pod2").container("image").pvc("pvc2").obj(),
    ],
    trigger: (s) => {
      const old = s.cluster.persistentVolumeClaims.get("default", "pvc1");
      if (!old) throw new Error("pvc1 does not exist");
      s.cluster.delete("PersistentVolumeClaim", old);
      create(s, { persistentVolumeClaims: [boundPVC("pvc1", "pv1", "ReadOnlyMany").obj()] });
    },
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected with node by the VolumeBinding plugin is requeued when the PVC is updated",
    enablePlugins: ["VolumeBinding"],
    initialNodes: [node("fake-node").label("node", "fake-node").obj()],
    initialPVs: [pv("pv1", "ReadWriteMany").obj()],
    initialPVCs: [pvc("pvc1", "ReadWriteMany").obj(), pvc("pvc2", "ReadWriteMany").obj()],
    pods: [
      pod("pod1").container("image").pvc("pvc1").obj(),
      pod("pod2").container("image").pvc("pvc2").obj(),
    ],
    trigger: (s) => create(s, { persistentVolumeClaims: [boundPVC("pvc1", "pv1", "ReadWriteMany").obj()] }),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected with node by the VolumeBinding plugin is requeued when the StorageClass is created",
    enablePlugins: ["VolumeBinding"],
    initialNodes: [node("fake-node").label("node", "fake-node").obj()],
    initialPVs: [pv("pv1", "ReadWriteMany").storageClassName("sc1").obj()],
    initialPVCs: [pvc("pvc1", "ReadWriteMany").storageClassName("sc1").obj()],
    pods: [pod("pod1").container("image").pvc("pvc1").obj()],
    trigger: (s) => create(s, { storageClasses: [wffcClass("sc1").obj()] }),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected with node by the VolumeBinding plugin is requeued when the StorageClass's AllowedTopologies is updated",
    enablePlugins: ["VolumeBinding"],
    initialNodes: [node("fake-node").label("node", "fake-node").label(zoneLabel, "us-west-1a").obj()],
    initialPVs: [pv("pv1", "ReadWriteMany").storageClassName("sc1").obj()],
    initialPVCs: [pvc("pvc1", "ReadWriteMany").storageClassName("sc1").obj()],
    initialStorageClasses: [wffcClass("sc1").allowedTopologies(zoneTopology("us-west-1c")).obj()],
    pods: [pod("pod1").container("image").pvc("pvc1").obj()],
    trigger: (s) =>
      create(s, { storageClasses: [wffcClass("sc1").allowedTopologies(zoneTopology("us-west-1a")).obj()] }),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected with node by the VolumeBinding plugin is not requeued when the StorageClass is updated but the AllowedTopologies is same",
    enablePlugins: ["VolumeBinding"],
    initialNodes: [node("fake-node").label("node", "fake-node").label(zoneLabel, "us-west-1c").obj()],
    initialPVs: [pv("pv1", "ReadWriteMany").storageClassName("sc1").obj()],
    initialPVCs: [pvc("pvc1", "ReadWriteMany").storageClassName("sc1").obj()],
    initialStorageClasses: [
      wffcClass("sc1").label("key", "value").allowedTopologies(zoneTopology("us-west-1a")).obj(),
    ],
    pods: [pod("pod1").container("image").pvc("pvc1").obj()],
    trigger: (s) =>
      create(s, {
        storageClasses: [
          wffcClass("sc1").label("key", "updated").allowedTopologies(zoneTopology("us-west-1a")).obj(),
        ],
      }),
    wantRequeuedPods: [],
  },
  {
    name: "Pod rejected with node by the VolumeBinding plugin is requeued when the CSINode is created",
    enablePlugins: ["VolumeBinding"],
    initialNodes: [node("fake-node").label("node", "fake-node").obj()],
    initialPVs: [pv("pv1", "ReadWriteMany").obj()],
    initialPVCs: [pvc("pvc1", "ReadWriteMany").obj()],
    pods: [pod("pod1").container("image").pvc("pvc1").obj()],
    trigger: (s) => create(s, { csiNodes: [makeCSINode().name("fake-node").obj()] }),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected with node by the VolumeBinding plugin is requeued when the CSINode's MigratedPluginsAnnotation is updated",
    enablePlugins: ["VolumeBinding"],
    initialNodes: [node("fake-node").label("node", "fake-node").obj()],
    initialPVs: [pv("pv1", "ReadWriteMany").storageClassName("sc1").obj()],
    initialPVCs: [pvc("pvc1", "ReadWriteMany").storageClassName("sc1").obj()],
    initialCSINodes: [makeCSINode().name("fake-node").obj()],
    pods: [pod("pod1").container("image").pvc("pvc1").obj()],
    trigger: (s) => {
      const cur = s.cluster.csiNodes.get("fake-node");
      if (!cur) throw new Error("CSINode fake-node does not exist");
      const annotations = { ...cur.metadata?.annotations, [migratedPluginsAnnotation]: "value" };
      s.cluster.apply("CSINode", { ...cur, metadata: { ...cur.metadata, annotations } });
    },
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected the CSI NodeVolumeLimits plugin is requeued when the CSINode is added",
    enablePlugins: ["NodeVolumeLimits"],
    initialNodes: [node("fake-node").label("node", "fake-node").obj()],
    initialPVs: [csiPV("pv1", "volumehandle").obj()],
    initialPVCs: [boundPVC("pvc1", "pv1", "ReadWriteMany").obj()],
    initialCSINodes: [csiNodeWithLimit(0)],
    pods: [pod("pod1").container("image").pvc("pvc1").obj()],
    trigger: (s) => create(s, { csiNodes: [makeCSINode().name("csinode").obj()] }),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "Pod rejected with PVC by the CSI NodeVolumeLimits plugin is requeued when the pod having related PVC is deleted",
    enablePlugins: ["NodeVolumeLimits"],
    initialNodes: [node("fake-node").label("node", "fake-node").obj()],
    initialPVs: [csiPV("pv1", "volumehandle1").obj(), csiPV("pv2", "volumehandle2").obj()],
    initialPVCs: [
      boundPVC("pvc1", "pv1", "ReadWriteOncePod").obj(),
      boundPVC("pvc2", "pv2", "ReadWriteOncePod").obj(),
    ],
    initialCSINodes: [csiNodeWithLimit(1)],
    initialPods: [pod("pod1").container("image").pvc("pvc1").node("fake-node").obj()],
    pods: [pod("pod2").container("image").pvc("pvc2").obj()],
    trigger: (s) => deletePod(s, "pod1"),
    wantRequeuedPods: ["pod2"],
  },
  {
    name: "Pod rejected with PVC by the CSI NodeVolumeLimits plugin is requeued when the related PVC is added",
    enablePlugins: ["NodeVolumeLimits"],
    initialNodes: [node("fake-node").label("node", "fake-node").obj()],
    initialPVs: [csiPV("pv1", "volumehandle1").obj(), csiPV("pv2", "volumehandle2").obj()],
    initialPVCs: [boundPVC("pvc1", "pv1", "ReadWriteOncePod").obj()],
    initialCSINodes: [csiNodeWithLimit(1)],
    initialPods: [pod("pod1").container("image").pvc("pvc1").node("fake-node").obj()],
    pods: [pod("pod2").container("image").pvc("pvc2").obj()],
    trigger: (s) =>
      create(s, { persistentVolumeClaims: [boundPVC("pvc2", "pv2", "ReadWriteOncePod").obj()] }),
    wantRequeuedPods: ["pod2"],
  },
  {
    name: "pod becomes schedulable after node update with required feature",
    enableNodeDeclaredFeatures: true,
    enablePlugins: ["NodeDeclaredFeatures"],
    initialNodes: [node("node-1").obj()],
    pods: [featurePod().obj()],
    trigger: (s) => {
      const cur = s.cluster.nodes.get("node-1");
      if (!cur) throw new Error("node-1 does not exist");
      updateNodeStatus(s, { ...cur, status: { ...cur.status, declaredFeatures: ["FeatureA"] } });
    },
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "pod remains unschedulable after node update that does not update declared features",
    enableNodeDeclaredFeatures: true,
    enablePlugins: ["NodeDeclaredFeatures"],
    initialNodes: [node("node-1").obj()],
    pods: [featurePod().obj()],
    trigger: (s) => updateNode(s, node("node-1").label("foo", "bar").obj()),
    wantRequeuedPods: [],
  },
  {
    name: "pod becomes schedulable after pod update that removes feature requirement",
    enableNodeDeclaredFeatures: true,
    enablePlugins: ["NodeDeclaredFeatures"],
    initialNodes: [node("node-1").obj()],
    pods: [featurePod().obj()],
    // Modifies the toleration so that the pod no longer requires the feature.
    trigger: (s) =>
      updatePod(
        s,
        pod("pod1")
          .container("pause")
          .tolerations([{ key: "featureA", effect: "NoExecute", tolerationSeconds: 0 }])
          .obj(),
      ),
    wantRequeuedPods: ["pod1"],
  },
  {
    name: "pod remains unschedulable after pod update that does not remove feature requirement",
    enableNodeDeclaredFeatures: true,
    enablePlugins: ["NodeDeclaredFeatures"],
    initialNodes: [node("node-1").obj()],
    pods: [featurePod().obj()],
    trigger: (s) => updatePod(s, featurePod().label("foo", "bar").obj()),
    wantRequeuedPods: [],
  },
];

/** upstream RunTestCoreResourceEnqueue's profile: the case's plugins in multiPoint, every other disabled. */
function configFor(enablePlugins: string[] | undefined, registry: Registry): KubeSchedulerConfiguration {
  const config = enablePlugins
    ? configOf(
        `profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      enabled: [${["PrioritySort", "DefaultBinder", ...enablePlugins].map((n) => `{ name: ${n} }`).join(", ")}]
      disabled: [{ name: "*" }]
`,
        registry,
      )
    : defaultConfig({ registry });
  // upstream WithPodInitialBackoffSeconds(0) / WithPodMaxBackoffSeconds(0): a scheduler option,
  // below what configuration validation accepts.
  return { ...config, podInitialBackoffSeconds: 0, podMaxBackoffSeconds: 0 };
}

const names = (pods: readonly Pod[]) => pods.map((p) => p.metadata?.name ?? "").sort();

describe("TestCoreResourceEnqueue", () => {
  for (const tc of cases) {
    it(`${(tc.enablePlugins ?? []).join("/")}${tc.enablePlugins ? "/" : ""}${tc.name}`, async () => {
      const registry = tc.enableNodeDeclaredFeatures ? mockFeatureRegistry : inTreeRegistry;
      const features: Partial<Features> = { enableInPlacePodVerticalScaling: true };
      if (tc.enableDRAExtendedResource !== undefined) {
        features.enableDRAExtendedResource = tc.enableDRAExtendedResource;
      }
      const s = await openSession(
        configFor(tc.enablePlugins, registry),
        {
          nodes: tc.initialNodes,
          csiNodes: tc.initialCSINodes ?? [],
          storageClasses: tc.initialStorageClasses ?? [],
          persistentVolumes: tc.initialPVs ?? [],
          persistentVolumeClaims: tc.initialPVCs ?? [],
          pods: tc.initialPods ?? [],
        },
        { features, registry },
      );
      addPods(s, ...tc.pods);
      expect(s.sched.queue.podsInActiveQ()).toHaveLength(tc.pods.length);
      // Every pod is attempted once and stays pending, none back in activeQ.
      for (const _ of tc.pods) await s.sched.scheduleOne();
      await s.sched.waitForBindings();
      expect(names(s.sched.queue.podsInActiveQ()), "activeQ after the first attempts").toEqual([]);
      expect(names(s.sched.queue.pendingPods().pods)).toEqual(names(tc.pods));

      tc.trigger(s);
      expect(names(s.sched.queue.podsInActiveQ())).toEqual([...tc.wantRequeuedPods].sort());
      s.sched.close();
    });
  }
});

const pause = "registry.k8s.io/pause:3.10";
const scheduledNames = (s: SimulationSession) =>
  s.cluster.pods
    .list()
    .filter((p) => p.spec?.nodeName)
    .map((p) => p.metadata?.name ?? "")
    .sort();
/** Upstream creates the profile's Permit/Bind test plugins in a custom registry, as here. */
const withPlugin = (d: PluginDescriptor<unknown>): Registry => new Map([...inTreeRegistry, [d.name, d]]);

describe("TestSchedulingGates", () => {
  const cases: { name: string; pods: Pod[]; schedule: string[]; delete?: string[]; rmGates?: string[] }[] = [
    {
      name: "regular pods",
      pods: [pod("p1").container("pause").obj(), pod("p2").container("pause").obj()],
      schedule: ["p1", "p2"],
    },
    {
      name: "one pod carrying scheduling gates",
      pods: [pod("p1").schedulingGates(["foo"]).container("pause").obj(), pod("p2").container("pause").obj()],
      schedule: ["p2"],
    },
    {
      name: "two pod carrying scheduling gates, and remove gates of one pod",
      pods: [
        pod("p1").schedulingGates(["foo"]).container("pause").obj(),
        pod("p2").schedulingGates(["bar"]).container("pause").obj(),
        pod("p3").container("pause").obj(),
      ],
      schedule: ["p3"],
      rmGates: ["p2"],
    },
    {
      name: "gated pod schedulable after deleting the scheduled pod and removing gate",
      pods: [pod("p1").schedulingGates(["foo"]).container("pause").obj(), pod("p2").container("pause").obj()],
      schedule: ["p2"],
      delete: ["p2"],
      rmGates: ["p1"],
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const config = {
        ...defaultConfig({ registry: inTreeRegistry }),
        podInitialBackoffSeconds: 0,
        podMaxBackoffSeconds: 0,
      };
      const s = await openSession(config, { nodes: [node("node").obj()] });
      addPods(s, ...tc.pods);
      await s.drain();
      expect(scheduledNames(s)).toEqual([...tc.schedule].sort());
      for (const name of tc.delete ?? []) deletePod(s, name);
      // Gated pods are not in activeQ.
      expect(s.sched.queue.podsInActiveQ()).toEqual([]);
      for (const name of tc.rmGates ?? []) {
        const cur = s.cluster.pods.get("default", name);
        if (!cur) throw new Error(`${name} does not exist`);
        const { schedulingGates: _, ...spec } = cur.spec ?? { containers: [] };
        updatePod(s, { ...cur, spec: { ...spec, containers: spec.containers ?? [] } });
      }
      await s.drain();
      const want = [...tc.schedule, ...(tc.rmGates ?? [])].filter((n) => !(tc.delete ?? []).includes(n));
      expect(scheduledNames(s)).toEqual(want.sort());
      s.sched.close();
    });
  }
});

describe("TestCustomResourceEnqueue", () => {
  it("a pod rejected by a plugin registering a custom resource's events is retried after such an event", async () => {
    const foos = defineCustomResource({
      group: "example.com",
      version: "v1",
      resource: "foos",
      kind: "Foo",
      namespaced: true,
    });
    const fakeCRPlugin = definePlugin<unknown>({
      name: "fakeCRPlugin",
      customResources: [foos],
      factory: () => ({
        name: () => "fakeCRPlugin",
        filter: () => new Status(Code.Unschedulable, "always fail"),
        eventsToRegister: (): ClusterEventWithHint[] => [
          { event: { resource: "foos.v1.example.com", actionType: ActionType.All } },
        ],
      }),
    });
    const registry = withPlugin(fakeCRPlugin);
    const config = {
      ...configOf(
        `profiles:
- schedulerName: default-scheduler
  plugins:
    filter: { enabled: [{ name: fakeCRPlugin }] }
`,
        registry,
      ),
      podInitialBackoffSeconds: 0,
      podMaxBackoffSeconds: 0,
    };
    const s = await openSession(config, { nodes: [node("fake-node").obj()] }, { registry });
    addPods(s, pod("fake-pod").container(pause).obj());
    await s.sched.scheduleOne();
    await s.sched.waitForBindings();
    expect(s.lastFailure.get("default/fake-pod")?.reason).toBe("Unschedulable");
    expect(s.sched.queue.podsInActiveQ()).toEqual([]);

    // A Custom Resource event moves the pod from the unschedulable pool to activeQ.
    s.cluster.applyCustom(foos, {
      apiVersion: "example.com/v1",
      kind: "Foo",
      metadata: { name: "foo1", namespace: "default" },
    });
    expect(names(s.sched.queue.podsInActiveQ())).toEqual(["fake-pod"]);
    await s.sched.scheduleOne();
    expect(s.attempts.get("default/fake-pod")).toBe(2);
    s.sched.close();
  });
});

describe("TestRequeueByBindFailure", () => {
  it("a pod whose bind failed is retried without any cluster event and scheduled at the second bind", async () => {
    // upstream firstFailBindPlugin: the first Bind call errors, later ones bind as DefaultBinder.
    let counter = 0;
    const firstFailBindPlugin = definePlugin<unknown>({
      name: "firstFailBindPlugin",
      factory: async (args, handle) => {
        const binder = await (inTreeRegistry
          .get("DefaultBinder")
          ?.factory(args, handle) as Promise<BindPlugin>);
        return {
          name: () => "firstFailBindPlugin",
          bind: async (state: CycleState, p: Pod, nodeName: string) => {
            if (counter === 0) {
              counter++;
              return new Status(Code.Error, "firstFailBindPlugin rejects the Pod");
            }
            return binder.bind(state, p, nodeName);
          },
        };
      },
    });
    const registry = withPlugin(firstFailBindPlugin);
    const config = {
      ...configOf(
        `profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      enabled: [{ name: firstFailBindPlugin }]
      disabled: [{ name: DefaultBinder }]
`,
        registry,
      ),
      podInitialBackoffSeconds: 0,
      podMaxBackoffSeconds: 0,
    };
    const s = await openSession(config, { nodes: [node("fake-node").obj()] }, { registry });
    addPods(s, pod("pod-1").container(pause).obj());
    await s.drain();
    expect(s.cluster.pods.get("default", "pod-1")?.spec?.nodeName).toBe("fake-node");
    // The first binding failed, and the pod was scheduled by the second.
    expect(counter).toBe(1);
    expect(s.attempts.get("default/pod-1")).toBe(2);
    s.sched.close();
  });
});

describe("TestRequeueByPermitRejection", () => {
  it("a pod rejected at Permit is requeued by the events of its scheduling cycle's number", async () => {
    let queueingHintCalledCounter = 0;
    const fakePermitPluginName = "fakePermitPlugin";
    const fakePermitPlugin = definePlugin<unknown>({
      name: fakePermitPluginName,
      factory: () => ({
        name: () => fakePermitPluginName,
        permit: () => ({ status: new Status(Code.Wait), timeoutMs: 30_000 }),
        eventsToRegister: (): ClusterEventWithHint[] => [
          {
            event: { resource: EventResource.Node, actionType: ActionType.UpdateNodeLabel },
            queueingHintFn: () => {
              queueingHintCalledCounter++;
              return QueueingHint.Queue;
            },
          },
        ],
      }),
    });
    const registry = withPlugin(fakePermitPlugin);
    const config = {
      ...configOf(
        `profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      enabled: [{ name: ${fakePermitPluginName} }]
`,
        registry,
      ),
      podInitialBackoffSeconds: 0,
      podMaxBackoffSeconds: 0,
    };
    const s = await openSession(config, { nodes: [node("fake-node").obj()] }, { registry });
    const fwk = s.sched.profiles.get("default-scheduler");
    if (!fwk) throw new Error("no default profile");
    const waiting = (name: string, f: (wp: WaitingPod) => void) =>
      fwk.iterateOverWaitingPods((wp) => {
        if (wp.getPod().metadata?.name === name) f(wp);
      });
    const settle = () => new Promise((r) => setTimeout(r, 0));

    addPods(s, pod("pod-1").container(pause).obj());
    await s.sched.scheduleOne(); // pod-1 waits at Permit
    // A NodeUpdate event while pod-1 is in its binding cycle.
    updateNode(s, node("fake-node").label("updated", "").obj());
    // A second pod moves the scheduling cycle on.
    addPods(s, pod("pod-2").container(pause).obj());
    await s.sched.scheduleOne(); // pod-2 waits at Permit
    // pod-1 is rejected at Permit; the NodeUpdate event of its cycle requeues it.
    waiting("pod-1", (wp) => wp.reject(fakePermitPluginName, "fakePermitPlugin rejects the Pod"));
    await settle();
    waiting("pod-2", (wp) => wp.allow(fakePermitPluginName));
    await settle();
    expect(s.cluster.pods.get("default", "pod-2")?.spec?.nodeName).toBe("fake-node");

    expect(names(s.sched.queue.podsInActiveQ())).toEqual(["pod-1"]);
    await s.sched.scheduleOne(); // pod-1 is scheduled again and waits at Permit
    let pod1Found = false;
    waiting("pod-1", (wp) => {
      pod1Found = true;
      wp.allow(fakePermitPluginName);
    });
    expect(pod1Found).toBe(true);
    await s.sched.waitForBindings();
    expect(s.cluster.pods.get("default", "pod-1")?.spec?.nodeName).toBe("fake-node");
    expect(queueingHintCalledCounter).toBe(1);
    s.sched.close();
  });
});

describe("TestPopFromBackoffQWhenActiveQEmpty", () => {
  it("a pod in backoffQ is scheduled when activeQ is empty (PopFromBackoffQ)", async () => {
    // A backoff of 1000 s keeps the pod in backoffQ after it is requeued.
    const config = {
      ...defaultConfig({ registry: inTreeRegistry }),
      podInitialBackoffSeconds: 1000,
      podMaxBackoffSeconds: 1000,
    };
    const s = await openSession(config, { nodes: [node("node").obj()] });
    addPods(s, pod("pod").nodeAffinityIn("foo", ["bar"]).container(pause).obj());
    await s.sched.scheduleOne();
    await s.sched.waitForBindings();
    expect(s.lastFailure.get("default/pod")?.reason).toBe("Unschedulable");

    create(s, { nodes: [node("node-schedulable").label("foo", "bar").obj()] });
    expect(s.sched.queue.counts().backoff).toBe(1);
    expect(s.sched.queue.podsInActiveQ()).toEqual([]);
    await s.sched.scheduleOne();
    await s.sched.waitForBindings();
    expect(s.cluster.pods.get("default", "pod")?.spec?.nodeName).toBe("node-schedulable");
    s.sched.close();
  });
});
