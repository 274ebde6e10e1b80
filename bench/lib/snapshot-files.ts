// Big cluster snapshots written on the fly (never committed), as kubectl writes them:
// - `kubectl get nodes,pods -o yaml` of a cluster of small running pods (the issue's 100 MB YAML:
//   10,000 nodes, 462,000 running pods at about 220 bytes each) plus pending pods;
// - `kubectl get nodes,pods -o json` of objects as a real API server returns them (managedFields,
//   last-applied-configuration, full status; kubectl's 4-space indentation), to a size in bytes.
// Each is written a few hundred objects at a time: the generator holds no whole file in memory.
import { closeSync, openSync, writeSync } from "node:fs";

/** Writes text to a file in ~1 MB writes. */
class FileWriter {
  private readonly fd: number;
  private buf: string[] = [];
  private size = 0;
  written = 0;
  constructor(file: string) {
    this.fd = openSync(file, "w");
  }
  write(s: string): void {
    this.buf.push(s);
    this.size += s.length;
    if (this.size >= 1 << 20) this.flush();
  }
  private flush(): void {
    const text = this.buf.join("");
    this.written += writeSync(this.fd, text);
    this.buf = [];
    this.size = 0;
  }
  close(): number {
    this.flush();
    closeSync(this.fd);
    return this.written;
  }
}

const pad = (n: number, w: number) => String(n).padStart(w, "0");

export interface SmallPodsYamlOptions {
  nodes: number;
  runningPods: number;
  pendingPods: number;
}

/** The issue's 100 MB YAML at its default size; smaller counts for tests. Returns the bytes written. */
export function writeSmallPodsYaml(
  file: string,
  o: SmallPodsYamlOptions = { nodes: 10_000, runningPods: 462_000, pendingPods: 1_000 },
): number {
  const w = new FileWriter(file);
  w.write("apiVersion: v1\nitems:\n");
  for (let i = 0; i < o.nodes; i++) {
    const name = `node-${pad(i, 5)}`;
    w.write(
      `- apiVersion: v1\n  kind: Node\n  metadata:\n    labels:\n      kubernetes.io/hostname: ${name}\n      topology.kubernetes.io/zone: zone-${i % 3}\n    name: ${name}\n  spec: {}\n  status:\n    allocatable:\n      cpu: "32"\n      memory: 128Gi\n      pods: "110"\n    capacity:\n      cpu: "32"\n      memory: 128Gi\n      pods: "110"\n`,
    );
  }
  const pod = (i: number, node: string | null) =>
    `- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: web-${pad(i, 7)}\n    namespace: default\n  spec:\n    containers:\n    - image: nginx\n      name: web\n      resources:\n        requests:\n          cpu: 100m\n${node ? `    nodeName: ${node}\n` : ""}  status:\n    phase: ${node ? "Running" : "Pending"}\n`;
  for (let i = 0; i < o.runningPods; i++) w.write(pod(i, `node-${pad(i % Math.max(1, o.nodes), 5)}`));
  for (let i = 0; i < o.pendingPods; i++) w.write(pod(o.runningPods + i, null));
  w.write('kind: List\nmetadata:\n  resourceVersion: ""\n');
  return w.close();
}

const lastApplied = (o: unknown) => `${JSON.stringify(o)}\n`;

