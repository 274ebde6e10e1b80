// Shared pieces of the integration ports (test/integration/scheduler upstream): the cluster an
// integration test builds through the API server becomes the objects of one simulate() run, with
// the same configuration, on the assembled scheduler users run.
import type {
  CSINode,
  Namespace,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodDisruptionBudget,
  PriorityClass,
  Service,
  StorageClass,
} from "@kubesched/api";
import { type KubeSchedulerConfiguration, loadConfig } from "@kubesched/config";
import type { Features, Registry } from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger } from "@kubesched/testing";
import { admit } from "../admission";
import type { K8sObject, SupportedKind } from "../in-memory-cluster";
import { isClusterObject, type SourcedObject } from "../load";
import {
  openSimulation,
  type PodResult,
  type SimulationResult,
  type SimulationSession,
  simulate,
} from "../simulate";

export interface IntegrationCluster {
  nodes?: readonly Node[];
  /** Pods with spec.nodeName run there; the others are scheduled in this order. */
  pods?: readonly Pod[];
  /** Namespaces by name, with their labels (upstream's tests create their namespace first). */
  namespaces?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  services?: readonly Service[];
  priorityClasses?: readonly PriorityClass[];
  podDisruptionBudgets?: readonly PodDisruptionBudget[];
  storageClasses?: readonly StorageClass[];
  csiNodes?: readonly CSINode[];
  persistentVolumes?: readonly PersistentVolume[];
  persistentVolumeClaims?: readonly PersistentVolumeClaim[];
}

/** The objects of a cluster, as the snapshot loader hands them to simulate(). */
export function objectsOf(c: IntegrationCluster): SourcedObject[] {
  const out: SourcedObject[] = [];
  const add = (kind: SupportedKind, obj: unknown) =>
    out.push({ kind, obj: obj as K8sObject, origin: `integration ${kind}` });
  for (const [name, labels] of Object.entries(c.namespaces ?? {})) {
    add("Namespace", { apiVersion: "v1", kind: "Namespace", metadata: { name, labels } } satisfies Namespace);
  }
  for (const pc of c.priorityClasses ?? []) add("PriorityClass", pc);
  for (const n of c.nodes ?? []) add("Node", n);
  for (const s of c.services ?? []) add("Service", s);
  for (const pdb of c.podDisruptionBudgets ?? []) add("PodDisruptionBudget", pdb);
  for (const sc of c.storageClasses ?? []) add("StorageClass", sc);
  for (const cn of c.csiNodes ?? []) add("CSINode", cn);
  for (const pv of c.persistentVolumes ?? []) add("PersistentVolume", pv);
  for (const pvc of c.persistentVolumeClaims ?? []) {
    add("PersistentVolumeClaim", { ...pvc, metadata: { namespace: "default", ...pvc.metadata } });
  }
  for (const p of c.pods ?? []) add("Pod", { ...p, metadata: { namespace: "default", ...p.metadata } });
  return out;
}

/** A KubeSchedulerConfiguration (v1 YAML) decoded and defaulted as the CLI does. */
export function configOf(yaml: string, registry: Registry = inTreeRegistry): KubeSchedulerConfiguration {
  return loadConfig(`apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n${yaml}`, {
    registry,
  });
}

/**
 * upstream initTestSchedulerForScoringTests: every PreScore and Score plugin disabled but the one
 * under test (weight 1); Filter plugins stay the default ones.
 */
export function scoringConfig(scorePlugin: string, preScorePlugin = ""): KubeSchedulerConfiguration {
  const preScore = preScorePlugin ? `enabled: [{ name: ${preScorePlugin} }], ` : "";
  return configOf(`profiles:
- schedulerName: default-scheduler
  plugins:
    preScore: { ${preScore}disabled: [{ name: "*" }] }
    score: { enabled: [{ name: ${scorePlugin}, weight: 1 }], disabled: [{ name: "*" }] }
`);
}

/** Runs the cluster through simulate() with the in-tree registry. */
export async function run(
  config: KubeSchedulerConfiguration,
  cluster: IntegrationCluster,
  features: Partial<Features> = {},
): Promise<SimulationResult> {
  return simulate({
    config,
    registry: inTreeRegistry,
    objects: objectsOf(cluster),
    logger: recordingLogger(),
    features,
  });
}

