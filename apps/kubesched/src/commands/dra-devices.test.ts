// Devices as users see them: `kubesched simulate` gives per pod its claims and the devices their
// allocations name (the claims in the cluster when the run ended), per node the devices its
// ResourceSlices publish and how many claims hold, after and before, in -o json (valid against
// --schema), -o yaml, the table and --explain; `kubesched capacity` counts replicas of a template
// with claims. The claims' allocations are the snapshot's: the fixture's profile runs without
// DynamicResources, so the pods schedule without allocating.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadSnapshotTexts, simulate } from "@kubesched/cluster";
import { defaultConfig, emulatedReleaseOf } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger } from "@kubesched/testing";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYAML } from "yaml";
import { runCliIn } from "./run-cli.test-util";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const run = (...argv: string[]) => runCliIn(root, argv);
const fixture = "apps/kubesched/test-fixtures/dra-devices";
const args = [
  "--cluster",
  `${fixture}/cluster.yaml`,
  "--config",
  `${fixture}/without-dynamic-resources.yaml`,
];

const tmp = mkdtempSync(join(tmpdir(), "kubesched-devices-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Result {
  deviceClasses?: unknown;
  pods: {
    name: string;
    outcome: string;
    node: string | null;
    resourceClaims?: unknown;
    nodeAllocatableResourceClaimStatuses?: unknown;
  }[];
  nodes: {
    name: string;
    devices?: unknown;
    requested: Record<string, string>;
    before: { requested: Record<string, string> };
  }[];
}

let validate: ValidateFunction;
beforeAll(async () => {
  const { stdout } = await run("simulate", "--schema");
  validate = new Ajv2020({ strict: true, allErrors: true }).compile(JSON.parse(stdout));
}, 60_000);

describe("kubesched simulate: devices", () => {
  it("-o json: each pod's claims with their devices, each node's devices; valid against --schema", async () => {
    const { code, stdout, stderr } = await run("simulate", ...args, "-o", "json");
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const r = JSON.parse(stdout) as Result;
    expect(validate(r), JSON.stringify(validate.errors)).toBe(true);
    expect(r.pods.map((p) => [p.name, p.node, p.resourceClaims])).toEqual([
      [
        "inference",
        "gpu-a",
        [
          {
            name: "gpu",
            resourceClaim: "shared-gpu",
            allocated: true,
            devices: [{ request: "gpu", driver: "gpu.example.com", pool: "gpu-a", device: "gpu-0" }],
          },
        ],
      ],
      // The claim the resourceclaim controller generated from the template: not allocated.
      ["train", "gpu-b", [{ name: "gpu", resourceClaim: "train-gpu-h99cm", allocated: false, devices: [] }]],
    ]);
    expect(r.nodes.map((n) => [n.name, n.devices])).toEqual([
      [
        "gpu-a",
        [{ driver: "gpu.example.com", pool: "gpu-a", published: 4, allocated: 1, allocatedBefore: 1 }],
      ],
      [
        "gpu-b",
        [{ driver: "gpu.example.com", pool: "gpu-b", published: 2, allocated: 0, allocatedBefore: 0 }],
      ],
    ]);
    // The class's selector (device.driver == "gpu.example.com") matches the 6 GPUs of both pools.
    expect(r.deviceClasses).toEqual([
      { name: "gpu.example.com", published: 6, allocated: 1, allocatedBefore: 1 },
    ]);

    const yaml = await run("simulate", ...args, "-o", "yaml", "--explain");
    expect(yaml.code).toBe(0);
    const doc = parseYAML(yaml.stdout) as Result;
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(doc.pods.map((p) => p.resourceClaims)).toEqual(r.pods.map((p) => p.resourceClaims));
  }, 60_000);

  it("the table: a CLAIMS table and a DEVICES table; --explain names each pod's devices", async () => {
    const { code, stdout } = await run("simulate", ...args, "--explain");
    expect(code).toBe(0);
    expect(stdout).toContain(
      [
        "POD                CLAIM  RESOURCECLAIM    DEVICES",
        "default/inference  gpu    shared-gpu       gpu: gpu.example.com/gpu-a/gpu-0",
        "default/train      gpu    train-gpu-h99cm  (not allocated)",
        "",
        "NODE   DRIVER           POOL   ALLOCATED  BEFORE",
        "gpu-a  gpu.example.com  gpu-a  1/4        1/4",
        "gpu-b  gpu.example.com  gpu-b  0/2        0/2",
        "",
        "DEVICECLASS      ALLOCATED  BEFORE",
        "gpu.example.com  1/6        1/6",
      ].join("\n"),
    );
    expect(stdout).toMatch(
      /^default\/inference: Scheduled on gpu-a\n {2}claim gpu \(shared-gpu\): gpu: gpu\.example\.com\/gpu-a\/gpu-0\n/m,
    );
    expect(stdout).toMatch(
      /^default\/train: Scheduled on gpu-b\n {2}claim gpu \(train-gpu-h99cm\): \(not allocated\)\n/m,
    );
  }, 60_000);

  it("a claim not created reads so; pods and nodes without devices have no device fields", async () => {
    const extra = join(tmp, "no-template.yaml");
    writeFileSync(
      extra,
      "apiVersion: v1\nkind: Pod\nmetadata: { name: orphan }\nspec: { resourceClaims: [{ name: gpu, resourceClaimTemplateName: missing }], containers: [{ name: c }] }\n",
    );
    const cli = [
      "--cluster",
      `${fixture}/cluster.yaml`,
      "--cluster",
      "examples/cluster.yaml",
      "--cluster",
      extra,
    ];
    const json = await run(
      "simulate",
      ...cli,
      "--config",
      `${fixture}/without-dynamic-resources.yaml`,
      "-o",
      "json",
    );
    const r = JSON.parse(json.stdout) as Result;
    expect(r.pods.filter((p) => p.resourceClaims).map((p) => p.name)).toEqual([
      "inference",
      "train",
      "orphan",
    ]);
    expect(r.pods.at(-1)?.resourceClaims).toEqual([
      { name: "gpu", resourceClaim: null, allocated: false, devices: [] },
    ]);
    expect(r.nodes.filter((n) => n.devices).map((n) => n.name)).toEqual(["gpu-a", "gpu-b"]);
    const table = await run("simulate", ...cli);
    expect(table.stdout).toMatch(/^default\/orphan\s+gpu\s+-\s+\(not created\)$/m);
  }, 60_000);
});

describe("kubesched capacity: a template with claims", () => {
  const template = (claimTemplate: string) => {
    const f = join(tmp, `trainer-${claimTemplate}.yaml`);
    writeFileSync(
      f,
      `apiVersion: v1
kind: Pod
metadata: { name: trainer }
spec:
  resourceClaims: [{ name: gpu, resourceClaimTemplateName: ${claimTemplate} }]
  containers: [{ name: c, image: i, resources: { requests: { cpu: "2" }, claims: [{ name: gpu }] } }]
`,
    );
    return f;
  };

  it("every replica gets its own claim from the template (the resourceclaim controller) and is counted", async () => {
    const { code, stdout, stderr } = await run(
      "capacity",
      ...args,
      "--pod",
      template("one-gpu"),
      "-o",
      "json",
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      status: { replicas: number; pods: { replicasOnNodes: unknown }[] };
    };
    // 8 cpu each; gpu-a runs a 1-cpu pod and gets inference, gpu-b gets train: 3 + 3 of 2 cpu.
    expect(report.status.replicas).toBe(6);
    expect(report.status.pods[0]?.replicasOnNodes).toEqual([
      { nodeName: "gpu-a", replicas: 3 },
      { nodeName: "gpu-b", replicas: 3 },
    ]);
  }, 60_000);

  it("a replica whose claim template is missing stops the count with the reason it is gated", async () => {
    const { code, stdout, stderr } = await run(
      "capacity",
      "--cluster",
      `${fixture}/cluster.yaml`,
      "--pod",
      template("missing"),
      "-o",
      "json",
    );
    expect(code).toBe(0);
    expect(stderr).toMatch(/PodResourceClaim gpu: resource claim template \\"missing\\"/);
    const report = JSON.parse(stdout) as { status: { replicas: number; failReason: unknown } };
    expect(report.status.replicas).toBe(0);
    expect(report.status.failReason).toEqual({
      failType: "Unschedulable",
      failMessage: 'the replica is gated: pod "default/trainer-0": ResourceClaim not created yet',
    });
  }, 60_000);
});

describe("examples/dra-gpu", () => {
  it("the README shows what `kubesched simulate --cluster examples/dra-gpu/cluster.yaml` prints", async () => {
    const readme = readFileSync(`${root}README.md`, "utf8");
    const shown = /```\n\$ kubesched simulate --cluster examples\/dra-gpu\/cluster\.yaml\n([\s\S]*?)```/.exec(
      readme,
    )?.[1];
    expect(shown, "README has the example's output").toBeDefined();
    const { code, stdout, stderr } = await run("simulate", "--cluster", "examples/dra-gpu/cluster.yaml");
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toBe(shown);
  }, 60_000);

  it("every pod of the example has its claims, generated ones from their templates; the nodes their GPUs", async () => {
    const { stdout } = await run("simulate", "--cluster", "examples/dra-gpu/cluster.yaml", "-o", "json");
    const r = JSON.parse(stdout) as Result;
    expect(validate(r), JSON.stringify(validate.errors)).toBe(true);
    const claims = Object.fromEntries(
      r.pods.map((p) => [
        p.name,
        (p.resourceClaims as { resourceClaim: string | null }[] | undefined)?.map((c) => c.resourceClaim),
      ]),
    );
    expect(claims.notebook).toEqual([
      expect.stringMatching(/^notebook-gpu-[bcdfghjklmnpqrstvwxz2456789]{5}$/),
    ]);
    expect(claims["inference-a"]).toEqual(["shared-gpu"]);
    expect(claims["inference-b"]).toEqual(["shared-gpu"]);
    expect(claims.etl).toBeUndefined();
    expect(
      r.nodes.map((n) => [
        n.name,
        (n.devices as { published: number; allocatedBefore: number }[] | undefined)?.map((d) => [
          d.published,
          d.allocatedBefore,
        ]),
      ]),
    ).toEqual([
      ["gpu-node-1", [[4, 0]]],
      ["gpu-node-2", [[4, 0]]],
      ["gpu-node-3", [[2, 1]]],
      ["cpu-node-1", undefined],
    ]);
  }, 60_000);
});

describe("examples/dra-gpu/cpu-dra.yaml (DRANodeAllocatableResources)", () => {
  const args = ["simulate", "--cluster", "examples/dra-gpu/cpu-dra.yaml"];
  const gate = ["--feature-gates", "DRANodeAllocatableResources=true"];

  it("the README shows what the simulation prints with the gate on", async () => {
    const readme = readFileSync(`${root}README.md`, "utf8");
    const shown =
      /```\n\$ kubesched simulate --cluster examples\/dra-gpu\/cpu-dra\.yaml --feature-gates DRANodeAllocatableResources=true\n([\s\S]*?)```/.exec(
        readme,
      )?.[1];
    expect(shown, "README has the example's output").toBeDefined();
    const { code, stdout, stderr } = await run(...args, ...gate);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toBe(shown);
  }, 60_000);

  it("-o json: each pod's nodeAllocatableResourceClaimStatuses; the nodes' cpu counts the devices' cpus", async () => {
    const { stdout } = await run(...args, ...gate, "-o", "json");
    const r = JSON.parse(stdout) as Result;
    expect(validate(r), JSON.stringify(validate.errors)).toBe(true);
    const trainer = r.pods.find((p) => p.name === "trainer");
    expect(trainer?.nodeAllocatableResourceClaimStatuses).toEqual([
      {
        resourceClaimName: expect.stringMatching(/^trainer-cpus-[bcdfghjklmnpqrstvwxz2456789]{5}$/),
        containers: ["main"],
        mapping: [{ name: "cpu", quantity: "32" }],
      },
    ]);
    expect(r.pods.find((p) => p.name === "web")?.nodeAllocatableResourceClaimStatuses).toBeUndefined();
    expect(r.pods.find((p) => p.name === "analytics")).toMatchObject({ outcome: "Unschedulable" });
    // db-0's 16 cpus count before the run; trainer's 32 after.
    expect(r.nodes.map((n) => [n.name, n.before.requested.cpu, n.requested.cpu])).toEqual([
      ["cpu-node-a", "18", "58"],
      ["cpu-node-b", "0", "36100m"],
    ]);
  }, 60_000);

  it("gate off (1.37's default): the devices' cpus are not counted; every pod schedules, as before the feature", async () => {
    const { code, stdout, stderr } = await run(...args, "-o", "json");
    expect([code, stderr]).toEqual([0, ""]);
    const r = JSON.parse(stdout) as Result;
    expect(r.pods.map((p) => [p.name, p.outcome, p.nodeAllocatableResourceClaimStatuses])).toEqual([
      ["trainer", "Scheduled", undefined],
      ["web", "Scheduled", undefined],
      ["analytics", "Scheduled", undefined],
    ]);
    expect(r.nodes.map((n) => [n.name, n.before.requested.cpu])).toEqual([
      ["cpu-node-a", "2"],
      ["cpu-node-b", "0"],
    ]);
  }, 60_000);
});

describe("kubesched why: a pod whose claim comes from a template", () => {
  it("is examined with the claim the resourceclaim controller generates; a missing template is logged", async () => {
    const found = await run("why", "ml/notebook", "--cluster", "examples/dra-gpu/cluster.yaml", "--no-fixes");
    expect(found.code).toBe(0);
    expect(found.stderr).toBe("");
    expect(found.stdout).not.toContain("ResourceClaim not created yet");

    const f = join(tmp, "notebook-without-template.yaml");
    writeFileSync(
      f,
      readFileSync(`${root}examples/dra-gpu/cluster.yaml`, "utf8").replace(
        "metadata: { name: one-gpu, namespace: ml }",
        "metadata: { name: other, namespace: ml }",
      ),
    );
    const missing = await run("why", "ml/notebook", "--cluster", f, "--no-fixes");
    // DynamicResources' PreEnqueue holds the pod back: it never reaches PreFilter.
    expect(missing.stdout).toContain(
      'The pod never enters a scheduling cycle: PreEnqueue of DynamicResources holds it back (UnschedulableAndUnresolvable): pod "ml/notebook": ResourceClaim not created yet',
    );
    expect(missing.stderr).toMatch(
      /"pod ml\/notebook, PodResourceClaim gpu: resource claim template \\"one-gpu\\": resourceclaimtemplate.resource.k8s.io \\"one-gpu\\" not found"/,
    );
  }, 60_000);
});

describe("the DRA gates of the emulated release", () => {
  const partitioned = "apps/kubesched/test-fixtures/dra-partitioned/cluster.yaml";
  const outcome = async (...flags: string[]) => {
    const { code, stdout } = await run("simulate", "--cluster", partitioned, "-o", "json", ...flags);
    expect(code).toBe(0);
    return (JSON.parse(stdout) as Result).pods[0]?.outcome;
  };
  it("allocates a counter-partitioned device from 1.36 (DRAPartitionableDevices beta), not at 1.35 or with the gate off", async () => {
    expect(await outcome("--emulated-version", "1.37")).toBe("Scheduled");
    expect(await outcome("--emulated-version", "1.36")).toBe("Scheduled");
    expect(await outcome("--emulated-version", "1.35")).toBe("Unschedulable");
    expect(await outcome("--feature-gates", "DRAPartitionableDevices=false")).toBe("Unschedulable");
  }, 60_000);

  it("a class selector reading device.allowMultipleAllocations: the plugin allocates and the device output counts alike, DRAConsumableCapacity on or off", async () => {
    const shared = "apps/kubesched/test-fixtures/dra-shared/cluster.yaml";
    for (const flags of [
      ["--emulated-version", "1.37"],
      ["--emulated-version", "1.35"],
      ["--feature-gates", "DRAConsumableCapacity=false"],
    ]) {
      const { code, stdout } = await run("simulate", "--cluster", shared, "-o", "json", ...flags);
      expect(code).toBe(0);
      const r = JSON.parse(stdout) as Result;
      expect([r.pods[0]?.outcome, r.deviceClasses], flags.join(" ")).toEqual([
        "Scheduled",
        [{ name: "shared-gpu.example.com", published: 1, allocated: 1, allocatedBefore: 0 }],
      ]);
    }
  }, 60_000);
});

describe("a library simulate() at an emulated release decides as the CLI does", () => {
  // A DeviceClass-backed extended resource on the only node: DRAExtendedResource is off by
  // default at 1.35 (alpha), GA at 1.37.
  const objects = (recorded?: string) => `apiVersion: v1
kind: List
metadata:${recorded ? `\n  annotations: { kubesched.io/server-version: '{"major":"1","minor":"${recorded.split(".")[1]}","gitVersion":"${recorded}"}' }` : " {}"}
items:
  - apiVersion: resource.k8s.io/v1
    kind: DeviceClass
    metadata: { name: gpu.example.com }
    spec:
      extendedResourceName: example.com/gpu
      selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }]
  - apiVersion: v1
    kind: Node
    metadata: { name: node-a }
    status: { allocatable: { cpu: "16", memory: 64Gi, pods: "110" } }
  - apiVersion: resource.k8s.io/v1
    kind: ResourceSlice
    metadata: { name: node-a-gpus }
    spec:
      driver: gpu.example.com
      nodeName: node-a
      pool: { name: node-a, generation: 1, resourceSliceCount: 1 }
      devices: [{ name: gpu-0 }, { name: gpu-1 }]
  - apiVersion: v1
    kind: Pod
    metadata: { name: train, namespace: default }
    spec:
      containers:
        - { name: c, image: i, resources: { requests: { cpu: "1", example.com/gpu: "1" }, limits: { example.com/gpu: "1" } } }
`;
  const outcomes = (r: { pods: { outcome: string; message?: string | null }[] }) =>
    r.pods.map((p) => `${p.outcome} ${p.message ?? ""}`.trim());
  const cli = async (file: string, ...flags: string[]) => {
    const { code, stdout } = await run("simulate", "--cluster", file, "-o", "json", ...flags);
    expect(code).toBe(0);
    return outcomes(JSON.parse(stdout) as Result & { pods: { message?: string }[] });
  };
  const library = async (text: string, kubernetesVersion?: string) => {
    const load = loadSnapshotTexts([{ name: "cluster.yaml", text }]);
    const release = kubernetesVersion ?? emulatedReleaseOf(load.serverVersion?.info ?? {});
    return outcomes(
      await simulate({
        config: defaultConfig({ registry: inTreeRegistry, kubernetesVersion: release }),
        registry: inTreeRegistry,
        objects: load.objects,
        logger: recordingLogger(),
        ...(release ? { kubernetesVersion: release } : {}),
      }),
    );
  };
  it("--emulated-version 1.35 and 1.37, and the snapshot's recorded /version", async () => {
    const plain = join(tmp, "extended-resource.yaml");
    writeFileSync(plain, objects());
    const at135 = await library(objects(), "1.35");
    expect(at135[0]).toMatch(/^Unschedulable 0\/1 nodes are available: 1 Insufficient example.com\/gpu\./);
    expect(await cli(plain, "--emulated-version", "1.35")).toEqual(at135);
    expect(await library(objects(), "1.37")).toEqual(["Scheduled"]);
    expect(await cli(plain, "--emulated-version", "1.37")).toEqual(["Scheduled"]);

    const recorded = join(tmp, "extended-resource-1.35.yaml");
    writeFileSync(recorded, objects("v1.35.4"));
    expect(await library(objects("v1.35.4"))).toEqual(at135);
    expect(await cli(recorded)).toEqual(at135);
  }, 60_000);
});

describe("DRAListTypeAttributes: list-valued device attributes in claim constraints", () => {
  const aligned = "apps/kubesched/test-fixtures/dra-list-attributes/cluster.yaml";
  const simulate = async (...flags: string[]) => {
    const { code, stdout } = await run("simulate", "--cluster", aligned, "-o", "json", ...flags);
    expect(code).toBe(0);
    return (JSON.parse(stdout) as Result).pods[0] as Result["pods"][number] & { message?: string };
  };
  it("with the gate on, matchAttribute picks the CPU whose list of PCIe roots holds the GPU's root", async () => {
    const pod = await simulate("--feature-gates", "DRAListTypeAttributes=true");
    expect(pod.outcome).toBe("Scheduled");
    expect(pod.resourceClaims).toEqual([
      {
        name: "devices",
        resourceClaim: "aligned",
        allocated: true,
        devices: [
          { request: "gpu", driver: "gpu.example.com", pool: "node-a", device: "gpu-0" },
          { request: "cpu", driver: "cpu.example.com", pool: "node-a", device: "cpu-1" },
        ],
      },
    ]);
  }, 60_000);
  it("with the gate off (1.37's default, alpha) a list value fails the selectors as upstream: unsupported attribute value", async () => {
    // The GPU class's selector meets the CPUs first (pools in driver order).
    const pod = await simulate();
    expect(pod.outcome).toBe("Error");
    expect(pod.message).toBe(
      'running "DynamicResources" filter plugin: class gpu.example.com: selector #0: CEL runtime error: attribute resource.kubernetes.io/pcieRoot: unsupported attribute value',
    );
  }, 60_000);
});

describe("DRADeviceCompatibilityGroups: partitions of one GPU that cannot run side by side", () => {
  const gpu = "apps/kubesched/test-fixtures/dra-compatibility-groups/cluster.yaml";
  const devices = async (...flags: string[]) => {
    const { code, stdout } = await run("simulate", "--cluster", gpu, "-o", "json", ...flags);
    expect(code).toBe(0);
    const pod = (JSON.parse(stdout) as Result).pods[0] as Result["pods"][number];
    expect(pod.outcome).toBe("Scheduled");
    const claims = pod.resourceClaims as { devices?: { device: string }[] }[] | undefined;
    return claims?.[0]?.devices?.map((d) => d.device);
  };
  it("with the gate on, the claim gets two MIG partitions: the vGPU one does not go with them", async () => {
    expect(await devices("--feature-gates", "DRADeviceCompatibilityGroups=true")).toEqual(["mig-0", "mig-1"]);
  }, 60_000);
  it("with the gate off (1.37's default, alpha) the groups are not read: the first two partitions", async () => {
    expect(await devices()).toEqual(["mig-0", "vgpu-0"]);
  }, 60_000);
});

describe("DRAFractionalCapacityRange: a device shared in tenths", () => {
  const accel = "apps/kubesched/test-fixtures/dra-fractional-capacity/cluster.yaml";
  const outcomes = async (...flags: string[]) => {
    const { code, stdout } = await run("simulate", "--cluster", accel, "-o", "json", ...flags);
    expect(code).toBe(0);
    return (JSON.parse(stdout) as Result).pods.map((p) => [p.name, p.outcome]);
  };
  it("with the gate on, two 0.25 requests round up to 0.3 each and share the device", async () => {
    expect(await outcomes("--feature-gates", "DRAFractionalCapacityRange=true")).toEqual([
      ["infer-0", "Scheduled"],
      ["infer-1", "Scheduled"],
    ]);
  }, 60_000);
  it("with the gate off (1.37's default) each request takes a whole 1: the second pod does not fit", async () => {
    expect(await outcomes()).toEqual([
      ["infer-0", "Scheduled"],
      ["infer-1", "Unschedulable"],
    ]);
  }, 60_000);
});

describe("DeviceTaintRule (DRADeviceTaintRules: GA in 1.37, beta and off in 1.36)", () => {
  const cluster = ["--cluster", "examples/dra-gpu/cluster.yaml"];
  const maintenance = ["--cluster", "examples/dra-gpu/maintenance.yaml"];
  const notebooks = () => {
    const f = join(tmp, "notebook-replica.yaml");
    writeFileSync(
      f,
      `apiVersion: v1
kind: Pod
metadata: { name: nb, namespace: ml }
spec:
  resourceClaims: [{ name: gpu, resourceClaimTemplateName: one-gpu }]
  containers: [{ name: c, image: i, resources: { requests: { cpu: "1" }, claims: [{ name: gpu }] } }]
`,
    );
    return f;
  };
  const replicas = async (...argv: string[]) => {
    const { code, stdout, stderr } = await run("capacity", ...argv, "--pod", notebooks(), "-o", "json");
    expect(stderr).toBe("");
    expect(code).toBe(0);
    return (JSON.parse(stdout) as { status: { replicas: number } }).status.replicas;
  };

  it("simulate: the rule's NoSchedule taint on gpu-node-1's GPUs keeps the pods off them; the notebook stays pending", async () => {
    const { code, stdout } = await run("simulate", ...cluster, ...maintenance, "-o", "json");
    expect(code).toBe(0);
    const r = JSON.parse(stdout) as Result;
    expect(validate(r), JSON.stringify(validate.errors)).toBe(true);
    const outcome = Object.fromEntries(r.pods.map((p) => [p.name, [p.outcome, p.node]]));
    expect(outcome.notebook).toEqual(["Unschedulable", null]);
    const onTainted = r.pods.flatMap((p) =>
      ((p.resourceClaims as { devices: { pool: string }[] }[] | undefined) ?? []).flatMap((c) =>
        c.devices.filter((d) => d.pool === "gpu-node-1"),
      ),
    );
    expect(onTainted).toEqual([]);
    // The node devices say which are tainted (and the table gets a TAINTED column).
    expect(
      r.nodes.map((n) => [n.name, (n.devices as { tainted?: number }[] | undefined)?.map((d) => d.tainted)]),
    ).toEqual([
      ["gpu-node-1", [4]],
      ["gpu-node-2", [undefined]],
      ["gpu-node-3", [undefined]],
      ["cpu-node-1", undefined],
    ]);
    const table = await run("simulate", ...cluster, ...maintenance);
    expect(table.stdout).toContain(
      "NODE        DRIVER           POOL        ALLOCATED  BEFORE  TAINTED\ngpu-node-1  gpu.example.com  gpu-node-1  0/4        0/4     4/4\n",
    );
  }, 60_000);

  it("the README shows the start of what simulate prints with examples/dra-gpu/maintenance.yaml", async () => {
    const readme = readFileSync(`${root}README.md`, "utf8");
    const shown =
      /```\n\$ kubesched simulate --cluster examples\/dra-gpu\/cluster\.yaml --cluster examples\/dra-gpu\/maintenance\.yaml\n([\s\S]*?)…\n```/.exec(
        readme,
      )?.[1];
    expect(shown, "README has the example's output").toBeDefined();
    const { code, stdout } = await run("simulate", ...cluster, ...maintenance);
    expect(code).toBe(0);
    expect(stdout.startsWith(shown as string)).toBe(true);
  }, 60_000);

  it("capacity counts no replica on the tainted GPUs; at 1.36 (gate off) the rule is not applied", async () => {
    expect(await replicas(...cluster)).toBe(3);
    expect(await replicas(...cluster, ...maintenance)).toBe(0);
    expect(await replicas(...cluster, ...maintenance, "--emulated-version", "1.36")).toBe(3);
    expect(
      await replicas(
        ...cluster,
        ...maintenance,
        "--emulated-version",
        "1.36",
        "--feature-gates",
        "DRADeviceTaintRules=true",
      ),
    ).toBe(0);
  }, 120_000);

  it("why: the nodes whose GPUs the rule taints cannot allocate the claim", async () => {
    const { code, stdout } = await run("why", "ml/notebook", ...cluster, ...maintenance, "--no-fixes");
    expect(code).toBe(0);
    expect(stdout).toContain("  gpu-node-1:\n    DynamicResources: cannot allocate all claims\n");
    expect(stdout).toContain("  gpu-node-2: fits\n");
  }, 60_000);

  it("a malformed rule is one error per problem naming the file, the object and the field", async () => {
    const f = join(tmp, "bad-rule.yaml");
    writeFileSync(
      f,
      `apiVersion: resource.k8s.io/v1beta2
kind: DeviceTaintRule
metadata: { name: bad }
spec:
  deviceSelector: { driver: gpu.example.com, selectors: [{ cel: { expression: "true" } }] }
  taint: { key: example.com/x, effect: PreferNoSchedule }
---
apiVersion: resource.k8s.io/v1beta1
kind: DeviceTaintRule
metadata: { name: old }
spec:
  taint: { key: example.com/x, effect: NoSchedule }
---
apiVersion: resource.k8s.io/v1
kind: DeviceTaintRule
metadata: { name: keyless }
spec:
  taint: { effect: NoExecute, timeAdded: yesterday }
`,
    );
    const { code, stdout, stderr } = await run("simulate", ...cluster, "--cluster", f);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr.trimEnd().split("\n")).toEqual([
      `error: ${f}: document 1 (DeviceTaintRule bad): spec.deviceSelector.selectors: Forbidden: not part of DeviceTaintRule since Kubernetes 1.35 (it selects by driver, pool and device)`,
      `error: ${f}: document 1 (DeviceTaintRule bad): spec.taint.effect: Unsupported value: "PreferNoSchedule": supported values: "NoSchedule", "NoExecute", "None"`,
      `error: ${f}: document 2 (DeviceTaintRule old): apiVersion: Unsupported value: "resource.k8s.io/v1beta1": supported values: "resource.k8s.io/v1", "resource.k8s.io/v1beta2", "resource.k8s.io/v1alpha3"`,
      `error: ${f}: document 3 (DeviceTaintRule keyless): spec.taint.key: Required value`,
      `error: ${f}: document 3 (DeviceTaintRule keyless): spec.taint.timeAdded: Invalid value: "yesterday": must be an RFC 3339 time`,
    ]);
  }, 60_000);
});
