// kubesched snapshot and --kubeconfig, against the fake API server: read once, write, rerun offline.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadSnapshotFiles } from "@kubesched/cluster";
import {
  defaultServerVersion,
  FakeApiServer,
  type FakeApiServerOptions,
  waitFor,
} from "@kubesched/kube/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYAML } from "yaml";
import { runCli } from "../cli";
import { writeGeneratedCluster } from "./generated-cluster.test-util";
import { runCliIn } from "./run-cli.test-util";

const tmp = mkdtempSync(join(tmpdir(), "kubesched-snapshot-"));
let api: FakeApiServer;
let kubeconfig: string;
beforeAll(async () => {
  api = await FakeApiServer.start();
  kubeconfig = join(tmp, "kubeconfig");
  writeFileSync(kubeconfig, api.kubeConfigYAML());
  for (const n of ["n1", "n2"]) {
    api.put("Node", {
      metadata: { name: n },
      status: { allocatable: { cpu: "2", memory: "4Gi", pods: "110" } },
    });
  }
  const pod = (ns: string, name: string, app: string, nodeName?: string) =>
    api.put("Pod", {
      metadata: { namespace: ns, name, labels: { app } },
      spec: {
        ...(nodeName ? { nodeName } : {}),
        containers: [{ name: "c", image: "x", resources: { requests: { cpu: "1" } } }],
      },
    });
  pod("team-a", "running", "x", "n1");
  pod("team-a", "web", "web");
  pod("team-b", "other", "web");
}, 60_000);
afterAll(async () => {
  await api.close();
  rmSync(tmp, { recursive: true, force: true });
}, 60_000);

const run = (...argv: string[]) => runCliIn(tmp, argv);
/** What a command reading the emulator (a v1.37.0 server by default) says about the release. */
const emulating137 =
  "emulating Kubernetes 1.37, the release of the cluster's API server (v1.37.0); --emulated-version overrides\n";

describe("kubesched snapshot and --kubeconfig", () => {
  it("simulate --kubeconfig --namespace equals simulate --cluster on the written snapshot", async () => {
    const live = await run("simulate", "--kubeconfig", kubeconfig, "--namespace", "team-a", "-o", "json");
    expect(live.code).toBe(0);
    expect(live.stderr).toBe(emulating137);
    const r = JSON.parse(live.stdout) as { pods: { name: string; outcome: string }[] };
    expect(r.pods.map((p) => [p.name, p.outcome])).toEqual([["web", "Scheduled"]]);

    const snap = await run("snapshot", "--kubeconfig", kubeconfig, "-n", "team-a", "--out", "snap.yaml");
    expect(snap.code).toBe(0);
    expect(snap.stderr).toBe("read 4 objects\n");
    expect(readFileSync(join(tmp, "snap.yaml"), "utf8")).toContain("kind: Node");
    const offline = await run("simulate", "--cluster", "snap.yaml", "-o", "json");
    expect(offline.stdout).toBe(live.stdout);
  });

  it("capacity and diff read from the API server too; --selector filters pending pods", async () => {
    writeFileSync(
      join(tmp, "pod.yaml"),
      "kind: Pod\nmetadata: {name: probe}\nspec: {containers: [{name: c, image: x, resources: {requests: {cpu: 1}}}]}\n",
    );
    const cap = await run(
      "capacity",
      "--kubeconfig",
      kubeconfig,
      "-l",
      "app=none",
      "--pod",
      "pod.yaml",
      "-o",
      "json",
    );
    expect(cap.code).toBe(0);
    expect((JSON.parse(cap.stdout) as { status: { replicas: number } }).status.replicas).toBe(3);
    const d = await run(
      "diff",
      "--kubeconfig",
      kubeconfig,
      "--config",
      "default",
      "--config",
      "default",
      "-o",
      "json",
    );
    expect(d.code).toBe(0);
    expect((JSON.parse(d.stdout) as { pods: unknown[] }).pods).toHaveLength(2);
  });

  it("errors: a missing kubeconfig, an unknown context, neither input", async () => {
    expect(await run("snapshot", "--kubeconfig", "nope")).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: nope: no such file or directory\n",
    });
    const ctx = await run("snapshot", "--kubeconfig", kubeconfig, "--context", "other");
    expect(ctx).toEqual({ code: 1, stdout: "", stderr: `error: ${kubeconfig}: no context named "other"\n` });
    expect((await run("simulate")).code).toBe(2);
  });
});

