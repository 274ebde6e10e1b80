// Test-only (upstream: noderesources/test_util.go and the fixtures of fit_test.go), plus the runner
// the tables go through. Not exported from the package.
import type { DeviceClass, Node, Pod, ResourceClaim, ResourceList, ResourceSlice } from "@kubesched/api";
import {
  defaultFeatures,
  type Features,
  isStatus,
  type NodeInfo,
  type NodeScore,
  type ResourceSpec,
  type Status,
} from "@kubesched/framework";
import { createPluginHarness, makePod, type PluginHarness } from "@kubesched/testing";
import { expect, it } from "vitest";
import { type NodeResourcesFitArgs, validateNodeResourcesFitArgs } from "./args";
import { nodeResourcesFitPlugin } from "./index";
import { NodeResourcesFit } from "./node-resources-fit";

export const defaultResources: ResourceSpec[] = [
  { name: "cpu", weight: 1 },
  { name: "memory", weight: 1 },
];
export const extendedRes = "abc.com/xyz";
export const extendedResourceSet: ResourceSpec[] = [
  { name: "cpu", weight: 1 },
  { name: "memory", weight: 1 },
  { name: extendedRes, weight: 1 },
];

export const extendedResourceA = "example.com/aaa";
export const extendedResourceB = "example.com/bbb";
export const kubernetesIOResourceA = "kubernetes.io/something";
export const kubernetesIOResourceB = "subdomain.kubernetes.io/something";
export const hugePageResourceA = "hugepages-2Mi";

/** upstream makeNode: allocatable = capacity = milliCPU, memory and the given extended resources. */
export function makeNode(
  node: string,
  milliCPU: number,
  memory: number,
  extended: Record<string, number> = {},
): Node {
  const rl: Record<string, string> = {};
  for (const [k, v] of Object.entries(extended)) rl[k] = String(v);
  rl.cpu = `${milliCPU}m`;
  rl.memory = String(memory);
  return { metadata: { name: node }, status: { capacity: { ...rl }, allocatable: { ...rl } } };
}

/** upstream makeAllocatableResources. */
export function makeAllocatableResources(
  milliCPU: number,
  memory: number,
  pods: number,
  extendedA: number,
  storage: number,
  hugePageA: number,
): ResourceList {
  return {
    cpu: `${milliCPU}m`,
    memory: String(memory),
    pods: String(pods),
    [extendedResourceA]: String(extendedA),
    "ephemeral-storage": String(storage),
    [hugePageResourceA]: String(hugePageA),
  };
}

/** upstream framework.Resource as the fixtures use it. */
export interface Usage {
  milliCPU?: number;
  memory?: number;
  ephemeralStorage?: number;
  allowedPodNumber?: number;
  scalar?: Record<string, number>;
}

function usageList(u: Usage): ResourceList {
  const rl: ResourceList = {
    cpu: `${u.milliCPU ?? 0}m`,
    memory: String(u.memory ?? 0),
    pods: String(u.allowedPodNumber ?? 0),
    "ephemeral-storage": String(u.ephemeralStorage ?? 0),
  };
  for (const [k, v] of Object.entries(u.scalar ?? {})) rl[k] = String(v);
  return rl;
}

/** upstream newResourcePod: one container per usage, requesting exactly it (zeros included). */
export function newResourcePod(...usage: Usage[]): Pod {
  return {
    metadata: { name: "", namespace: "default", uid: "" },
    spec: { containers: usage.map((u, i) => ({ name: `c${i}`, resources: { requests: usageList(u) } })) },
  };
}

/** upstream newResourceInitPod. */
export function newResourceInitPod(pod: Pod, ...usage: Usage[]): Pod {
  pod.spec!.initContainers = newResourcePod(...usage).spec!.containers;
  return pod;
}

/** upstream newResourceOverheadPod. */
export function newResourceOverheadPod(pod: Pod, overhead: ResourceList): Pod {
  pod.spec!.overhead = overhead;
  return pod;
}

/** upstream newPodLevelResourcesPod. */
export function newPodLevelResourcesPod(pod: Pod, requests: ResourceList): Pod {
  pod.spec!.resources = { requests };
  return pod;
}

/** st.MakePod().Node(n).Req(req).Obj() */
export function podOn(node: string, req: ResourceList = {}): Pod {
  return makePod().node(node).req(req).obj();
}

// ---------------------------------------------------------------------------------------------
// Runner: the plugin through @kubesched/testing's harness (the real runtime, args through the
// descriptor's decode and validate), in upstream's call order.

export interface RunOptions {
  /** Args as in a pluginConfig entry (decoded and defaulted by the descriptor). */
  args?: NodeResourcesFitArgs;
  features?: Partial<Features>;
  /** DeviceClasses the listers serve (DRAExtendedResource). */
  deviceClasses?: DeviceClass[];
  /** ResourceSlices and ResourceClaims the listers serve (DRAExtendedResource's scoring). */
  resourceSlices?: ResourceSlice[];
  resourceClaims?: ResourceClaim[];
}

