// The assembled scheduler (simulate(), the default profile, the in-tree registry) decides as
// upstream does where the plugin tables alone could not tell: plugins that read the snapshot
// from their constructors (PodTopologySpread, VolumeRestrictions) see the scheduler's.
import { defaultConfig, loadConfig } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { loadSnapshotTexts } from "./load";
import { type SimulationResult, simulate } from "./simulate";

const config = defaultConfig({ registry: inTreeRegistry });
/** The default profile without PodTopologySpread: what the scheduler did while it was mis-wired. */
const withoutSpreading = loadConfig(
  `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      disabled: [{ name: PodTopologySpread }]
`,
  { registry: inTreeRegistry },
);

async function run(yaml: string, cfg = config): Promise<SimulationResult> {
  return simulate({
    config: cfg,
    registry: inTreeRegistry,
    objects: loadSnapshotTexts([{ name: "cluster.yaml", text: yaml }]).objects,
    logger: recordingLogger(),
    explain: true,
  });
}

/** Zone a has two big nodes (LeastAllocated prefers them); zones b and c one small node each. */
const nodes = [
  ["a1", "a", "16"],
  ["a2", "a", "16"],
  ["b1", "b", "4"],
  ["c1", "c", "4"],
]
  .map(
    ([name, zone, cpu]) => `apiVersion: v1
kind: Node
metadata: { name: ${name}, labels: { kubernetes.io/hostname: ${name}, topology.kubernetes.io/zone: ${zone} } }
status: { allocatable: { cpu: "${cpu}", memory: 32Gi, pods: "110" } }
---
`,
  )
  .join("");

const pods = (n: number, extraSpec = "") =>
  Array.from(
    { length: n },
    (_, i) => `apiVersion: v1
kind: Pod
metadata: { name: web-${i}, namespace: default, labels: { app: web } }
spec:
${extraSpec}  containers: [{ name: c, image: i, resources: { requests: { cpu: 100m, memory: 100Mi } } }]
---
`,
  ).join("");

const zoneOf = (node: string | null) => node?.[0] ?? "-";
const perZone = (r: SimulationResult) => {
  const out: Record<string, number> = {};
  for (const p of r.pods) out[zoneOf(p.node)] = (out[zoneOf(p.node)] ?? 0) + 1;
  return out;
};

describe("soft topology spreading through the assembled scheduler", () => {
  const soft = `  topologySpreadConstraints:
  - { maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: { matchLabels: { app: web } } }
`;

  it("a ScheduleAnyway zone constraint balances pods across zones", async () => {
    const r = await run(nodes + pods(6, soft));
    expect(perZone(r)).toEqual({ a: 2, b: 2, c: 2 });
    // PodTopologySpread scored (it did not Skip at PreScore).
    const last = r.pods.at(-1)?.explain;
    expect(Object.values(last?.score ?? {}).every((s) => "PodTopologySpread" in s)).toBe(true);
  });

  it("without the spreading score, the same pods pile into the big zone", async () => {
    const r = await run(nodes + pods(6, soft), withoutSpreading);
    expect(perZone(r).a).toBe(6);
  });

  const service = `apiVersion: v1
kind: Service
metadata: { name: web, namespace: default }
spec: { selector: { app: web }, ports: [{ port: 80 }] }
---
`;

  it("system-default spreading spreads the pods of a Service across zones and hosts", async () => {
    const r = await run(nodes + service + pods(6));
    const zones = perZone(r);
    expect(Object.keys(zones).sort()).toEqual(["a", "b", "c"]);
    expect(new Set(r.pods.map((p) => p.node)).size).toBe(4);
    expect(Object.values(r.pods.at(-1)?.explain?.score ?? {}).every((s) => "PodTopologySpread" in s)).toBe(
      true,
    );
  });

  it("without the spreading score, the Service's pods pile into the big zone", async () => {
    const r = await run(nodes + service + pods(6), withoutSpreading);
    expect(perZone(r).a).toBe(6);
  });
});

describe("ReadWriteOncePod through the assembled scheduler", () => {
  it("a second pod using a ReadWriteOncePod claim a running pod holds is rejected with upstream's reason", async () => {
    const r = await run(`apiVersion: v1
kind: Node
metadata: { name: n1, labels: { kubernetes.io/hostname: n1 } }
status: { allocatable: { cpu: "4", memory: 8Gi, pods: "110" } }
---
apiVersion: v1
kind: PersistentVolume
metadata: { name: pv1 }
spec:
  capacity: { storage: 1Gi }
  accessModes: [ReadWriteOncePod]
  claimRef: { namespace: default, name: data }
  hostPath: { path: /data }
status: { phase: Bound }
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: { name: data, namespace: default, annotations: { pv.kubernetes.io/bind-completed: "yes" } }
spec: { accessModes: [ReadWriteOncePod], volumeName: pv1, resources: { requests: { storage: 1Gi } } }
status: { phase: Bound, accessModes: [ReadWriteOncePod] }
---
apiVersion: v1
kind: Pod
metadata: { name: holder, namespace: default }
spec:
  nodeName: n1
  containers: [{ name: c, image: i }]
  volumes: [{ name: d, persistentVolumeClaim: { claimName: data } }]
status: { phase: Running }
---
apiVersion: v1
kind: Pod
metadata: { name: second, namespace: default }
spec:
  containers: [{ name: c, image: i }]
  volumes: [{ name: d, persistentVolumeClaim: { claimName: data } }]
`);
    expect(r.pods.map((p) => [p.name, p.outcome])).toEqual([["second", "Unschedulable"]]);
    expect(r.pods[0]?.message).toContain(
      "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode",
    );
  });
});