describe("the kubeconfig resolved as kubectl does: --kubeconfig, $KUBECONFIG, ~/.kube/config, --context", () => {
  /** runCli with this environment (HOME, KUBECONFIG) instead of the process's. */
  async function runIn(env: Record<string, string | undefined>, ...argv: string[]) {
    let stdout = "";
    let stderr = "";
    const code = await runCli(argv, {
      stdout: (s) => (stdout += s),
      stderr: (s) => (stderr += s),
      cwd: tmp,
      env,
    });
    return { code, stdout, stderr };
  }
  const home = (name: string, kubeconfigText?: string) => {
    const dir = join(tmp, name);
    mkdirSync(join(dir, ".kube"), { recursive: true });
    if (kubeconfigText !== undefined) writeFileSync(join(dir, ".kube", "config"), kubeconfigText);
    return dir;
  };
  /** The emulator's kubeconfig under other names, pointing at a server nothing listens on. */
  const elsewhere = () =>
    api.kubeConfigYAML().replaceAll("fake", "other").replace(api.url, "http://127.0.0.1:1");

  it("snapshot without --kubeconfig reads $KUBECONFIG, else ~/.kube/config", async () => {
    const viaEnv = await runIn({ HOME: home("home-empty"), KUBECONFIG: kubeconfig }, "snapshot");
    expect(viaEnv.code).toBe(0);
    expect(viaEnv.stderr).toBe("read 5 objects\n");
    const viaHome = await runIn({ HOME: home("home-config", api.kubeConfigYAML()) }, "snapshot");
    expect(viaHome).toEqual(viaEnv);
    // --kubeconfig wins over both.
    const explicit = await runIn(
      { HOME: home("home-other", elsewhere()) },
      "snapshot",
      "--kubeconfig",
      kubeconfig,
    );
    expect(explicit).toEqual(viaEnv);
  });

  it("$KUBECONFIG's files are merged; --context picks one (simulate reads the cluster with --context alone)", async () => {
    const other = join(tmp, "other-kubeconfig");
    writeFileSync(other, elsewhere());
    const env = {
      HOME: home("home-merge"),
      KUBECONFIG: [other, join(tmp, "missing"), kubeconfig].join(delimiter),
    };
    // other's current-context comes first: its unreachable server is the one used.
    const first = await runIn(env, "snapshot");
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(new RegExp(`^error: \\$KUBECONFIG \\(${env.KUBECONFIG}\\): `));
    const picked = await runIn(env, "simulate", "--context", "fake", "--namespace", "team-a", "-o", "json");
    expect(picked.stderr).toBe(emulating137);
    expect(picked.code).toBe(0);
    expect((JSON.parse(picked.stdout) as { pods: { name: string }[] }).pods.map((p) => p.name)).toEqual([
      "web",
    ]);
    expect(await runIn(env, "snapshot", "--context", "nope")).toEqual({
      code: 1,
      stdout: "",
      stderr: `error: $KUBECONFIG (${env.KUBECONFIG}): no context named "nope"\n`,
    });
  });

  it("with no kubeconfig anywhere, one error naming every way to give one", async () => {
    const r = await runIn({ HOME: home("home-none") }, "snapshot");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: no configuration has been provided: give --kubeconfig, set \$KUBECONFIG, create ~\/\.kube\/config, or run in a pod with a service account/,
    );
  });

  it("kubesched run uses ~/.kube/config too (after the service account, as kube-scheduler would)", async () => {
    const h = home("home-run", api.kubeConfigYAML());
    const r = runIn({ HOME: h }, "run", "--secure-port=0", "--leader-elect=false");
    await waitFor(() => api.bindings.get("team-a/web") === 1, 10_000, "the binding");
    process.emit("SIGTERM");
    expect((await r).code).toBe(0);
  });
});

