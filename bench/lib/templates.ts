// scheduler_perf's node, pod, namespace and Service templates
// (test/integration/scheduler_perf/templates/*.yaml, makeBaseNode / makeBasePod, the PV and PVC
// templates and CreatePodWithPersistentVolume of test/utils), built as objects. Names stand in
// for generateName: the prefix plus a 5-character suffix from a counter (upstream's suffix is
// random; names only matter as identities here).
import type {
  Namespace,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodSpec,
  Service,
} from "@kubesched/api";

export const hostnameLabel = "kubernetes.io/hostname";
export const zoneLabel = "topology.kubernetes.io/zone";
/** The node templates/node-with-name.yaml creates: the one node daemonset-pod.yaml pods may use. */
export const namedNode = "scheduler-perf-node";
const pauseImage = "registry.k8s.io/pause:3.10.1";

let seq = 0;
/** generateName: prefix + 5 base-36 characters, unique within the process. */
export function generateName(prefix: string): string {
  seq++;
  return prefix + seq.toString(36).padStart(5, "0");
}

export type NodeTemplateName = "node-default" | "node-with-name" | "node-with-taint" | "churn/node-default";

/**
 * A node from a template, with `kubernetes.io/hostname` as PrepareNodes sets it plus the label
 * labelNodePrepareStrategy gives it. Allocatable is capacity (the API server's defaulting).
 * - node-default (= makeBaseNode): pods 110, cpu 4, memory 32Gi, Ready, Running.
 * - node-with-name: `scheduler-perf-node`, pods 90000, cpu 4, memory 32Gi.
 * - node-with-taint: generateName taint-node-, taint {key: foo, effect: NoSchedule}.
 * - churn/node-default: generateName node-churn-, capacity pods "0" only, no labels (the churn op
 *   creates it through the API, not through PrepareNodes).
 */
export function makeNode(
  extraLabels?: Record<string, string>,
  template: NodeTemplateName = "node-default",
): Node {
  const name =
    template === "node-with-name"
      ? namedNode
      : generateName(
          template === "node-with-taint"
            ? "taint-node-"
            : template === "churn/node-default"
              ? "node-churn-"
              : "scheduler-perf-",
        );
  const capacity: Record<string, string> =
    template === "churn/node-default"
      ? { pods: "0" }
      : { pods: template === "node-with-name" ? "90000" : "110", cpu: "4", memory: "32Gi" };
  const labels = template === "churn/node-default" ? undefined : { [hostnameLabel]: name, ...extraLabels };
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: { name, uid: name, ...(labels ? { labels } : {}) },
    spec: template === "node-with-taint" ? { taints: [{ key: "foo", effect: "NoSchedule" }] } : {},
    status: {
      capacity,
      allocatable: { ...capacity },
      conditions: [{ type: "Ready", status: "True" }],
      phase: "Running",
    },
  };
}

export type PodTemplateName =
  | "pod-default"
  | "pod-with-pod-anti-affinity"
  | "pod-with-pod-anti-affinity-label"
  | "pod-with-pod-affinity"
  | "pod-with-preferred-pod-affinity"
  | "pod-with-preferred-pod-anti-affinity"
  | "pod-anti-affinity-ns-selector"
  | "pod-affinity-ns-selector"
  | "pod-preferred-affinity-ns-selector"
  | "pod-preferred-anti-affinity-ns-selector"
  | "pod-with-node-affinity"
  | "pod-with-topology-spreading"
  | "pod-with-preferred-topology-spreading"
  | "pod-with-node-inclusion-policy"
  | "pod-with-label"
  | "pod-with-secret-volume"
  | "pod-low-priority"
  | "pod-high-priority"
  | "pod-high-priority-large-cpu"
  | "daemonset-pod"
  | "light-pod"
  | "gated-pod"
  | "pod-with-finalizer"
  | "pod-hostport-80"
  | "pod-saturation";

const defaultResources = {
  limits: { cpu: "100m", memory: "500Mi" },
  requests: { cpu: "100m", memory: "500Mi" },
};