/** One pending pod's result, by name. */
export function podResult(r: SimulationResult, name: string): PodResult {
  const p = r.pods.find((x) => x.name === name);
  if (!p)
    throw new Error(
      `pod ${name} is not in the result (pending pods: ${r.pods.map((x) => x.name).join(", ")})`,
    );
  return p;
}

/**
 * A running simulation for tests that change the cluster between scheduling cycles (upstream's
 * queueing tests): the cluster's objects applied and its pending pods added, not yet scheduled.
 */
export async function openSession(
  config: KubeSchedulerConfiguration,
  cluster: IntegrationCluster,
  opts: { features?: Partial<Features>; registry?: Registry; deleteLatencyMs?: number } = {},
): Promise<SimulationSession> {
  const { session, pending } = await openSimulation(
    {
      config,
      registry: opts.registry ?? inTreeRegistry,
      logger: recordingLogger(),
      features: opts.features ?? {},
      ...(opts.deleteLatencyMs !== undefined ? { deleteLatencyMs: opts.deleteLatencyMs } : {}),
    },
    admit(objectsOf(cluster)),
  );
  for (const p of pending) session.addPending(p);
  return session;
}

/**
 * Creates a cluster's objects in a running session as the API server would admit them (pending
 * pods enter the queue, pods with spec.nodeName run there).
 */
export function create(session: SimulationSession, cluster: IntegrationCluster): void {
  for (const o of admit(objectsOf(cluster))) {
    if (!isClusterObject(o)) throw new Error(`${o.origin}: only scheduler objects are created here`);
    if (o.kind === "Pod" && !(o.obj as Pod).spec?.nodeName) session.addPending(o.obj as Pod);
    else session.cluster.apply(o.kind, o.obj);
  }
}

/** Adds pods (pending or running) to a session as the API server would admit them. */
export function addPods(session: SimulationSession, ...pods: Pod[]): void {
  create(session, { pods });
}

/**
 * A pod update through the API (upstream `Pods().Update` or the resize subresource): labels and
 * spec from `pod`, the rest (UID, status) as stored.
 */
export function updatePod(session: SimulationSession, pod: Pod): void {
  const [admitted] = admit(objectsOf({ pods: [pod] }));
  const next = admitted?.obj as Pod;
  const cur = session.cluster.pods.get(next.metadata?.namespace ?? "", next.metadata?.name ?? "");
  if (!cur) throw new Error(`pod ${next.metadata?.name} does not exist`);
  const metadata = { ...cur.metadata };
  if (next.metadata?.labels) metadata.labels = next.metadata.labels;
  else delete metadata.labels;
  const updated: Pod = { ...cur, metadata, spec: next.spec ?? { containers: [] } };
  session.cluster.apply("Pod", updated);
}

/** A node update through the API (upstream `Nodes().Update`): labels and spec from `node`, status as stored. */
export function updateNode(session: SimulationSession, node: Node): void {
  const cur = currentNode(session, node);
  const metadata = { ...cur.metadata };
  if (node.metadata?.labels) metadata.labels = node.metadata.labels;
  else delete metadata.labels;
  const updated: Node = { ...cur, metadata, spec: node.spec ?? {} };
  session.cluster.apply("Node", updated);
}

/** A node status update (upstream `Nodes().UpdateStatus`): status from `node`, the rest as stored. */
export function updateNodeStatus(session: SimulationSession, node: Node): void {
  const cur = currentNode(session, node);
  const updated: Node = { ...cur, status: node.status ?? {} };
  session.cluster.apply("Node", updated);
}

function currentNode(session: SimulationSession, node: Node): Node {
  const cur = session.cluster.nodes.get(node.metadata?.name ?? "");
  if (!cur) throw new Error(`node ${node.metadata?.name} does not exist`);
  return cur;
}

/** Deletes a pod by name, as `Pods().Delete` with a zero grace period. */
export function deletePod(session: SimulationSession, name: string, namespace = "default"): void {
  const cur = session.cluster.pods.get(namespace, name);
  if (!cur) throw new Error(`pod ${namespace}/${name} does not exist`);
  session.cluster.delete("Pod", cur);
}

/** The node a pod is bound to in the session's cluster (undefined while it is pending). */
export function boundNode(
  session: SimulationSession,
  name: string,
  namespace = "default",
): string | undefined {
  return session.cluster.pods.get(namespace, name)?.spec?.nodeName || undefined;
}
