// The engine conformance suite: every plugin table that runs through @kubesched/testing's harness
// is replayed through the assembled scheduler — the in-memory cluster, queue, cache, framework and
// explain of `simulate()`, built by the functions production uses — and must decide the same:
// the same Filter status and reasons per node, the same normalized scores. Calls a full cycle
// cannot observe are counted, with why, and not compared.
import { appendFileSync } from "node:fs";
import type { Pod } from "@kubesched/api";
import {
  admit,
  type K8sObject,
  namespacedKinds,
  openSimulation,
  type SimulationResult,
  type SourcedObject,
  type SupportedKind,
  simulate,
} from "@kubesched/cluster";
import { defaultConfig, type KubeSchedulerConfiguration } from "@kubesched/config";
import type { Registry } from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { type EngineCall, recordingLogger, statusSummary } from "@kubesched/testing";

type Verdict =
  | { verdict: "same" }
  | { verdict: "unobservable"; why: string }
  | { verdict: "differs"; why: string };

const kinds: Record<string, SupportedKind> = {
  namespaces: "Namespace",
  services: "Service",
  replicaSets: "ReplicaSet",
  statefulSets: "StatefulSet",
  replicationControllers: "ReplicationController",
  podDisruptionBudgets: "PodDisruptionBudget",
  persistentVolumes: "PersistentVolume",
  persistentVolumeClaims: "PersistentVolumeClaim",
  storageClasses: "StorageClass",
  csiNodes: "CSINode",
  priorityClasses: "PriorityClass",
  resourceClaims: "ResourceClaim",
  resourceClaimTemplates: "ResourceClaimTemplate",
  resourceSlices: "ResourceSlice",
  deviceClasses: "DeviceClass",
};

const key = (p: Pod) => `${p.metadata?.namespace || "default"}/${p.metadata?.name ?? ""}`;

/** The engine's name for a harness node: a nameless node (there is at most one) gets one. */
const nodeName = (name: string) => name || "nameless-node";

/** What a replay runs: the call's cluster as objects, the profile as a configuration, the pod. */
interface ReplayInputs {
  config: KubeSchedulerConfiguration;
  registry: Registry;
  objects: SourcedObject[];
  pod: Pod;
}

/** The call's cluster, profile and pod as simulate() takes them; a string when not replayable. */
function replayInputs(call: EngineCall): ReplayInputs | string {
  const registry = new Map(call.registry);
  const binder = inTreeRegistry.get("DefaultBinder");
  if (!binder) throw new Error("DefaultBinder is not in the in-tree registry");
  registry.set(binder.name, binder);
  const plugins = structuredClone(call.profile.plugins);
  // Bind for real (the harness's binder only records), so the pod's outcome is the engine's.
  plugins.multiPoint.enabled = plugins.multiPoint.enabled.filter((e) => e.name !== "HarnessBinder");
  plugins.bind = { enabled: [{ name: binder.name }], disabled: [] };
  const base = defaultConfig({ registry });
  const config = {
    ...base,
    profiles: [{ ...call.profile, plugins, percentageOfNodesToScore: 100 }],
  };
  const nodeNames = new Set(call.nodes.map((n) => n.metadata?.name ?? ""));
  const objects: SourcedObject[] = [];
  // Tables mix an unset and an empty namespace for "the same namespace"; the API server puts
  // both in "default", and so does this replay, for every namespaced object alike.
  const add = (kind: SupportedKind, obj: unknown) => {
    const o = structuredClone(obj) as K8sObject;
    if (namespacedKinds.has(kind))
      o.metadata = { ...o.metadata, namespace: o.metadata?.namespace || "default" };
    objects.push({ kind, obj: o, origin: "harness" });
  };
  for (const [field, list] of Object.entries(call.objects)) {
    const kind = kinds[field];
    if (kind) for (const o of list as unknown[]) add(kind, o);
  }
  // Tables leave nodes nameless too; the engine binds by name, so the one nameless node gets one.
  for (const n of call.nodes)
    add("Node", n.metadata?.name ? n : { ...n, metadata: { ...n.metadata, name: nodeName("") } });
  // Upstream's tables leave most pods nameless; the cluster needs a key per pod.
  const named = (p: Pod, name: string): Pod => {
    const c = structuredClone(p);
    c.metadata = { ...c.metadata, name: c.metadata?.name || name };
    return c;
  };
  const pod = named(call.pod, "pod-under-test");
  if (pod.spec?.nodeName) {
    // Upstream's helpers put spec.nodeName on the pod under test (NodePorts' newPod(host, ...),
    // the resource tables' pods); only NodeName reads it, so the others decide the same on the
    // pending copy a cycle can schedule. For NodeName, a bound pod is never scheduled again.
    if (call.pluginName === "NodeName") return "the pod is already bound";
    pod.spec = { ...pod.spec, nodeName: "" };
    delete pod.spec.nodeName;
  }
  const seen = new Set<string>([key(pod)]);
  const uids = new Set<string>([pod.metadata?.uid ?? ""]);
  call.pods.forEach((p, i) => {
    // Running pods only: the harness lists pending pods too, which the engine would schedule.
    if (!p.spec?.nodeName || !nodeNames.has(p.spec.nodeName)) return;
    let c = named(p, `existing-pod-${i}`);
    // Builders give pods the same default name or UID; the cluster tells pods apart by both.
    if (seen.has(key(c))) c = { ...c, metadata: { ...c.metadata, name: `${c.metadata?.name}-${i}` } };
    const uid = c.metadata?.uid ?? "";
    if (uid === "" || uids.has(uid)) c = { ...c, metadata: { ...c.metadata, uid: `existing-pod-uid-${i}` } };
    uids.add(c.metadata?.uid ?? "");
    seen.add(key(c));
    add("Pod", c);
  });
  add("Pod", pod);
  return { config, registry, objects, pod };
}

