// The cluster of issue 25's "done when": what a newcomer points `kubesched simulate --cluster` at
// first — nodes across zones and the workloads of a few teams, as manifests, not as pods:
// - nodes labelled as a cloud provider's kubelet labels them (`kubernetes.io/hostname`,
//   `topology.kubernetes.io/zone` / `region`, `node.kubernetes.io/instance-type`), 8 CPU, 32Gi,
//   110 pods, Ready, round-robin over three zones; each with a CSINode of the EBS CSI driver (its
//   attach limit is what NodeVolumeLimits counts a StatefulSet's claims against);
// - a StorageClass `gp3` (provisioner ebs.csi.aws.com, volumeBindingMode WaitForFirstConsumer):
//   a StatefulSet's claims are provisioned on the node VolumeBinding picks;
// - Deployments (expanded by the cluster's workload controllers into ReplicaSets and pods) of two
//   shapes, alternating: `web-*` spread over zones (maxSkew 1, DoNotSchedule) and hosts
//   (ScheduleAnyway) with preferred pod anti-affinity per host; `cache-*` with required pod
//   anti-affinity per host and a soft zone spread;
// - StatefulSets `db-*` of 10 replicas with a `data` volumeClaimTemplate on `gp3`, spread over
//   zones (DoNotSchedule), preferred anti-affinity per host.
// Deterministic: every name, size and label is a function of the counts. Written as one
// multi-document YAML file (nothing is committed as data).
import { writeFileSync } from "node:fs";
import { stringify } from "yaml";
import { hostnameLabel, zoneLabel } from "./templates";

export interface NewcomerClusterOptions {
  nodes: number;
  /** Pods the workloads ask for in all (Deployments' and StatefulSets' replicas). */
  pods: number;
}

export const newcomerDefaults: NewcomerClusterOptions = { nodes: 2000, pods: 5000 };

const region = "us-east-1";
const zones = ["us-east-1a", "us-east-1b", "us-east-1c"];
const csiDriver = "ebs.csi.aws.com";
export const storageClassName = "gp3";
const namespaces = ["shop", "payments", "search", "data"];
/** Replicas of each StatefulSet. */
const statefulSetReplicas = 10;

type Obj = Record<string, unknown>;
const pad = (n: number, w: number) => String(n).padStart(w, "0");

export interface NewcomerWorkload {
  kind: "Deployment" | "StatefulSet";
  namespace: string;
  name: string;
  replicas: number;
}

/**
 * The workloads for `o.pods` pods: about 6% in StatefulSets of 10, the rest in Deployments of
 * up to 50 replicas (at most half the nodes, so that required anti-affinity per host always fits).
 */
export function newcomerWorkloads(o: NewcomerClusterOptions): NewcomerWorkload[] {
  const out: NewcomerWorkload[] = [];
  const statefulSets = Math.min(
    Math.floor(o.pods / statefulSetReplicas),
    Math.max(1, Math.round((o.pods * 0.06) / statefulSetReplicas)),
  );
  for (let i = 0; i < statefulSets; i++) {
    out.push({
      kind: "StatefulSet",
      namespace: namespaces[i % namespaces.length] as string,
      name: `db-${pad(i, 3)}`,
      replicas: statefulSetReplicas,
    });
  }
  const size = Math.max(1, Math.min(50, Math.floor(o.nodes / 2)));
  let left = o.pods - statefulSets * statefulSetReplicas;
  for (let i = 0; left > 0; i++) {
    const replicas = Math.min(size, left);
    left -= replicas;
    out.push({
      kind: "Deployment",
      namespace: namespaces[i % namespaces.length] as string,
      name: `${i % 2 === 0 ? "web" : "cache"}-${pad(i, 3)}`,
      replicas,
    });
  }
  return out;
}

function node(i: number): Obj {
  const name = `node-${pad(i, 5)}`;
  const resources = { cpu: "8", memory: "32Gi", pods: "110", "ephemeral-storage": "100Gi" };
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      name,
      labels: {
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/os": "linux",
        [hostnameLabel]: name,
        "node.kubernetes.io/instance-type": "m6i.2xlarge",
        "topology.kubernetes.io/region": region,
        [zoneLabel]: zones[i % zones.length],
      },
    },
    spec: {},
    status: {
      capacity: resources,
      allocatable: resources,
      conditions: [{ type: "Ready", status: "True" }],
    },
  };
}

function csiNode(i: number): Obj {
  const name = `node-${pad(i, 5)}`;
  return {
    apiVersion: "storage.k8s.io/v1",
    kind: "CSINode",
    metadata: { name },
    spec: {
      drivers: [
        {
          name: csiDriver,
          nodeID: `i-0${pad(i, 16)}`,
          topologyKeys: [zoneLabel],
          allocatable: { count: 25 },
        },
      ],
    },
  };
}

