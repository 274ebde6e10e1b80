// Fixtures shared by the tests (upstream capacity_scheduling_test.go makePod, makeEQ).
import type { Node, Pod, PodDisruptionBudget } from "@kubesched/api";
import type { PluginDescriptor } from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { createPluginHarness, type PluginHarness, makePod as stMakePod } from "@kubesched/testing";
import { type ElasticQuota, elasticQuotaResource } from "./elastic-quota";
import { capacitySchedulingPlugin } from "./index";

export const ResourceGPU = "nvidia.com/gpu";
export const midPriority = 100;
export const highPriority = 1000;

/** upstream makePod(name, namespace, memReq, cpuReq, gpuReq, priority, uid, nodeName). */
export function makePod(
  podName: string,
  namespace: string,
  memReq: number,
  cpuReq: number,
  gpuReq: number,
  priority: number,
  uid: string,
  nodeName: string,
): Pod {
  const w = stMakePod().namespace(namespace).name(podName).priority(priority).uid(uid);
  if (nodeName) w.node(nodeName);
  w.req({ memory: String(memReq), cpu: `${cpuReq}m`, [ResourceGPU]: String(gpuReq) });
  const pod = w.obj();
  if (pod.spec) pod.spec.terminationGracePeriodSeconds = 0;
  return pod;
}

/** upstream makeEQ(namespace, name, max, min) with memory-only lists. */
export function makeEQ(namespace: string, name: string, maxMem?: number, minMem?: number): ElasticQuota {
  return {
    apiVersion: "scheduling.x-k8s.io/v1alpha1",
    kind: "ElasticQuota",
    metadata: { name, namespace },
    spec: {
      ...(maxMem !== undefined ? { max: { memory: String(maxMem) } } : {}),
      ...(minMem !== undefined ? { min: { memory: String(minMem) } } : {}),
    },
  };
}

/**
 * upstream tests set each namespace's `Used` directly; here usage comes from the namespace's
 * assigned pods, so a pod on a node outside the snapshot carries it.
 */
export function usedBy(namespace: string, memory: number): Pod {
  return makePod(`${namespace}-used`, namespace, memory, 0, 0, 0, `${namespace}-used`, "elsewhere");
}

const nodeResourcesFit = inTreeRegistry.get("NodeResourcesFit") as PluginDescriptor;

export async function capacityHarness(opts: {
  nodes?: Node[];
  pods?: Pod[];
  eqs?: ElasticQuota[];
  pdbs?: PodDisruptionBudget[];
  withFit?: boolean;
}): Promise<PluginHarness> {
  return createPluginHarness({
    plugin: capacitySchedulingPlugin,
    nodes: opts.nodes ?? [],
    pods: opts.pods ?? [],
    customObjects: [{ resource: elasticQuotaResource, objects: opts.eqs ?? [] }],
    ...(opts.pdbs ? { objects: { podDisruptionBudgets: opts.pdbs } } : {}),
    ...(opts.withFit ? { extraPlugins: [nodeResourcesFit] } : {}),
  });
}