/** Runs the call's pod through simulate() over the call's cluster and profile, with explain. */
async function replay(
  inputs: ReplayInputs,
  call: EngineCall,
): Promise<SimulationResult["pods"][number] | string> {
  const { config, registry, objects, pod } = inputs;
  let r: SimulationResult;
  try {
    r = await simulate({
      config,
      registry,
      objects,
      logger: recordingLogger(),
      features: call.features,
      ...(call.kubernetesVersion ? { kubernetesVersion: call.kubernetesVersion } : {}),
      explain: true,
      seed: 0,
    });
  } catch (e) {
    return `the cluster is not admissible: ${(e as Error).message.split("\n")[0]}`;
  }
  return r.pods.find((p) => `${p.namespace}/${p.name}` === key(pod)) ?? "the pod was not reported";
}

/**
 * The assembled scheduler's diagnostic pass (Scheduler.diagnoseFilters) on the call's cluster:
 * its first rejection per node must be the harness's Filter status there (plugin, code and
 * reasons), Success where it finds none. Only the diagnostic pass evaluates every node the call
 * covered, whatever PreFilter narrowing and the other plugins' rejections.
 */
async function checkDiagnosis(inputs: ReplayInputs, call: EngineCall): Promise<Verdict> {
  const { config, registry, objects, pod } = inputs;
  const { session, pending } = await openSimulation(
    {
      config,
      registry,
      logger: recordingLogger(),
      features: call.features,
      ...(call.kubernetesVersion ? { kubernetesVersion: call.kubernetesVersion } : {}),
      seed: 0,
    },
    admit(objects),
  );
  try {
    const admitted = pending.find((p) => key(p) === key(pod));
    const d = admitted && session.sched.diagnoseFilters(admitted);
    if (!d) return { verdict: "unobservable", why: "no profile for the pod" };
    // A rejected PreFilter is reported as such, and its plugin's Filter does not run in the pass
    // (tables still call it): the plugin's own PreFilter status is what to compare then.
    if (d.preFilter.some((p) => p.status !== null && !p.status.isSuccess() && !p.status.isSkip())) {
      const own = d.preFilter.find((p) => p.plugin === call.pluginName)?.status ?? null;
      const want = view(call.preFilterStatus);
      const got = view(own);
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        return {
          verdict: "differs",
          why: `diagnostic pass PreFilter: harness ${JSON.stringify(want)}, pass ${JSON.stringify(got)}`,
        };
      }
      return { verdict: "same" };
    }
    for (const [node, status] of call.statuses ?? []) {
      const n = d.nodes.find((x) => x.nodeName === nodeName(node));
      if (!n) continue;
      const first = n.rejections[0]?.status ?? null;
      const want = { ...view(status), plugin: status?.plugin ?? "" };
      const got = { ...view(first), plugin: first?.plugin ?? "" };
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        return {
          verdict: "differs",
          why: `diagnostic pass on ${node}: harness ${JSON.stringify(want)}, first rejection ${JSON.stringify(got)}`,
        };
      }
    }
    return { verdict: "same" };
  } finally {
    session.sched.close();
  }
}

const view = statusSummary;

