// scheduler_perf's node and pod templates (test/integration/scheduler_perf/templates/*.yaml and
// makeBaseNode / makeBasePod), built as objects. Names stand in for generateName: the prefix
// plus a 5-character suffix from a counter (upstream's suffix is random; names only matter as
// identities here).
import type { Node, Pod, PodSpec, Service } from "@kubesched/api";

export const hostnameLabel = "kubernetes.io/hostname";
export const zoneLabel = "topology.kubernetes.io/zone";
const pauseImage = "registry.k8s.io/pause:3.10.1";

let seq = 0;
/** generateName: prefix + 5 base-36 characters, unique within the process. */
export function generateName(prefix: string): string {
  seq++;
  return prefix + seq.toString(36).padStart(5, "0");
}

/**
 * makeBaseNode / templates/node-default.yaml: capacity = allocatable = pods 110, cpu 4,
 * memory 32Gi, Ready, Running; `kubernetes.io/hostname` as PrepareNodes sets it, plus the
 * optional label (labelNodePrepareStrategy) the workload asks for.
 */
export function makeNode(extraLabels?: Record<string, string>): Node {
  const name = generateName("scheduler-perf-");
  const capacity = { pods: "110", cpu: "4", memory: "32Gi" };
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: { name, uid: name, labels: { [hostnameLabel]: name, ...extraLabels } },
    spec: {},
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
  | "pod-with-pod-affinity"
  | "pod-with-preferred-pod-affinity"
  | "pod-with-preferred-pod-anti-affinity"
  | "pod-with-node-affinity"
  | "pod-with-topology-spreading"
  | "pod-with-preferred-topology-spreading"
  | "pod-with-label"
  | "pod-low-priority"
  | "pod-high-priority"
  | "pod-high-priority-large-cpu";

const defaultResources = {
  limits: { cpu: "100m", memory: "500Mi" },
  requests: { cpu: "100m", memory: "500Mi" },
};

function container(resources?: NonNullable<PodSpec["containers"][number]["resources"]>) {
  return {
    image: pauseImage,
    name: "pause",
    ports: [{ containerPort: 80 }],
    ...(resources ? { resources } : {}),
  };
}

function affinityTerm(color: string, topologyKey: string) {
  return {
    labelSelector: { matchLabels: { color } },
    topologyKey,
    namespaces: ["sched-1", "sched-0"],
  };
}

interface Shape {
  generateName: string;
  labels?: Record<string, string>;
  spec: Omit<PodSpec, "containers">;
  resources?: NonNullable<PodSpec["containers"][number]["resources"]>;
  noResources?: boolean;
}

function shape(t: PodTemplateName): Shape {
  switch (t) {
    case "pod-default":
      return { generateName: "pod-", spec: {} };
    case "pod-with-pod-anti-affinity":
      return {
        generateName: "anti-affinity-pod-",
        labels: { color: "green" },
        spec: {
          affinity: {
            podAntiAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [affinityTerm("green", hostnameLabel)],
            },
          },
        },
      };
    case "pod-with-pod-affinity":
      return {
        generateName: "affinity-pod-",
        labels: { color: "blue" },
        spec: {
          affinity: {
            podAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [affinityTerm("blue", zoneLabel)],
            },
          },
        },
      };
    case "pod-with-preferred-pod-affinity":
      return {
        generateName: "preferred-affinity-pod-",
        labels: { color: "red" },
        spec: {
          affinity: {
            podAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [
                { podAffinityTerm: affinityTerm("red", hostnameLabel), weight: 1 },
              ],
            },
          },
        },
      };
    case "pod-with-preferred-pod-anti-affinity":
      return {
        generateName: "preferred-anti-affinity-pod-",
        labels: { color: "yellow" },
        spec: {
          affinity: {
            podAntiAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [
                { podAffinityTerm: affinityTerm("yellow", hostnameLabel), weight: 1 },
              ],
            },
          },
        },
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
    case "pod-with-preferred-topology-spreading":
      return {
        generateName: "spreading-pod-",
        labels: { color: "blue" },
        spec: {
          topologySpreadConstraints: [
            {
              maxSkew: 5,
              topologyKey: zoneLabel,
              whenUnsatisfiable: t === "pod-with-topology-spreading" ? "DoNotSchedule" : "ScheduleAnyway",
              labelSelector: { matchLabels: { color: "blue" } },
            },
          ],
        },
      };
    case "pod-with-label":
      return { generateName: "pod-", labels: { app: "scheduler-perf" }, spec: {}, noResources: true };
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
  }
}

/**
 * A pod from template `t` in `namespace`, as the API server would store it (defaults applied:
 * schedulerName, preemptionPolicy, priority 0 when unset — the Priority admission plugin is
 * off in scheduler_perf, pods set `priority` directly).
 */
export function makePod(t: PodTemplateName, namespace: string): Pod {
  const s = shape(t);
  const name = generateName(s.generateName);
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      namespace,
      uid: `${namespace}/${name}`,
      ...(s.labels ? { labels: { ...s.labels } } : {}),
    },
    spec: {
      priority: 0,
      ...s.spec,
      schedulerName: "default-scheduler",
      preemptionPolicy: "PreemptLowerPriority",
      containers: [container(s.noResources ? undefined : (s.resources ?? defaultResources))],
    },
    status: { phase: "Pending" },
  };
}

/** templates/service.yaml: selector app=scheduler-perf, port 80 -> 8000. */
export function makeService(namespace: string): Service {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: generateName("service-"), namespace, uid: generateName("service-uid-") },
    spec: { selector: { app: "scheduler-perf" }, ports: [{ port: 80, targetPort: 8000 }] },
  };
}
