// Fixtures shared by the tests (upstream test/util: MakePodGroup, MustNewPodInfo).
import type { Node, Pod } from "@kubesched/api";
import { PodInfo, type QueuedPodInfo } from "@kubesched/framework";
import { createPluginHarness, type FakeClock, fakeClock, type PluginHarness } from "@kubesched/testing";
import { type CoschedulingArgs, coschedulingPlugin, type PodGroup, podGroupResource } from "./index";

/** upstream tu.MakePodGroup().Name(n).Namespace(ns).MinMember(m)[.MinResources(r)][.Time(t)]. */
export function makePodGroup(
  name: string,
  namespace: string,
  minMember = 0,
  opts: { minResources?: Record<string, string>; time?: number } = {},
): PodGroup {
  return {
    apiVersion: "scheduling.x-k8s.io/v1alpha1",
    kind: "PodGroup",
    metadata: {
      name,
      namespace,
      ...(opts.time !== undefined ? { creationTimestamp: new Date(opts.time).toISOString() } : {}),
    },
    spec: { minMember, ...(opts.minResources ? { minResources: opts.minResources } : {}) },
  };
}

/** A queued pod with an initial attempt timestamp (null when the case sets none). */
export function queued(pod: Pod, initialAttemptTimestamp: number | null = null): QueuedPodInfo {
  return {
    podInfo: new PodInfo(pod),
    timestamp: 0,
    attempts: 0,
    unschedulableCount: 0,
    consecutiveErrorsCount: 0,
    initialAttemptTimestamp,
    unschedulablePlugins: new Set(),
    pendingPlugins: new Set(),
    gatingPlugin: "",
  };
}

export interface CoschedulingHarness {
  harness: PluginHarness;
  clock: FakeClock;
}

/** The plugin through the real runtime, with pods in the pod lister (and the snapshot when bound). */
export async function coschedulingHarness(opts: {
  nodes?: Node[];
  pods?: Pod[];
  pgs?: PodGroup[];
  args?: Partial<CoschedulingArgs>;
}): Promise<CoschedulingHarness> {
  const clock = fakeClock(Date.UTC(2026, 0, 1));
  const harness = await createPluginHarness({
    plugin: coschedulingPlugin,
    nodes: opts.nodes ?? [],
    pods: opts.pods ?? [],
    customObjects: [{ resource: podGroupResource, objects: opts.pgs ?? [] }],
    ...(opts.args ? { args: opts.args } : {}),
    clock,
  });
  return { harness, clock };
}