type Resources = NonNullable<PodSpec["containers"][number]["resources"]>;

function container(resources: Resources | undefined, port: boolean, hostPort?: number) {
  return {
    image: pauseImage,
    name: "pause",
    ...(port ? { ports: [{ containerPort: 80, ...(hostPort ? { hostPort } : {}) }] } : {}),
    ...(resources ? { resources } : {}),
  };
}

const devops = { matchLabels: { team: "devops" } };

/** An affinity term over `color`, in the listed namespaces or those namespace-with-labels makes. */
function affinityTerm(color: string, topologyKey: string, nsSelector = false) {
  return {
    labelSelector: { matchLabels: { color } },
    topologyKey,
    ...(nsSelector ? { namespaceSelector: devops } : { namespaces: ["sched-1", "sched-0"] }),
  };
}

interface Shape {
  generateName: string;
  labels?: Record<string, string>;
  finalizers?: string[];
  spec: Omit<PodSpec, "containers">;
  /** Container resources; undefined: pod-default's 100m / 500Mi; null: none. */
  resources?: Resources | null;
  /** The pause container exposes port 80 (all templates but the light ones). */
  noPort?: boolean;
  /** Port 80 is also a host port (pod-hostport-80). */
  hostPort?: number;
}

function requiredAntiAffinity(color: string, nsSelector: boolean): Omit<PodSpec, "containers"> {
  return {
    affinity: {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [affinityTerm(color, hostnameLabel, nsSelector)],
      },
    },
  };
}

function requiredAffinity(color: string, nsSelector: boolean): Omit<PodSpec, "containers"> {
  return {
    affinity: {
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [affinityTerm(color, zoneLabel, nsSelector)],
      },
    },
  };
}

function preferred(kind: "podAffinity" | "podAntiAffinity", color: string, nsSelector: boolean) {
  return {
    affinity: {
      [kind]: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          { podAffinityTerm: affinityTerm(color, hostnameLabel, nsSelector), weight: 1 },
        ],
      },
    },
  };
}

function spreading(whenUnsatisfiable: "DoNotSchedule" | "ScheduleAnyway"): Omit<PodSpec, "containers"> {
  return {
    topologySpreadConstraints: [
      {
        maxSkew: 5,
        topologyKey: zoneLabel,
        whenUnsatisfiable,
        labelSelector: { matchLabels: { color: "blue" } },
      },
    ],
  };
}

