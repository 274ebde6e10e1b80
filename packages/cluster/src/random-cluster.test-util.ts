// Randomized clusters for the property tests that compare two ways of deciding (columnar and
// per-node Filter/Score; the diagnostic pass and the cycle's Filter): nodes with zones, racks,
// taints, cordons, images and extended resources; running pods with (anti-)affinity and host
// ports; pending pods with priorities, tolerations, selectors, node affinity, spread constraints
// and inter-pod (anti-)affinity.
import type { Node, Pod, Taint } from "@kubesched/api";
import { type Random, seededRandom } from "@kubesched/framework";
import {
  makeLabelSelector,
  makeNode,
  makeNodeSelector,
  makePod,
  NodeSelectorTypeMatchFields,
} from "@kubesched/testing";

const zones = ["zone-a", "zone-b", "zone-c"];
const racks = ["r1", "r2", "r3", "r4", "r5"];
const apps = ["web", "db", "cache"];
const taintPool: Taint[] = [
  { key: "dedicated", value: "gpu", effect: "NoSchedule" },
  { key: "spot", value: "true", effect: "PreferNoSchedule" },
  { key: "maintenance", effect: "NoExecute" },
  { key: "noisy", value: "yes", effect: "PreferNoSchedule" },
];
const images = ["registry.k8s.io/pause:3.10.1", "nginx:1.27", "redis:7", "busybox"];

function pick<T>(r: Random, xs: readonly T[]): T {
  return xs[r.intn(xs.length)] as T;
}

function chance(r: Random, percent: number): boolean {
  return r.intn(100) < percent;
}

export function randomNode(r: Random, i: number): Node {
  const name = `node-${i}`;
  const b = makeNode().name(name).label("kubernetes.io/hostname", name);
  if (!chance(r, 10)) b.label("topology.kubernetes.io/zone", pick(r, zones));
  if (chance(r, 60)) b.label("rack", pick(r, racks));
  if (chance(r, 20)) b.label("disk", chance(r, 50) ? "ssd" : "hdd");
  const cap: Record<string, string> = {
    cpu: `${2 + r.intn(7)}`,
    memory: `${4 + r.intn(28)}Gi`,
    pods: `${4 + r.intn(20)}`,
    "ephemeral-storage": `${10 + r.intn(90)}Gi`,
  };
  if (chance(r, 25)) cap["example.com/gpu"] = `${1 + r.intn(4)}`;
  b.capacity(cap);
  if (chance(r, 30)) {
    const taints: Taint[] = [];
    for (const t of taintPool) if (chance(r, 35)) taints.push({ ...t });
    if (taints.length > 0) b.taints(taints);
  }
  if (chance(r, 5)) b.unschedulable();
  if (chance(r, 30)) {
    const imgs: Record<string, number> = {};
    for (const im of images) if (chance(r, 40)) imgs[im] = (50 + r.intn(900)) * 1024 * 1024;
    b.images(imgs);
  }
  return b.obj();
}