/** A node as the API server returns it (kubelet's status, managedFields of kubelet and kubectl). */
export function apiServerNode(i: number): Record<string, unknown> {
  const name = `node-${pad(i, 5)}`;
  const labels = {
    "beta.kubernetes.io/arch": "amd64",
    "beta.kubernetes.io/os": "linux",
    "kubernetes.io/arch": "amd64",
    "kubernetes.io/hostname": name,
    "kubernetes.io/os": "linux",
    "node.kubernetes.io/instance-type": "m5.8xlarge",
    "topology.kubernetes.io/region": "us-east-1",
    "topology.kubernetes.io/zone": `us-east-1${"abc"[i % 3]}`,
  };
  const resources = { cpu: "32", "ephemeral-storage": "104845292Ki", memory: "130451400Ki", pods: "110" };
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      annotations: {
        "node.alpha.kubernetes.io/ttl": "0",
        "volumes.kubernetes.io/controller-managed-attach-detach": "true",
      },
      creationTimestamp: "2026-01-05T10:00:00Z",
      labels,
      managedFields: [
        {
          apiVersion: "v1",
          fieldsType: "FieldsV1",
          fieldsV1: {
            "f:metadata": {
              "f:annotations": { ".": {}, "f:volumes.kubernetes.io/controller-managed-attach-detach": {} },
              "f:labels": Object.fromEntries(Object.keys(labels).map((k) => [`f:${k}`, {}])),
            },
          },
          manager: "kubelet",
          operation: "Update",
          time: "2026-01-05T10:00:00Z",
        },
        {
          apiVersion: "v1",
          fieldsType: "FieldsV1",
          fieldsV1: {
            "f:status": {
              "f:conditions": Object.fromEntries(
                ["DiskPressure", "MemoryPressure", "PIDPressure", "Ready"].map((t) => [
                  `k:{"type":"${t}"}`,
                  {
                    "f:lastHeartbeatTime": {},
                    "f:lastTransitionTime": {},
                    "f:message": {},
                    "f:reason": {},
                    "f:status": {},
                  },
                ]),
              ),
              "f:images": {},
              "f:nodeInfo": { "f:bootID": {}, "f:kernelVersion": {} },
            },
          },
          manager: "kubelet",
          operation: "Update",
          subresource: "status",
          time: "2026-01-05T10:00:00Z",
        },
      ],
      name,
      resourceVersion: String(1000 + i),
      uid: `6b0c1d2e-0000-4000-8000-${pad(i, 12)}`,
    },
    spec: { providerID: `aws:///us-east-1a/i-0${pad(i, 16)}` },
    status: {
      addresses: [
        { address: `10.0.${i >> 8}.${i & 255}`, type: "InternalIP" },
        { address: `ip-10-0-${i >> 8}-${i & 255}.ec2.internal`, type: "Hostname" },
      ],
      allocatable: resources,
      capacity: resources,
      conditions: ["MemoryPressure", "DiskPressure", "PIDPressure", "Ready"].map((t) => ({
        lastHeartbeatTime: "2026-01-05T10:00:00Z",
        lastTransitionTime: "2026-01-05T10:00:00Z",
        message: t === "Ready" ? "kubelet is posting ready status" : `kubelet has no ${t.toLowerCase()}`,
        reason: t === "Ready" ? "KubeletReady" : `KubeletHasNo${t}`,
        status: t === "Ready" ? "True" : "False",
        type: t,
      })),
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      images: Array.from({ length: 12 }, (_, k) => ({
        names: [
          `registry.example.com/team-${k}/service@sha256:${pad(k, 8)}${"0".repeat(56)}`,
          `registry.example.com/team-${k}/service:v1.${k}.0`,
        ],
        sizeBytes: 100_000_000 + k,
      })),
      nodeInfo: {
        architecture: "amd64",
        bootID: `b00710d0-0000-4000-8000-${pad(i, 12)}`,
        containerRuntimeVersion: "containerd://1.7.27",
        kernelVersion: "6.1.140",
        kubeProxyVersion: "",
        kubeletVersion: "v1.37.0",
        machineID: `ec2${pad(i, 29)}`,
        operatingSystem: "linux",
        osImage: "Amazon Linux 2023",
        systemUUID: `ec2${pad(i, 33)}`,
      },
    },
  };
}