function shape(t: PodTemplateName): Shape {
  switch (t) {
    case "pod-default":
      return { generateName: "pod-", spec: {} };
    case "pod-with-pod-anti-affinity":
      return {
        generateName: "anti-affinity-pod-",
        labels: { color: "green" },
        spec: requiredAntiAffinity("green", false),
      };
    case "pod-with-pod-anti-affinity-label":
      return { generateName: "anti-affinity-matching-pod-", labels: { color: "green" }, spec: {} };
    case "pod-with-pod-affinity":
      return {
        generateName: "affinity-pod-",
        labels: { color: "blue" },
        spec: requiredAffinity("blue", false),
      };
    case "pod-with-preferred-pod-affinity":
      return {
        generateName: "preferred-affinity-pod-",
        labels: { color: "red" },
        spec: preferred("podAffinity", "red", false),
      };
    case "pod-with-preferred-pod-anti-affinity":
      return {
        generateName: "preferred-anti-affinity-pod-",
        labels: { color: "yellow" },
        spec: preferred("podAntiAffinity", "yellow", false),
      };
    case "pod-anti-affinity-ns-selector":
      return {
        generateName: "anti-affinity-pod-",
        labels: { color: "green" },
        spec: requiredAntiAffinity("green", true),
      };
    case "pod-affinity-ns-selector":
      return {
        generateName: "affinity-pod-",
        labels: { color: "blue" },
        spec: requiredAffinity("blue", true),
      };
    case "pod-preferred-affinity-ns-selector":
      return {
        generateName: "preferred-affinity-pod-",
        labels: { color: "red" },
        spec: preferred("podAffinity", "red", true),
      };
    case "pod-preferred-anti-affinity-ns-selector":
      return {
        generateName: "anti-affinity-pod-",
        labels: { color: "green" },
        spec: preferred("podAntiAffinity", "green", true),
      };
    case "pod-with-node-affinity":
      return {
        generateName: "node-affinity-",
        spec: {
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchExpressions: [{ key: zoneLabel, operator: "In", values: ["zone1", "zone2"] }] },
                ],
              },
            },
          },
        },
      };
    case "pod-with-topology-spreading":
      return { generateName: "spreading-pod-", labels: { color: "blue" }, spec: spreading("DoNotSchedule") };
    case "pod-with-preferred-topology-spreading":
      return { generateName: "spreading-pod-", labels: { color: "blue" }, spec: spreading("ScheduleAnyway") };
    case "pod-with-node-inclusion-policy":
      // The template spells the policies `NodeAffinityPolicy` / `NodeTaintsPolicy`; Go's JSON
      // decoding matches field names case-insensitively, so both are set.
      return {
        generateName: "spreading-pod-with-node-inclusion-policy-",
        labels: { foo: "bar" },
        spec: {
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: hostnameLabel,
              whenUnsatisfiable: "DoNotSchedule",
              nodeAffinityPolicy: "Honor",
              nodeTaintsPolicy: "Honor",
              labelSelector: { matchLabels: { foo: "bar" } },
            },
          ],
        },
      };
    case "pod-with-label":
      return { generateName: "pod-", labels: { app: "scheduler-perf" }, spec: {}, resources: null };
    case "pod-with-secret-volume":
      return {
        generateName: "secret-volume-",
        spec: { volumes: [{ name: "secret", secret: { secretName: "secret" } }] },
      };
    case "pod-low-priority":
      return {
        generateName: "pod-",
        spec: { terminationGracePeriodSeconds: 0 },
        resources: { limits: { cpu: "900m", memory: "500Mi" }, requests: { cpu: "900m", memory: "500Mi" } },
      };
    case "pod-high-priority":
      return {
        generateName: "pod-",
        spec: { priority: 10 },
        resources: { limits: { cpu: "3000m", memory: "500Mi" }, requests: { cpu: "3000m", memory: "500Mi" } },
      };
    case "pod-high-priority-large-cpu":
      return {
        generateName: "pod-h-",
        spec: { priority: 10 },
        resources: { requests: { cpu: "9", memory: "500Mi" } },
      };
    case "daemonset-pod":
      return {
        generateName: "daemonset-",
        spec: {
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchFields: [{ key: "metadata.name", operator: "In", values: [namedNode] }] },
                ],
              },
            },
          },
        },
        resources: null,
        noPort: true,
      };
    case "light-pod":
      return {
        generateName: "light-pod-",
        spec: { terminationGracePeriodSeconds: 0 },
        resources: null,
        noPort: true,
      };
    case "gated-pod":
      return {
        generateName: "gated-pod-",
        spec: { schedulingGates: [{ name: "test.k8s.io/hold" }] },
        resources: null,
        noPort: true,
      };
    case "pod-with-finalizer":
      return {
        generateName: "pod-",
        finalizers: ["test.k8s.io/finalizer"],
        spec: {},
        resources: null,
        noPort: true,
      };
    // batching/: templates/pod-hostport-80.yaml (one per node) and pod-saturation.yaml (3 of a
    // node's 4 CPUs: one per node).
    case "pod-hostport-80":
      return {
        generateName: "pod-hostport-80-",
        spec: {},
        resources: { requests: { cpu: "100m", memory: "100Mi" } },
        hostPort: 80,
      };
    case "pod-saturation":
      return {
        generateName: "pod-saturation-",
        spec: {},
        resources: { requests: { cpu: "3", memory: "1Gi" } },
        noPort: true,
      };
  }
}