const storageClass: Obj = {
  apiVersion: "storage.k8s.io/v1",
  kind: "StorageClass",
  metadata: { name: storageClassName },
  provisioner: csiDriver,
  volumeBindingMode: "WaitForFirstConsumer",
  reclaimPolicy: "Delete",
  allowVolumeExpansion: true,
  parameters: { type: "gp3" },
};

const zoneSpread = (app: string, whenUnsatisfiable: "DoNotSchedule" | "ScheduleAnyway") => ({
  maxSkew: 1,
  topologyKey: zoneLabel,
  whenUnsatisfiable,
  labelSelector: { matchLabels: { app } },
});

const preferredAntiAffinity = (app: string) => ({
  podAntiAffinity: {
    preferredDuringSchedulingIgnoredDuringExecution: [
      {
        weight: 100,
        podAffinityTerm: { labelSelector: { matchLabels: { app } }, topologyKey: hostnameLabel },
      },
    ],
  },
});

/** Requests that vary by workload: 100m–800m CPU, 128Mi–1Gi memory. */
function container(name: string, i: number): Obj {
  const cpu = `${100 * (1 + (i % 8))}m`;
  const memory = `${128 * (1 + (i % 8))}Mi`;
  return {
    name,
    image: `registry.example.com/${name}:1.${i % 10}.0`,
    ports: [{ containerPort: 8080, name: "http" }],
    resources: { requests: { cpu, memory }, limits: { memory } },
  };
}

/** A Deployment or StatefulSet of `w` selecting `app: <name>`, its pods running `podSpec`. */
function workload(w: NewcomerWorkload, podSpec: Obj, extraSpec: Obj = {}): Obj {
  const app = w.name;
  return {
    apiVersion: "apps/v1",
    kind: w.kind,
    metadata: { name: app, namespace: w.namespace, labels: { app } },
    spec: {
      replicas: w.replicas,
      ...extraSpec,
      selector: { matchLabels: { app } },
      template: { metadata: { labels: { app, team: w.namespace } }, spec: podSpec },
    },
  };
}

function deployment(w: NewcomerWorkload, i: number): Obj {
  const app = w.name;
  const web = app.startsWith("web");
  return workload(w, {
    containers: [container(app, i)],
    topologySpreadConstraints: web
      ? [
          zoneSpread(app, "DoNotSchedule"),
          {
            maxSkew: 1,
            topologyKey: hostnameLabel,
            whenUnsatisfiable: "ScheduleAnyway",
            labelSelector: { matchLabels: { app } },
          },
        ]
      : [zoneSpread(app, "ScheduleAnyway")],
    affinity: web
      ? preferredAntiAffinity(app)
      : {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchLabels: { app } }, topologyKey: hostnameLabel },
            ],
          },
        },
  });
}

function statefulSet(w: NewcomerWorkload, i: number): Obj {
  const app = w.name;
  return workload(
    w,
    {
      containers: [{ ...container(app, i), volumeMounts: [{ name: "data", mountPath: "/var/lib/data" }] }],
      topologySpreadConstraints: [zoneSpread(app, "DoNotSchedule")],
      affinity: preferredAntiAffinity(app),
    },
    {
      serviceName: app,
      volumeClaimTemplates: [
        {
          metadata: { name: "data" },
          spec: {
            accessModes: ["ReadWriteOnce"],
            storageClassName,
            resources: { requests: { storage: `${20 * (1 + (i % 5))}Gi` } },
          },
        },
      ],
    },
  );
}

/** The cluster's objects, in the order a snapshot lists them. */
export function newcomerCluster(o: NewcomerClusterOptions = newcomerDefaults): Obj[] {
  const objects: Obj[] = namespaces.map((name) => ({
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name },
  }));
  for (let i = 0; i < o.nodes; i++) objects.push(node(i));
  for (let i = 0; i < o.nodes; i++) objects.push(csiNode(i));
  objects.push(storageClass);
  for (const [i, w] of newcomerWorkloads(o).entries())
    objects.push(w.kind === "Deployment" ? deployment(w, i) : statefulSet(w, i));
  return objects;
}

/** Writes the cluster as multi-document YAML; returns the bytes written. */
export function writeNewcomerCluster(file: string, o: NewcomerClusterOptions = newcomerDefaults): number {
  const header = `# kubesched's newcomer cluster (bench/lib/newcomer-cluster.ts): ${o.nodes} nodes, ${o.pods} pods\n`;
  const text =
    header +
    newcomerCluster(o)
      .map((obj) => stringify(obj))
      .join("---\n");
  writeFileSync(file, text);
  return Buffer.byteLength(text);
}