/** A Deployment's running pod as the API server returns it. */
export function apiServerPod(i: number, node: string | null): Record<string, unknown> {
  const app = `app-${i % 500}`;
  const name = `${app}-7d9f8c6b5-${pad(i, 7)}`;
  const container = {
    env: [
      { name: "LOG_LEVEL", value: "info" },
      { name: "DATABASE_URL", value: `postgres://svc:s3cr3t-${i}@db.internal:5432/app` },
      { name: "API_TOKEN", value: "tok_0123456789abcdef0123456789abcdef" },
      { name: "POD_NAME", valueFrom: { fieldRef: { apiVersion: "v1", fieldPath: "metadata.name" } } },
    ],
    image: `registry.example.com/team-${i % 12}/service:v1.${i % 12}.0`,
    imagePullPolicy: "IfNotPresent",
    livenessProbe: {
      failureThreshold: 3,
      httpGet: { path: "/healthz", port: 8080, scheme: "HTTP" },
      periodSeconds: 10,
      successThreshold: 1,
      timeoutSeconds: 1,
    },
    name: "app",
    ports: [{ containerPort: 8080, name: "http", protocol: "TCP" }],
    resources: { limits: { memory: "512Mi" }, requests: { cpu: "250m", memory: "256Mi" } },
    terminationMessagePath: "/dev/termination-log",
    terminationMessagePolicy: "File",
    volumeMounts: [
      {
        mountPath: "/var/run/secrets/kubernetes.io/serviceaccount",
        name: "kube-api-access-x7k2p",
        readOnly: true,
      },
    ],
  };
  const spec = {
    containers: [container],
    dnsPolicy: "ClusterFirst",
    enableServiceLinks: true,
    ...(node ? { nodeName: node } : {}),
    preemptionPolicy: "PreemptLowerPriority",
    priority: 0,
    restartPolicy: "Always",
    schedulerName: "default-scheduler",
    securityContext: {},
    serviceAccount: "default",
    serviceAccountName: "default",
    terminationGracePeriodSeconds: 30,
    tolerations: [
      {
        effect: "NoExecute",
        key: "node.kubernetes.io/not-ready",
        operator: "Exists",
        tolerationSeconds: 300,
      },
      {
        effect: "NoExecute",
        key: "node.kubernetes.io/unreachable",
        operator: "Exists",
        tolerationSeconds: 300,
      },
    ],
    volumes: [
      {
        name: "kube-api-access-x7k2p",
        projected: {
          defaultMode: 420,
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: "token" } },
            { configMap: { items: [{ key: "ca.crt", path: "ca.crt" }], name: "kube-root-ca.crt" } },
          ],
        },
      },
    ],
  };
  const metadata = {
    annotations: {
      "kubectl.kubernetes.io/last-applied-configuration": lastApplied({
        apiVersion: "v1",
        kind: "Pod",
        metadata: { labels: { app }, name, namespace: `team-${i % 20}` },
        spec: { containers: [container] },
      }),
      "prometheus.io/scrape": "true",
    },
    creationTimestamp: "2026-01-05T10:00:00Z",
    generateName: `${app}-7d9f8c6b5-`,
    labels: { app, "pod-template-hash": "7d9f8c6b5" },
    managedFields: [
      {
        apiVersion: "v1",
        fieldsType: "FieldsV1",
        fieldsV1: {
          "f:metadata": {
            "f:generateName": {},
            "f:labels": { ".": {}, "f:app": {}, "f:pod-template-hash": {} },
            "f:ownerReferences": { ".": {}, [`k:{"uid":"${pad(i % 500, 8)}"}`]: {} },
          },
          "f:spec": {
            "f:containers": {
              'k:{"name":"app"}': {
                ".": {},
                "f:env": Object.fromEntries(
                  container.env.map((e) => [
                    `k:{"name":"${e.name}"}`,
                    { ".": {}, "f:name": {}, "f:value": {} },
                  ]),
                ),
                "f:image": {},
                "f:imagePullPolicy": {},
                "f:livenessProbe": { ".": {}, "f:httpGet": { ".": {}, "f:path": {}, "f:port": {} } },
                "f:name": {},
                "f:ports": {
                  ".": {},
                  'k:{"containerPort":8080,"protocol":"TCP"}': { ".": {}, "f:name": {} },
                },
                "f:resources": {
                  ".": {},
                  "f:limits": { "f:memory": {} },
                  "f:requests": { "f:cpu": {}, "f:memory": {} },
                },
              },
            },
            "f:dnsPolicy": {},
            "f:restartPolicy": {},
            "f:schedulerName": {},
          },
        },
        manager: "kube-controller-manager",
        operation: "Update",
        time: "2026-01-05T10:00:00Z",
      },
      {
        apiVersion: "v1",
        fieldsType: "FieldsV1",
        fieldsV1: {
          "f:status": {
            "f:conditions": Object.fromEntries(
              ["ContainersReady", "Initialized", "PodReadyToStartContainers", "Ready"].map((t) => [
                `k:{"type":"${t}"}`,
                { ".": {}, "f:lastProbeTime": {}, "f:lastTransitionTime": {}, "f:status": {}, "f:type": {} },
              ]),
            ),
            "f:containerStatuses": {},
            "f:hostIP": {},
            "f:phase": {},
            "f:podIP": {},
            "f:startTime": {},
          },
        },
        manager: "kubelet",
        operation: "Update",
        subresource: "status",
        time: "2026-01-05T10:00:01Z",
      },
    ],
    name,
    namespace: `team-${i % 20}`,
    ownerReferences: [
      {
        apiVersion: "apps/v1",
        blockOwnerDeletion: true,
        controller: true,
        kind: "ReplicaSet",
        name: `${app}-7d9f8c6b5`,
        uid: `0f1e2d3c-0000-4000-8000-${pad(i % 500, 12)}`,
      },
    ],
    resourceVersion: String(100_000 + i),
    uid: `a1b2c3d4-0000-4000-8000-${pad(i, 12)}`,
  };
  if (!node)
    return {
      apiVersion: "v1",
      kind: "Pod",
      metadata,
      spec,
      status: { phase: "Pending", qosClass: "Burstable" },
    };
  const status = {
    conditions: ["PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled"].map(
      (t) => ({
        lastProbeTime: null,
        lastTransitionTime: "2026-01-05T10:00:01Z",
        status: "True",
        type: t,
      }),
    ),
    containerStatuses: [
      {
        containerID: `containerd://${pad(i, 64)}`,
        image: container.image,
        imageID: `registry.example.com/team-${i % 12}/service@sha256:${pad(i % 12, 8)}${"0".repeat(56)}`,
        lastState: {},
        name: "app",
        ready: true,
        restartCount: 0,
        started: true,
        state: { running: { startedAt: "2026-01-05T10:00:01Z" } },
        volumeMounts: [
          {
            mountPath: "/var/run/secrets/kubernetes.io/serviceaccount",
            name: "kube-api-access-x7k2p",
            readOnly: true,
            recursiveReadOnly: "Disabled",
          },
        ],
      },
    ],
    hostIP: "10.0.0.1",
    hostIPs: [{ ip: "10.0.0.1" }],
    phase: "Running",
    podIP: `100.64.${(i >> 8) & 255}.${i & 255}`,
    podIPs: [{ ip: `100.64.${(i >> 8) & 255}.${i & 255}` }],
    qosClass: "Burstable",
    startTime: "2026-01-05T10:00:00Z",
  };
  return { apiVersion: "v1", kind: "Pod", metadata, spec, status };
}