/**
 * A pod from template `t` in `namespace`, as the API server would store it (defaults applied:
 * schedulerName, preemptionPolicy, priority 0 when unset — the Priority admission plugin is
 * off in scheduler_perf, pods set `priority` directly).
 */
export function makePod(t: PodTemplateName, namespace: string, extraLabels?: Record<string, string>): Pod {
  const s = shape(t);
  const name = generateName(s.generateName);
  const labels = s.labels || extraLabels ? { ...s.labels, ...extraLabels } : undefined;
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      namespace,
      uid: `${namespace}/${name}`,
      ...(labels ? { labels } : {}),
      ...(s.finalizers ? { finalizers: [...s.finalizers] } : {}),
    },
    spec: {
      priority: 0,
      ...s.spec,
      schedulerName: "default-scheduler",
      preemptionPolicy: "PreemptLowerPriority",
      containers: [
        container(
          s.resources === null ? undefined : (s.resources ?? defaultResources),
          !s.noPort,
          s.hostPort,
        ),
      ],
    },
    status: { phase: "Pending" },
  };
}

/**
 * CreatePodWithPersistentVolume (test/utils/runners.go) with pv-aws.yaml and pvc.yaml, pod `i` of
 * a createPods op: the claim `pvc-<i>` (ReadOnlyMany, 1Gi, annotated bind-completed) pre-bound
 * to the in-tree AWS EBS volume `<namespace>-vol-<i>` (volumeID `vol-<i>`, Retain), both Bound,
 * and the pod using the claim as volume `vol`.
 */
export function makePodWithPersistentVolume(
  t: PodTemplateName,
  namespace: string,
  i: number,
): { pv: PersistentVolume; pvc: PersistentVolumeClaim; pod: Pod } {
  const pvcName = `pvc-${i}`;
  const pvName = `${namespace}-vol-${i}`;
  const pv: PersistentVolume = {
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: { name: pvName, uid: pvName },
    spec: {
      accessModes: ["ReadOnlyMany"],
      awsElasticBlockStore: { volumeID: `vol-${i}` },
      capacity: { storage: "1Gi" },
      persistentVolumeReclaimPolicy: "Retain",
      claimRef: { kind: "PersistentVolumeClaim", namespace, name: pvcName, apiVersion: "v1" },
    },
    status: { phase: "Bound" },
  };
  const pvc: PersistentVolumeClaim = {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: {
      name: pvcName,
      namespace,
      uid: `${namespace}/${pvcName}`,
      annotations: { "pv.kubernetes.io/bind-completed": "true" },
    },
    spec: { accessModes: ["ReadOnlyMany"], resources: { requests: { storage: "1Gi" } }, volumeName: pvName },
    status: { phase: "Bound" },
  };
  const pod = makePod(t, namespace);
  pod.spec = { ...pod.spec!, volumes: [{ name: "vol", persistentVolumeClaim: { claimName: pvcName } }] };
  return { pv, pvc, pod };
}

/** A namespace; namespace-with-labels.yaml labels it team=devops. */
export function makeNamespace(name: string, template?: "namespace-with-labels"): Namespace {
  return {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name, uid: name, ...(template ? { labels: { team: "devops" } } : {}) },
  };
}

/**
 * templates/service.yaml (selector app=scheduler-perf, port 80 -> 8000) and
 * churn/service-default.yaml (generateName service-churn-, selector app=foo, 8080 -> 8080).
 */
export function makeService(
  namespace: string,
  template: "service" | "churn/service-default" = "service",
): Service {
  const churn = template === "churn/service-default";
  const name = generateName(churn ? "service-churn-" : "service-");
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, namespace, uid: `${namespace}/${name}` },
    spec: churn
      ? { selector: { app: "foo" }, ports: [{ protocol: "TCP", port: 8080, targetPort: 8080 }] }
      : { selector: { app: "scheduler-perf" }, ports: [{ port: 80, targetPort: 8000 }] },
  };
}