describe("kubesched snapshot redacts what a ticket should not carry", () => {
  let server: FakeApiServer;
  let kc: string;
  beforeAll(async () => {
    server = await FakeApiServer.start();
    kc = join(tmp, "kubeconfig-redact");
    writeFileSync(kc, server.kubeConfigYAML());
    const annotations = {
      "kubectl.kubernetes.io/last-applied-configuration": '{"kind":"Pod","secret":"applied-copy"}',
      "example.com/owner-email": "someone@example.com",
      "volume.kubernetes.io/selected-node": "n1",
    };
    const managedFields = [{ manager: "kubectl-client-side-apply", operation: "Update" }];
    server.put("Node", {
      metadata: { name: "n1", managedFields },
      status: { allocatable: { cpu: "2", memory: "4Gi", pods: "110" } },
    });
    server.put("Pod", {
      metadata: { namespace: "shop", name: "web", annotations, managedFields },
      spec: {
        containers: [
          {
            name: "c",
            image: "x",
            env: [
              { name: "DB_PASSWORD", value: "hunter2" },
              { name: "TOKEN", valueFrom: { secretKeyRef: { name: "tok", key: "t" } } },
            ],
          },
        ],
        initContainers: [{ name: "i", image: "x", env: [{ name: "INIT_KEY", value: "init-secret" }] }],
      },
    });
    server.put("ReplicaSet", {
      metadata: { namespace: "shop", name: "rs", annotations },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: "rs" } },
        template: {
          metadata: { labels: { app: "rs" }, annotations },
          spec: {
            containers: [{ name: "c", image: "x", env: [{ name: "API_KEY", value: "template-secret" }] }],
          },
        },
      },
    });
  }, 60_000);
  afterAll(async () => {
    await server.close();
  }, 60_000);

  const secrets = [
    "hunter2",
    "init-secret",
    "template-secret",
    "applied-copy",
    "someone@example.com",
    "kubectl-client-side-apply",
  ];

  it("by default: no env values, managedFields or annotations the scheduler does not read", async () => {
    const r = await run("snapshot", "--kubeconfig", kc);
    expect(r.code).toBe(0);
    for (const s of secrets) expect(r.stdout).not.toContain(s);
    expect(r.stdout).toContain("value: REDACTED");
    expect(r.stdout).toContain("secretKeyRef");
    expect(r.stdout).toContain("volume.kubernetes.io/selected-node: n1");
    expect(r.stdout).not.toContain("managedFields");
    // What the scheduler reads is all there: the redacted snapshot simulates as the cluster does.
    writeFileSync(join(tmp, "redacted.yaml"), r.stdout);
    const offline = await run("simulate", "--cluster", "redacted.yaml", "-o", "json");
    const live = await run("simulate", "--kubeconfig", kc, "-o", "json");
    expect(offline.code).toBe(0);
    expect(offline.stdout).toBe(live.stdout);
  });

  it("--no-redact keeps everything", async () => {
    const r = await run("snapshot", "--kubeconfig", kc, "--no-redact");
    expect(r.code).toBe(0);
    for (const s of secrets) expect(r.stdout).toContain(s);
  });

  it("the HTML report carries none of it either, even from an unredacted snapshot", async () => {
    const r = await run("snapshot", "--kubeconfig", kc, "--no-redact", "--out", "full.yaml");
    expect(r.code).toBe(0);
    const sim = await run("simulate", "--cluster", "full.yaml", "--explain", "--report", "report.html");
    expect(sim.code).toBe(0);
    const html = readFileSync(join(tmp, "report.html"), "utf8");
    expect(html).toContain("web");
    for (const s of secrets) expect(html).not.toContain(s);
  });
});

const root = fileURLToPath(new URL("../../../../", import.meta.url));