export async function check(call: EngineCall): Promise<Verdict> {
  if (call.unobservable) return { verdict: "unobservable", why: call.unobservable };
  const inputs = replayInputs(call);
  if (typeof inputs === "string") return { verdict: "unobservable", why: inputs };
  const result = await replay(inputs, call);
  if (typeof result === "string") return { verdict: "unobservable", why: result };
  if (call.kind === "preEnqueue") {
    // A pod PreEnqueue gates is reported Gated with the gating plugin's message.
    const want = call.status ? view(call.status) : null;
    const gated = result.outcome === "Gated" && result.attempts === 0;
    if (!want) {
      return gated
        ? { verdict: "differs", why: `PreEnqueue: harness Success, engine gated (${result.message})` }
        : { verdict: "same" };
    }
    if (!gated)
      return { verdict: "differs", why: `PreEnqueue: harness ${want.code}, engine ${result.outcome}` };
    const msg = want.reasons.join(", ");
    return result.message === msg
      ? { verdict: "same" }
      : { verdict: "differs", why: `PreEnqueue: harness "${msg}", engine "${result.message}"` };
  }
  const e = result.explain;
  if (!e) {
    return {
      verdict: "unobservable",
      why: result.outcome === "Gated" ? "the pod was gated at PreEnqueue" : "no explanation recorded",
    };
  }
  const preFilter = e.preFilter[call.pluginName];
  if (call.kind === "preFilter") {
    const want = view(call.preFilterStatus);
    if (!preFilter) return { verdict: "unobservable", why: "the engine ran no PreFilter of the plugin" };
    const got = { code: preFilter.code, reasons: preFilter.reasons ?? [] };
    return got.code === want.code && JSON.stringify(got.reasons) === JSON.stringify(want.reasons)
      ? { verdict: "same" }
      : {
          verdict: "differs",
          why: `PreFilter: harness ${want.code} ${JSON.stringify(want.reasons)}, engine ${got.code} ${JSON.stringify(got.reasons)}`,
        };
  }
  if (call.kind === "filter") {
    const harnessPre = view(call.preFilterStatus);
    // The plugin's own PreFilter (Skip included) must agree first.
    if (
      preFilter &&
      preFilter.code !== harnessPre.code &&
      !(harnessPre.code === "Success" && preFilter.code === "Success")
    ) {
      return { verdict: "differs", why: `PreFilter: harness ${harnessPre.code}, engine ${preFilter.code}` };
    }
    if (!call.statuses || call.statuses.size === 0)
      return { verdict: "unobservable", why: "PreFilter did not succeed" };
    const diagnosis = await checkDiagnosis(inputs, call);
    if (diagnosis.verdict === "differs") return diagnosis;
    let compared = 0;
    for (const [node, status] of call.statuses) {
      const got = e.filter[nodeName(node)]?.[call.pluginName];
      if (!got) continue; // not evaluated: PreFilter narrowed the nodes, or an earlier plugin failed
      const want = view(status);
      if (got.code !== want.code || JSON.stringify(got.reasons ?? []) !== JSON.stringify(want.reasons)) {
        return {
          verdict: "differs",
          why: `Filter on ${node}: harness ${want.code} ${JSON.stringify(want.reasons)}, engine ${got.code} ${JSON.stringify(got.reasons ?? [])}`,
        };
      }
      compared++;
    }
    if (compared > 0) return { verdict: "same" };
    // PreFilter Skip in both: the framework skips the plugin's Filter on every node, in both.
    if (harnessPre.code === "Skip" && preFilter?.code === "Skip") return { verdict: "same" };
    return { verdict: "unobservable", why: "the plugin ran on none of the nodes" };
  }
  // score
  const scored = Object.keys(e.score ?? {});
  if (scored.length === 0)
    return { verdict: "unobservable", why: "the engine did not score (fewer than two feasible nodes)" };
  if (scored.slice().sort().join() !== call.nodeNames.map(nodeName).sort().join()) {
    return { verdict: "unobservable", why: "the engine scored another set of nodes (filters reject some)" };
  }
  if (call.preScoreStatus?.isSkip()) {
    const any = scored.some((n) => e.score?.[n]?.[call.pluginName]);
    return any ? { verdict: "differs", why: "PreScore: harness Skip, engine scored" } : { verdict: "same" };
  }
  if (call.withoutPreScore && !scored.some((n) => e.score?.[n]?.[call.pluginName])) {
    // The cycle's PreScore skipped the plugin: there is no score to compare the call's with.
    return {
      verdict: "unobservable",
      why: "Score without PreScore: the engine's PreScore skipped the plugin",
    };
  }
  for (const s of call.scores ?? []) {
    const got = e.score?.[nodeName(s.name)]?.[call.pluginName];
    if (!got)
      return { verdict: "differs", why: `Score on ${s.name}: the engine did not score with the plugin` };
    if (got.normalized !== s.score) {
      return { verdict: "differs", why: `Score on ${s.name}: harness ${s.score}, engine ${got.normalized}` };
    }
  }
  return { verdict: "same" };
}

/** Appends one line per call to `file` (KUBESCHED_CONFORMANCE_REPORT) for the counts. */
export function report(
  file: string | undefined,
  test: string,
  testFile: string,
  call: EngineCall,
  v: Verdict,
): void {
  if (!file) return;
  const line = { type: "call", test, file: testFile, plugin: call.pluginName, kind: call.kind, ...v };
  appendFileSync(file, `${JSON.stringify(line)}\n`);
}

/** Appends one line per test: its file and how many harness calls it made (0: none replayed). */
export function reportTest(file: string | undefined, test: string, testFile: string, calls: number): void {
  if (!file) return;
  appendFileSync(file, `${JSON.stringify({ type: "test", test, file: testFile, calls })}\n`);
}