export interface ApiServerJsonOptions {
  nodes: number;
  pendingPods: number;
  /** Running pods are added (spread over the nodes) until the file reaches this size. */
  bytes: number;
}

/**
 * Writes a `kubectl get -o json` list (4-space indentation) of `nodes`, `pending` pods, then
 * `running(i)` pods until the file reaches about `bytes`. Returns the bytes written.
 */
function writeKubectlJson(
  file: string,
  o: { nodes: number; pendingPods: number; bytes: number },
  node: (i: number) => unknown,
  pod: (i: number, node: string | null) => unknown,
): number {
  const w = new FileWriter(file);
  const indent = (s: string) => s.replace(/\n/g, "\n        ");
  let first = true;
  let size = 0;
  const item = (obj: unknown) => {
    const s = `${first ? "" : ",\n"}        ${indent(JSON.stringify(obj, null, 4))}`;
    first = false;
    size += s.length;
    w.write(s);
  };
  w.write('{\n    "apiVersion": "v1",\n    "items": [\n');
  for (let i = 0; i < o.nodes; i++) item(node(i));
  for (let i = 0; i < o.pendingPods; i++) item(pod(i, null));
  const tail = '\n    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n';
  for (let i = o.pendingPods; size + tail.length < o.bytes - 200; i++) {
    item(pod(i, `node-${pad(i % Math.max(1, o.nodes), 5)}`));
  }
  w.write(tail);
  return w.close();
}

/** `kubectl get nodes,pods -o json` of API-server objects, to about `bytes`. Returns the bytes written. */
export function writeApiServerJson(
  file: string,
  o: ApiServerJsonOptions = { nodes: 10_000, pendingPods: 1_000, bytes: 500_000_000 },
): number {
  return writeKubectlJson(file, o, apiServerNode, apiServerPod);
}

/** The small nodes and pods of writeSmallPodsYaml as `kubectl get -o json`, to about `bytes`. */
export function writeSmallPodsJson(
  file: string,
  o: ApiServerJsonOptions = { nodes: 10_000, pendingPods: 1_000, bytes: 500_000_000 },
): number {
  const resources = { cpu: "32", memory: "128Gi", pods: "110" };
  const node = (i: number) => {
    const name = `node-${pad(i, 5)}`;
    return {
      apiVersion: "v1",
      kind: "Node",
      metadata: {
        labels: { "kubernetes.io/hostname": name, "topology.kubernetes.io/zone": `zone-${i % 3}` },
        name,
      },
      spec: {},
      status: { allocatable: resources, capacity: resources },
    };
  };
  const pod = (i: number, nodeName: string | null) => ({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: `web-${pad(i, 7)}`, namespace: "default" },
    spec: {
      containers: [{ image: "nginx", name: "web", resources: { requests: { cpu: "100m" } } }],
      ...(nodeName ? { nodeName } : {}),
    },
    status: { phase: nodeName ? "Running" : "Pending" },
  });
  return writeKubectlJson(file, o, node, pod);
}