/** A fresh API server holding the objects of a snapshot file, and a kubeconfig for it. */
async function serve(
  file: string,
  options: FakeApiServerOptions = {},
): Promise<{ server: FakeApiServer; kubeconfig: string }> {
  const server = await FakeApiServer.start(options);
  const cfg = join(tmp, `kubeconfig-${server.url.replace(/\D/g, "")}`);
  writeFileSync(cfg, server.kubeConfigYAML());
  for (const { kind, obj } of loadSnapshotFiles([file], root).objects) {
    server.put(kind, obj as Record<string, unknown>, { silent: true });
  }
  return { server, kubeconfig: cfg };
}

describe("kubesched snapshot at the scale of the examples and of a 5000-node cluster", () => {
  it("examples/cluster.yaml served by an API server: snapshot, rerun offline, same result as --cluster", async () => {
    const { server, kubeconfig: cfg } = await serve("examples/cluster.yaml");
    let directOut = "";
    try {
      const snap = await run("snapshot", "--kubeconfig", cfg, "--out", "example-snap.yaml");
      expect(snap.code).toBe(0);
      expect(snap.stderr).toBe("read 22 objects\n");
      const offline = await run("simulate", "--cluster", "example-snap.yaml", "-o", "json");
      const live = await run("simulate", "--kubeconfig", cfg, "-o", "json");
      const direct = await runCli(["simulate", "--cluster", "examples/cluster.yaml", "-o", "json"], {
        stdout: (s) => (directOut += s),
        stderr: () => {},
        cwd: root,
      });
      expect(direct).toBe(0);
      expect(offline.stdout).toBe(live.stdout);
      const outcomes = (s: string) =>
        (
          JSON.parse(s) as {
            pods: { namespace: string; name: string; outcome: string; node: string | null }[];
          }
        ).pods
          .map((p) => `${p.namespace}/${p.name} ${p.outcome} ${p.node}`)
          .sort();
      expect(outcomes(offline.stdout)).toEqual(outcomes(directOut));
    } finally {
      await server.close();
    }
  });
  it("a generated 5000-node cluster: snapshot and simulate --kubeconfig agree", async () => {
    const { server, kubeconfig: cfg } = await serve(writeGeneratedCluster(tmp, 5000, 5));
    try {
      const snap = await run("snapshot", "--kubeconfig", cfg, "--out", "big-snap.yaml");
      expect(snap.code).toBe(0);
      expect(snap.stderr).toBe("read 5005 objects\n");
      const offline = await run("simulate", "--cluster", "big-snap.yaml", "-o", "json");
      const live = await run("simulate", "--kubeconfig", cfg, "-o", "json");
      expect(offline.code).toBe(0);
      expect(offline.stdout).toBe(live.stdout);
      const r = JSON.parse(offline.stdout) as { summary: { scheduled: number }; nodes: unknown[] };
      expect(r.summary.scheduled).toBe(5);
      expect(r.nodes).toHaveLength(5000);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe("kubesched snapshot with DRA objects", () => {
  /** An API server with node n1, the gpu.example.com DeviceClass and n1's slice of `devices`. */
  async function gpuServer(kubeconfig: string, devices: object[]) {
    const dra = await FakeApiServer.start();
    const cfg = join(tmp, kubeconfig);
    writeFileSync(cfg, dra.kubeConfigYAML());
    dra.put("Node", { metadata: { name: "n1" }, status: { allocatable: { cpu: "2", pods: "110" } } });
    dra.put("DeviceClass", { metadata: { name: "gpu.example.com" }, spec: {} });
    dra.put("ResourceSlice", {
      metadata: { name: "n1-gpu" },
      spec: {
        driver: "gpu.example.com",
        nodeName: "n1",
        pool: { name: "n1", generation: 1, resourceSliceCount: 1 },
        devices,
      },
    });
    return { dra, cfg };
  }

  it("writes ResourceClaims, ResourceClaimTemplates, ResourceSlices and DeviceClasses; simulate --cluster reads them back", async () => {
    const { dra, cfg } = await gpuServer("dra-kubeconfig", [
      { name: "gpu-0", attributes: { model: { string: "a100" } } },
    ]);
    try {
      const claimSpec = {
        devices: { requests: [{ name: "gpu", exactly: { deviceClassName: "gpu.example.com" } }] },
      };
      dra.put("ResourceClaim", { metadata: { name: "c", namespace: "ml" }, spec: claimSpec });
      dra.put("ResourceClaimTemplate", {
        metadata: { name: "t", namespace: "ml" },
        spec: { spec: claimSpec },
      });
      const snap = await run("snapshot", "--kubeconfig", cfg, "--out", "dra-snap.yaml");
      expect(snap).toEqual({ code: 0, stdout: "", stderr: "read 5 objects\n" });
      const loaded = loadSnapshotFiles(["dra-snap.yaml"], tmp);
      expect(loaded.warnings).toEqual([]);
      expect(loaded.objects.map((o) => `${o.kind} ${o.obj.metadata?.name}`)).toEqual([
        "Node n1",
        "ResourceClaim c",
        "ResourceClaimTemplate t",
        "ResourceSlice n1-gpu",
        "DeviceClass gpu.example.com",
      ]);
      const offline = await run("simulate", "--cluster", "dra-snap.yaml", "-o", "json");
      expect(offline.code).toBe(0);
      expect(offline.stderr).toBe(
        `${emulating137}warning: no pending pods (pods without spec.nodeName) in dra-snap.yaml\n`,
      );
    } finally {
      await dra.close();
    }
  }, 60_000);

  it("snapshot and live reads keep a claim's allocation and reservedFor and a pod's resourceClaimStatuses; simulate shows the devices in use, live and offline alike", async () => {
    const { dra, cfg } = await gpuServer("dra-status-kubeconfig", [{ name: "gpu-0" }, { name: "gpu-1" }]);
    try {
      const claimSpec = {
        devices: { requests: [{ name: "gpu", exactly: { deviceClassName: "gpu.example.com" } }] },
      };
      dra.put("ResourceClaimTemplate", {
        metadata: { name: "t", namespace: "ml" },
        spec: { spec: claimSpec },
      });
      dra.put("ResourceClaim", {
        metadata: {
          name: "run-gpu-abcde",
          namespace: "ml",
          annotations: { "resource.kubernetes.io/pod-claim-name": "gpu" },
          ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: "run", uid: "run-uid", controller: true }],
        },
        spec: claimSpec,
        status: {
          allocation: {
            devices: {
              results: [{ request: "gpu", driver: "gpu.example.com", pool: "n1", device: "gpu-1" }],
            },
          },
          reservedFor: [{ resource: "pods", name: "run", uid: "run-uid" }],
        },
      });
      const podSpec = (extra: object) => ({
        resourceClaims: [{ name: "gpu", resourceClaimTemplateName: "t" }],
        containers: [{ name: "c", image: "i", resources: { claims: [{ name: "gpu" }] } }],
        ...extra,
      });
      dra.put("Pod", {
        metadata: { name: "run", namespace: "ml", uid: "run-uid" },
        spec: podSpec({ nodeName: "n1" }),
        status: {
          phase: "Running",
          resourceClaimStatuses: [{ name: "gpu", resourceClaimName: "run-gpu-abcde" }],
        },
      });
      dra.put("Pod", { metadata: { name: "next", namespace: "ml", uid: "next-uid" }, spec: podSpec({}) });
      const snap = await run("snapshot", "--kubeconfig", cfg, "--out", "dra-status-snap.yaml");
      expect(snap.code).toBe(0);
      const loaded = loadSnapshotFiles(["dra-status-snap.yaml"], tmp);
      const byName = new Map(
        loaded.objects.map((o) => [o.obj.metadata?.name, o.obj as Record<string, unknown>]),
      );
      expect(
        (byName.get("run-gpu-abcde")?.status as { reservedFor?: unknown } | undefined)?.reservedFor,
      ).toEqual([{ resource: "pods", name: "run", uid: "run-uid" }]);
      expect(
        (byName.get("run")?.status as { resourceClaimStatuses?: unknown } | undefined)?.resourceClaimStatuses,
      ).toEqual([{ name: "gpu", resourceClaimName: "run-gpu-abcde" }]);
      const offline = await run("simulate", "--cluster", "dra-status-snap.yaml", "-o", "json");
      const live = await run("simulate", "--kubeconfig", cfg, "-o", "json");
      expect(offline.code).toBe(0);
      expect(live.stdout).toBe(offline.stdout);
      const r = JSON.parse(offline.stdout) as {
        pods: { name: string; resourceClaims: { resourceClaim: string | null }[] }[];
        nodes: { devices: unknown }[];
      };
      // The running pod's GPU was allocated before; the pending pod's generated claim gets the other.
      expect(r.nodes[0]?.devices).toEqual([
        { driver: "gpu.example.com", pool: "n1", published: 2, allocated: 2, allocatedBefore: 1 },
      ]);
      // The pending pod's claim is generated from the template the snapshot kept.
      expect(r.pods[0]?.resourceClaims[0]?.resourceClaim).toMatch(/^next-gpu-[a-z0-9]{5}$/);
    } finally {
      await dra.close();
    }
  }, 60_000);
});

// issue 27 item 2: the snapshot records the server's /version; the simulators behave as that release.
describe("the snapshot knows its Kubernetes version", () => {
  const at = (gitVersion: string, minor: string) => ({
    ...defaultServerVersion,
    minor,
    emulationMinor: minor,
    gitVersion,
  });
  const note = (release: string, gitVersion: string) =>
    `emulating Kubernetes ${release}, the release of the cluster's API server (${gitVersion}); --emulated-version overrides\n`;
  /**
   * The 1.33 message of examples/cluster.yaml's render-xl: no DynamicResources in the default
   * profile, and the untolerated taint named (kubernetes/kubernetes#134740 dropped it in 1.35).
   */
  const renderXl133 =
    "0/6 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) were unschedulable, 4 Insufficient cpu, 4 Insufficient memory. preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling.";
  const renderXl = (stdout: string) =>
    (JSON.parse(stdout) as { pods: { name: string; message: string }[] }).pods.find(
      (p) => p.name === "render-xl",
    )?.message;

  it("snapshot writes one v1 List whose metadata records /version; simulate, capacity, diff and why on it behave as that release and say so", async () => {
    const { server, kubeconfig: cfg } = await serve("examples/cluster.yaml", {
      version: at("v1.33.5", "33"),
    });
    try {
      const snap = await run("snapshot", "--kubeconfig", cfg, "--out", "snap-133.yaml");
      expect(snap).toMatchObject({ code: 0, stderr: "read 22 objects\n" });
      // The shape kubectl get -o yaml writes: kubectl and client libraries read its items.
      const list = parseYAML(readFileSync(join(tmp, "snap-133.yaml"), "utf8")) as {
        apiVersion: string;
        kind: string;
        metadata: { annotations: Record<string, string> };
        items: unknown[];
      };
      expect([list.apiVersion, list.kind, list.items.length]).toEqual(["v1", "List", 22]);
      expect(JSON.parse(list.metadata.annotations["kubesched.io/server-version"] ?? "")).toEqual(
        at("v1.33.5", "33"),
      );

      const offline = await run("simulate", "--cluster", "snap-133.yaml", "-o", "json");
      expect(offline.code).toBe(0);
      expect(offline.stderr).toBe(note("1.33", "v1.33.5"));
      expect(renderXl(offline.stdout)).toBe(renderXl133);
      // Read live, the same release and the same result.
      const live = await run("simulate", "--kubeconfig", cfg, "-o", "json");
      expect(live.stderr).toBe(note("1.33", "v1.33.5"));
      expect(live.stdout).toBe(offline.stdout);
      // Gates are checked at the snapshot's release, as upstream checks them at the emulated one.
      const gate = await run(
        "simulate",
        "--cluster",
        "snap-133.yaml",
        "--feature-gates",
        "OpportunisticBatching=false",
      );
      expect(gate.code).toBe(2);
      expect(gate.stderr).toContain(
        `${note("1.33", "v1.33.5")}error: invalid argument "OpportunisticBatching=false" for "--feature-gates" flag: cannot set feature gate OpportunisticBatching to false, feature is PreAlpha at emulated version 1.33`,
      );
      // An explicit --emulated-version wins, silently.
      const at135 = await run(
        "simulate",
        "--cluster",
        "snap-133.yaml",
        "-o",
        "json",
        "--emulated-version",
        "1.35",
      );
      expect(at135.stderr).toBe("");
      expect(renderXl(at135.stdout)).toContain(". no new claims to deallocate, preemption: ");

      for (const argv of [
        ["capacity", "--pod", "examples/workloads/web-pod.yaml"],
        ["diff", "--config", "default", "--config", "examples/config/bin-packing.yaml"],
        ["why", "default/render-xl"],
      ]) {
        const r = await runCliIn(root, [...argv, "--cluster", join(tmp, "snap-133.yaml"), "-o", "json"]);
        expect(r.stderr, argv[0]).toBe(note("1.33", "v1.33.5"));
      }
      const why = await runCliIn(root, ["why", "default/render-xl", "--cluster", join(tmp, "snap-133.yaml")]);
      expect(why.stdout).not.toContain("no new claims to deallocate");
    } finally {
      await server.close();
    }
  }, 60_000);

  it("a release kubesched does not emulate: the newest, with one warning; a vendor build's version is read", async () => {
    const { server, kubeconfig: cfg } = await serve("examples/cluster.yaml", {
      version: at("v1.31.4", "31"),
    });
    try {
      const r = await run("simulate", "--kubeconfig", cfg, "-o", "json");
      expect(r.code).toBe(0);
      expect(r.stderr).toBe(
        `warning: ${cfg} (API server).json: the cluster's API server is v1.31.4, not a release kubesched emulates (1.33–1.37); behaving as 1.37 (--emulated-version chooses)\n`,
      );
      // 1.37's message: without DynamicResources' PostFilter clause (#140222), as 1.33's, and
      // without the taint 1.33 names (#134740).
      expect(renderXl(r.stdout)).toBe(
        renderXl133.replace("untolerated taint {dedicated: gpu}", "untolerated taint(s)"),
      );
      server.setVersion({ ...at("v1.34.1-eks-3cfe0ce", "34+"), emulationMajor: "", emulationMinor: "" });
      const eks = await run("simulate", "--kubeconfig", cfg, "-o", "json");
      expect(eks.stderr).toBe(note("1.34", "v1.34.1-eks-3cfe0ce"));
    } finally {
      await server.close();
    }
  }, 60_000);

  it("a server that does not serve /version: a warning, and the snapshot records none", async () => {
    const { server, kubeconfig: cfg } = await serve("examples/cluster.yaml", { version: null });
    try {
      const snap = await run("snapshot", "--kubeconfig", cfg, "--out", "snap-none.yaml");
      expect(snap.code).toBe(0);
      expect(snap.stderr).toBe(
        `warning: ${cfg}: cannot read the server's /version (GET /version: the server could not find the requested resource); the snapshot records no Kubernetes version\nread 22 objects\n`,
      );
      expect(readFileSync(join(tmp, "snap-none.yaml"), "utf8")).not.toContain("kubesched.io/server-version");
      const offline = await run("simulate", "--cluster", "snap-none.yaml", "-o", "json");
      expect(offline.stderr).toBe("");
    } finally {
      await server.close();
    }
  }, 60_000);

  it("a malformed recorded version is an error naming the field", async () => {
    writeFileSync(
      join(tmp, "bad-version.yaml"),
      "apiVersion: v1\nkind: List\nmetadata:\n  annotations:\n    kubesched.io/server-version: v1.35.0\nitems: []\n",
    );
    const r = await run("simulate", "--cluster", "bad-version.yaml");
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'error: bad-version.yaml: document 1: metadata.annotations["kubesched.io/server-version"]: invalid JSON; expected the JSON of an API server\'s /version\n',
    );
  }, 60_000);
});