export async function harness(
  opts: RunOptions,
  nodes: Node[] = [],
  pods: Pod[] = [],
): Promise<PluginHarness & { plugin: NodeResourcesFit }> {
  const h = await createPluginHarness({
    plugin: nodeResourcesFitPlugin,
    nodes,
    pods,
    ...(opts.args !== undefined ? { args: opts.args } : {}),
    ...(opts.features !== undefined ? { features: opts.features } : {}),
    objects: {
      ...(opts.deviceClasses !== undefined ? { deviceClasses: opts.deviceClasses } : {}),
      ...(opts.resourceSlices !== undefined ? { resourceSlices: opts.resourceSlices } : {}),
      ...(opts.resourceClaims !== undefined ? { resourceClaims: opts.resourceClaims } : {}),
    },
  });
  return h as PluginHarness & { plugin: NodeResourcesFit };
}

/** The plugin instance of a harness over no cluster. */
export async function newFit(opts: RunOptions): Promise<NodeResourcesFit> {
  return (await harness(opts)).plugin;
}

/** PreFilter then (when PreFilter succeeded) Filter on one node holding `existingPods`. */
export async function runFilter(
  pod: Pod,
  node: Node,
  existingPods: readonly Pod[],
  opts: RunOptions = {},
): Promise<{ preFilter: Status | null; filter: Status | null; nodeInfo: NodeInfo }> {
  const nodeName = node.metadata?.name ?? "";
  const h = await harness(
    opts,
    [node],
    existingPods.map((p) => withNode(p, nodeName)),
  );
  const { preFilter, statuses } = h.filter(pod);
  return {
    preFilter: preFilter.status,
    filter: statuses.get(nodeName) ?? null,
    nodeInfo: h.nodeInfo(nodeName),
  };
}

/** Filter without PreFilter. */
export async function runFilterOnly(pod: Pod, node: Node, opts: RunOptions = {}): Promise<Status | null> {
  const h = await harness(opts, [node]);
  return h.runFilter(h.newCycleState(), pod, node.metadata?.name ?? "");
}

/**
 * PreScore (unless `runPreScore` is false) then Score on every node, in node order, through the
 * harness's score() (so the engine conformance suite replays it). With `direct`, the plugin is
 * built from `args` as given (no decoding or defaulting, as upstream tests calling NewFit) and
 * scores the harness's snapshot itself, as it also does when a Score fails (to have every node's
 * status).
 */
export async function runScore(
  pod: Pod,
  nodes: Node[],
  existingPods: Pod[],
  opts: RunOptions & { runPreScore?: boolean; direct?: boolean } = {},
): Promise<{ preScore: Status | null; scores: NodeScore[]; statuses: (Status | null)[] }> {
  const h = await harness(opts.direct ? { ...opts, args: undefined } : opts, nodes, existingPods);
  const runPreScore = opts.runPreScore !== false;
  if (!opts.direct) {
    const got = h.score(pod, undefined, { runPreScore });
    if (got.status === null) {
      return {
        preScore: runPreScore ? got.preScoreStatus : null,
        scores: got.scores,
        statuses: nodes.map(() => null),
      };
    }
  }
  const p = opts.direct
    ? new NodeResourcesFit(opts.args!, { ...defaultFeatures, ...opts.features })
    : h.plugin;
  const state = h.newCycleState();
  const infos = nodes.map((n) => h.nodeInfo(n.metadata?.name ?? ""));
  const preScore = runPreScore ? p.preScore(state, pod, infos) : null;
  const scores: NodeScore[] = [];
  const statuses: (Status | null)[] = [];
  for (const ni of infos) {
    const s = p.score(state, pod, ni);
    scores.push({ name: ni.nodeName, score: isStatus(s) ? 0 : s });
    statuses.push(isStatus(s) ? s : null);
  }
  return { preScore, scores, statuses };
}

function withNode(p: Pod, nodeName: string): Pod {
  return p.spec?.nodeName ? p : { ...p, spec: { ...p.spec!, nodeName } };
}

// ---------------------------------------------------------------------------------------------
// Strategy tables (least/most/requested-to-capacity-ratio tests)

export interface StrategyCase {
  name: string;
  requestedPod: Pod;
  nodes: Node[];
  existingPods?: Pod[];
  expectedScores?: NodeScore[];
  resources: ResourceSpec[];
  /** Field paths of the expected validation errors. */
  wantErrs?: string[];
  wantStatusCode?: "Error";
}

/** Runs a strategy table: validation errors, or PreScore + Score on every node. */
export function runStrategyCases(type: string, cases: StrategyCase[]): void {
  it.each(cases)("$name", async (tc) => {
    const args = {
      ignoredResources: [],
      ignoredResourceGroups: [],
      scoringStrategy: { type, resources: tc.resources },
    };
    const errs = validateNodeResourcesFitArgs(args, "");
    expect(errs.map((e) => `${e.type} ${e.field}`)).toEqual((tc.wantErrs ?? []).map((f) => `Invalid ${f}`));
    if (errs.length > 0) return;
    // An empty resource list would be defaulted by decoding: build the plugin from it directly.
    const got = await runScore(tc.requestedPod, tc.nodes, tc.existingPods ?? [], {
      args,
      direct: tc.resources.length === 0,
    });
    expect(got.statuses.map((s) => (s === null ? "Success" : s.isError() ? "Error" : "Other"))).toEqual(
      tc.nodes.map(() => tc.wantStatusCode ?? "Success"),
    );
    expect(got.scores).toEqual(tc.expectedScores);
  });
}