export function randomPod(r: Random, name: string, nodeNames: readonly string[], running: boolean): Pod {
  const app = pick(r, apps);
  const b = makePod()
    .name(name)
    .namespace(chance(r, 80) ? "default" : "team")
    .label("app", app);
  if (chance(r, 30)) b.label("tier", chance(r, 50) ? "front" : "back");
  b.container(pick(r, images));
  const req: Record<string, string> = {};
  if (chance(r, 85)) req.cpu = `${100 * (1 + r.intn(15))}m`;
  if (chance(r, 80)) req.memory = `${256 * (1 + r.intn(16))}Mi`;
  if (chance(r, 10)) req["ephemeral-storage"] = `${1 + r.intn(20)}Gi`;
  if (chance(r, 10)) req["example.com/gpu"] = `${1 + r.intn(2)}`;
  if (Object.keys(req).length > 0) b.req(req);
  if (running) {
    b.node(pick(r, nodeNames));
    if (chance(r, 15)) b.podAntiAffinityIn("app", "kubernetes.io/hostname", [app], "required");
    if (chance(r, 15)) b.podAffinityIn("app", "topology.kubernetes.io/zone", [pick(r, apps)], "preferred");
    if (chance(r, 10)) b.hostPort(8080 + r.intn(3));
    return b.obj();
  }
  if (chance(r, 25)) b.priority(100 * (1 + r.intn(3)));
  if (chance(r, 25))
    b.toleration({ key: "dedicated", operator: "Equal", value: "gpu", effect: "NoSchedule" });
  if (chance(r, 15)) b.toleration({ key: "spot", operator: "Exists" });
  if (chance(r, 10)) b.toleration({ operator: "Exists" });
  if (chance(r, 10)) b.nodeSelector({ disk: "ssd" });
  const aff = r.intn(10);
  if (aff === 0) b.nodeAffinityIn("topology.kubernetes.io/zone", [pick(r, zones), pick(r, zones)]);
  else if (aff === 1) b.nodeAffinityNotIn("rack", [pick(r, racks)]);
  else if (aff === 2)
    b.nodeAffinityIn("metadata.name", [pick(r, nodeNames), pick(r, nodeNames)], NodeSelectorTypeMatchFields);
  else if (aff === 3) {
    b.nodeAffinity({
      requiredDuringSchedulingIgnoredDuringExecution: makeNodeSelector()
        .in("topology.kubernetes.io/zone", [pick(r, zones)])
        .in("rack", [pick(r, racks), pick(r, racks)])
        .obj(),
      preferredDuringSchedulingIgnoredDuringExecution: [
        {
          weight: 1 + r.intn(50),
          preference: { matchExpressions: [{ key: "disk", operator: "In", values: ["ssd"] }] },
        },
        { weight: 1 + r.intn(50), preference: { matchExpressions: [{ key: "rack", operator: "Exists" }] } },
      ],
    });
  } else if (aff === 4) {
    b.nodeAffinity({
      preferredDuringSchedulingIgnoredDuringExecution: [
        {
          weight: 1 + r.intn(100),
          preference: {
            matchExpressions: [
              { key: "topology.kubernetes.io/zone", operator: "In", values: [pick(r, zones)] },
            ],
          },
        },
      ],
    });
  }
  const spread = r.intn(8);
  const sel = makeLabelSelector().label("app", app).obj();
  if (spread === 0) b.spreadConstraint(1 + r.intn(3), "topology.kubernetes.io/zone", "DoNotSchedule", sel);
  else if (spread === 1) b.spreadConstraint(1 + r.intn(2), "kubernetes.io/hostname", "ScheduleAnyway", sel);
  else if (spread === 2) {
    b.spreadConstraint(2, "topology.kubernetes.io/zone", "ScheduleAnyway", sel);
    b.spreadConstraint(1, "rack", "DoNotSchedule", sel, chance(r, 50) ? 3 : null);
  }
  const ipa = r.intn(8);
  if (ipa === 0) b.podAntiAffinityIn("app", "kubernetes.io/hostname", [app], "required");
  else if (ipa === 1) b.podAffinityIn("app", "topology.kubernetes.io/zone", [pick(r, apps)], "required");
  else if (ipa === 2) b.podAffinityIn("app", "rack", [pick(r, apps)], "preferred");
  else if (ipa === 3) b.podAntiAffinityIn("tier", "topology.kubernetes.io/zone", ["front"], "preferred");
  if (chance(r, 8)) b.hostPort(8080 + r.intn(3));
  return b.obj();
}

/** The size of a random cluster and its seed. */
export interface RandomClusterSpec {
  seed: number;
  nodes: number;
  running: number;
  pending: number;
}

/** A cluster of random nodes, running pods and then pending pods, the same for the same spec. */
export function randomCluster(c: RandomClusterSpec): { nodes: Node[]; pods: Pod[] } {
  const r = seededRandom(c.seed);
  const nodes = Array.from({ length: c.nodes }, (_, i) => randomNode(r, i));
  const names = nodes.map((n) => n.metadata?.name ?? "");
  const pods: Pod[] = [];
  for (let i = 0; i < c.running; i++) pods.push(randomPod(r, `run-${i}`, names, true));
  for (let i = 0; i < c.pending; i++) pods.push(randomPod(r, `pod-${i}`, names, false));
  return { nodes, pods };
}
