// Property tests (fast-check) of what the user feeds the CLI: random snapshots (valid objects,
// mutated ones, random YAML/JSON text) through `kubesched simulate`, and random
// KubeSchedulerConfigurations (valid and mutated) through `kubesched config validate` and
// `simulate --config`, in process with the CLI's own entry (runCli). Every case ends with an exit
// code and messages: never an exception out of runCli, an internal error (a TypeError's text, a
// stack overflow) or a stack trace; each within 10 s of CPU and 1 GB of memory.
// KUBESCHED_FUZZ_SEED and KUBESCHED_FUZZ_RUNS replay or widen a run; a failure prints its seed
// and path (fast-check's report) and the input that failed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { runCli } from "../cli";

const tmp = mkdtempSync(join(tmpdir(), "kubesched-fuzz-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const seed = Number(process.env.KUBESCHED_FUZZ_SEED ?? 20221122);
const numRuns = Number(process.env.KUBESCHED_FUZZ_RUNS ?? 150);
/** Per case: CPU time (robust on a loaded machine, unlike wall time) and resident memory. */
const maxCpuMicros = 10_000_000;
const maxRss = 1024 ** 3;
/** What only a bug prints: a JavaScript error's text or a stack frame. */
const internalError =
  /TypeError|RangeError|ReferenceError|SyntaxError: Unexpected|Cannot read properties|is not a function|is not iterable|Maximum call stack|Invalid (?:array|string) length|^\s+at .+:\d+:\d+\)?$/m;

let n = 0;
/** Runs the CLI on `files` (name → text); fails on anything but an orderly end. */
async function check(files: Record<string, string>, argv: (paths: Record<string, string>) => string[]) {
  const dir = join(tmp, String(n++));
  const paths: Record<string, string> = {};
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(dir, name), text);
    paths[name] = name;
  }
  let out = "";
  const cpu = process.cpuUsage();
  const code = await runCli(argv(paths), { stdout: (s) => (out += s), stderr: (s) => (out += s), cwd: dir });
  const used = process.cpuUsage(cpu);
  const where = `\n--- inputs ---\n${JSON.stringify(files).slice(0, 4000)}\n--- output ---\n${out.slice(0, 4000)}`;
  expect([0, 1, 2], `exit code ${code}${where}`).toContain(code);
  expect(internalError.test(out), `internal error${where}`).toBe(false);
  expect(used.user + used.system, `CPU time${where}`).toBeLessThan(maxCpuMicros);
  expect(process.memoryUsage().rss, `memory${where}`).toBeLessThan(maxRss);
}

// --- Kubernetes objects ---------------------------------------------------------------------

const name = fc.oneof(
  { weight: 8, arbitrary: fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/) },
  fc.constantFrom("", "a", "default", "kube-system", "\u001b[2J", "x/y", "a b", "constructor", "__proto__"),
  fc.string({ maxLength: 12 }),
);
const quantity = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("1", "100m", "2", "0", "1Gi", "500Mi", "110", "4") },
  fc.constantFrom("-1", "10E", "8Ei", "1e100", "9007199254740993", "0.0001m"),
  fc.constantFrom("1.5.5", "", "Gi", "1 Gi", "1e", "-0", "+5", "1.", ".5", "1e-30", "1E18Ki"),
  fc.integer({ min: -5, max: 100_000 }).map(String),
  fc.integer({ min: -5, max: 1000 }),
  fc.double({ noNaN: false }),
  fc.string({ maxLength: 8 }),
);
const resources = fc.dictionary(
  fc.constantFrom("cpu", "memory", "pods", "ephemeral-storage", "nvidia.com/gpu", "hugepages-2Mi", "x"),
  quantity,
  { maxKeys: 4 },
);
const labels = fc.dictionary(fc.constantFrom("app", "zone", "topology.kubernetes.io/zone", "k"), name, {
  maxKeys: 3,
});
const namespace = fc.constantFrom(undefined, "default", "shop", "gone", "kube-system");
const priority = fc.oneof(
  fc.integer({ min: -5, max: 1_000_000 }),
  fc.constantFrom(2147483647, 2147483648, -2147483649, 1e300, 1.5, "high"),
);

const nodeObject = fc.record(
  {
    apiVersion: fc.constant("v1"),
    kind: fc.constant("Node"),
    metadata: fc.record({ name, labels }, { requiredKeys: ["name"] }),
    spec: fc.record(
      {
        unschedulable: fc.boolean(),
        taints: fc.array(
          fc.record({
            key: name,
            value: name,
            effect: fc.constantFrom("NoSchedule", "PreferNoSchedule", "NoExecute", "Bad"),
          }),
          { maxLength: 2 },
        ),
      },
      { requiredKeys: [] },
    ),
    status: fc.record({ capacity: resources, allocatable: resources }, { requiredKeys: [] }),
  },
  { requiredKeys: ["apiVersion", "kind", "metadata"] },
);

const container = fc.record(
  {
    name,
    image: fc.constant("x"),
    resources: fc.record({ requests: resources, limits: resources }, { requiredKeys: [] }),
    ports: fc.array(
      fc.record({ containerPort: fc.integer({ min: 0, max: 70000 }), hostPort: fc.integer() }),
      {
        maxLength: 1,
      },
    ),
  },
  { requiredKeys: ["name"] },
);

const podSpec = fc.record(
  {
    containers: fc.array(container, { maxLength: 2 }),
    initContainers: fc.array(container, { maxLength: 1 }),
    priority,
    priorityClassName: fc.constantFrom("low", "high", "missing"),
    nodeName: fc.constantFrom("n1", "missing"),
    nodeSelector: labels,
    tolerations: fc.array(
      fc.record({ key: name, operator: fc.constantFrom("Exists", "Equal", "Bad"), effect: fc.string() }),
      { maxLength: 2 },
    ),
    overhead: resources,
    schedulingGates: fc.array(fc.record({ name }), { maxLength: 1 }),
    affinity: fc.record({
      podAntiAffinity: fc.record({
        requiredDuringSchedulingIgnoredDuringExecution: fc.array(
          fc.record({
            topologyKey: fc.constantFrom("kubernetes.io/hostname", "zone", ""),
            labelSelector: fc.record({ matchLabels: labels }),
          }),
          { maxLength: 1 },
        ),
      }),
    }),
  },
  { requiredKeys: ["containers"] },
);

const podObject = fc.record(
  {
    apiVersion: fc.constant("v1"),
    kind: fc.constant("Pod"),
    metadata: fc.record({ name, namespace, labels }, { requiredKeys: ["name"] }),
    spec: podSpec,
  },
  { requiredKeys: ["apiVersion", "kind", "metadata", "spec"] },
);

const otherObject = fc.oneof(
  fc.record({
    apiVersion: fc.constant("v1"),
    kind: fc.constant("Namespace"),
    metadata: fc.record({ name: fc.constantFrom("shop", "default", "other"), labels }),
  }),
  fc.record({
    apiVersion: fc.constant("scheduling.k8s.io/v1"),
    kind: fc.constant("PriorityClass"),
    metadata: fc.record({ name: fc.constantFrom("low", "high", "system-x") }),
    value: priority,
    globalDefault: fc.boolean(),
  }),
  fc.record({
    apiVersion: fc.constant("apps/v1"),
    kind: fc.constantFrom("Deployment", "ReplicaSet", "StatefulSet", "Job", "DaemonSet"),
    metadata: fc.record({ name, namespace }, { requiredKeys: ["name"] }),
    // Small replica counts: a workload of 2^31 replicas is a valid object that takes as long as
    // scheduling that many pods.
    spec: fc.record(
      {
        replicas: fc.oneof(fc.integer({ min: -2, max: 4 }), fc.constant("3")),
        selector: fc.record({ matchLabels: labels }),
        template: fc.record({ metadata: fc.record({ labels }), spec: podSpec }, { requiredKeys: [] }),
      },
      { requiredKeys: [] },
    ),
  }),
  fc.record({
    kind: fc.constantFrom("ConfigMap", "List", "PodList", "Widget", "", "NodeList"),
    metadata: fc.record({ name }),
    items: fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 2 }),
  }),
);

/** Replaces one value somewhere in `v` (a mutation of a valid object). */
function mutate(v: unknown, path: number[], replacement: unknown): unknown {
  if (typeof v !== "object" || v === null || path.length === 0) return replacement;
  const keys = Object.keys(v);
  if (keys.length === 0) return replacement;
  const key = keys[(path[0] as number) % keys.length] as string;
  const copy = (Array.isArray(v) ? [...v] : { ...v }) as Record<string, unknown>;
  copy[key] = mutate((v as Record<string, unknown>)[key], path.slice(1), replacement);
  return copy;
}

const anyObject = fc.oneof(
  { weight: 4, arbitrary: fc.oneof(nodeObject, podObject, otherObject) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.oneof(nodeObject, podObject, otherObject),
        fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
        fc.oneof(
          fc.jsonValue({ maxDepth: 2 }),
          fc.constantFrom(undefined, -1, Number.POSITIVE_INFINITY, "\u0000", []),
        ),
      )
      .map(([o, path, r]) => mutate(o, path, r)),
  },
);

/** A snapshot as text: YAML documents, a JSON list, or random text. */
/** Lists nested `depth` deep around `inner`: valid JSON (and YAML flow style) of any depth. */
const nested = fc
  .tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom("", "0", '{"a": 1}'))
  .map(([depth, inner]) => `${"[".repeat(depth)}${inner}${"]".repeat(depth)}`);

const snapshotText = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(fc.array(anyObject, { maxLength: 6 }), fc.constantFrom("yaml", "json", "json-in-yaml", "list"))
      .map(([objects, format]): [string, string] => {
        const list = { apiVersion: "v1", kind: "List", items: objects };
        switch (format) {
          case "yaml":
            return ["snapshot.yaml", objects.map((o) => stringify(o ?? null)).join("---\n")];
          case "json":
            return ["snapshot.json", JSON.stringify(list)];
          case "json-in-yaml":
            return ["snapshot.yaml", JSON.stringify(objects)];
          default:
            return ["snapshot.yaml", stringify(list)];
        }
      }),
  },
  fc.string({ unit: "binary", maxLength: 300 }).map((s): [string, string] => ["random.yaml", s]),
  fc.tuple(nested, fc.constantFrom("deep.json", "deep.yaml")).map(([t, f]): [string, string] => [f, t]),
  fc.string({ maxLength: 300 }).map((s): [string, string] => ["random.json", s]),
  fc
    .tuple(fc.jsonValue({ maxDepth: 6 }), fc.boolean())
    .map(([v, json]): [string, string] =>
      json ? ["value.json", JSON.stringify(v)] : ["value.yaml", stringify(v ?? null)],
    ),
  fc
    .array(
      fc.constantFrom(
        "kind: Pod\n",
        "metadata: {name: a}\n",
        "spec: {containers: [{name: c}]}\n",
        "---\n",
        "a: &x [1]\n",
        "b: *x\n",
        "c: *missing\n",
        "- item\n",
        "  nested: {\n",
        '{"kind": "Pod", "kind": "Node"}\n',
        "%YAML 1.2\n",
        "!!binary x\n",
        "? complex\n: key\n",
        "<<: *x\n",
        "\t\ttabs: 1\n",
      ),
      { maxLength: 12 },
    )
    .map((parts): [string, string] => ["pieces.yaml", parts.join("")]),
);

const baseNode =
  'kind: Node\nmetadata: {name: n1, labels: {zone: a}}\nstatus: {allocatable: {cpu: "8", memory: 16Gi, pods: "110"}}\n';

const basePod =
  'kind: Pod\nmetadata: {name: p, labels: {app: a}}\nspec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}\n';

describe("fuzz: random snapshots through kubesched simulate", () => {
  it("every case ends with an exit code and messages", { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(snapshotText, fc.constantFrom("table", "json"), async ([file, text], output) => {
        await check({ "base.yaml": baseNode, [file]: text }, (p) => [
          "simulate",
          "--cluster",
          p["base.yaml"] as string,
          "--cluster",
          p[file] as string,
          "-o",
          output,
          "--explain",
        ]);
      }),
      { seed, numRuns, endOnFailure: true },
    );
  });
});

// --- KubeSchedulerConfigurations ------------------------------------------------------------

const pluginName = fc.constantFrom(
  "NodeResourcesFit",
  "NodeResourcesBalancedAllocation",
  "InterPodAffinity",
  "PodTopologySpread",
  "TaintToleration",
  "ImageLocality",
  "DefaultPreemption",
  "NodeAffinity",
  "VolumeBinding",
  "Unknown",
  "*",
);
const pluginSet = fc.record(
  {
    enabled: fc.array(
      fc.record({ name: pluginName, weight: fc.integer({ min: -3, max: 200 }) }, { requiredKeys: ["name"] }),
      {
        maxLength: 3,
      },
    ),
    disabled: fc.array(fc.record({ name: pluginName }), { maxLength: 2 }),
  },
  { requiredKeys: [] },
);
const args = fc.oneof(
  fc.record(
    {
      scoringStrategy: fc.record(
        {
          type: fc.constantFrom("LeastAllocated", "MostAllocated", "RequestedToCapacityRatio", "Bad"),
          resources: fc.array(
            fc.record({
              name: fc.constantFrom("cpu", "memory", ""),
              weight: fc.integer({ min: -1, max: 101 }),
            }),
            {
              maxLength: 2,
            },
          ),
          requestedToCapacityRatio: fc.record({
            shape: fc.array(
              fc.record({
                utilization: fc.integer({ min: -1, max: 101 }),
                score: fc.integer({ min: -1, max: 11 }),
              }),
              {
                maxLength: 3,
              },
            ),
          }),
        },
        { requiredKeys: [] },
      ),
      ignoredResources: fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 }),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      defaultConstraints: fc.array(
        fc.record({
          maxSkew: fc.integer({ min: -1, max: 3 }),
          topologyKey: fc.constantFrom("zone", ""),
          whenUnsatisfiable: fc.constantFrom("DoNotSchedule", "ScheduleAnyway", "Bad"),
        }),
        { maxLength: 2 },
      ),
      defaultingType: fc.constantFrom("System", "List", "Bad"),
    },
    { requiredKeys: [] },
  ),
  fc.record({ hardPodAffinityWeight: fc.integer({ min: -1, max: 101 }) }, { requiredKeys: [] }),
  fc.record(
    {
      minCandidateNodesPercentage: fc.integer({ min: -1, max: 101 }),
      minCandidateNodesAbsolute: fc.integer({ min: -1, max: 200 }),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 3 }),
);
const configuration = fc.record(
  {
    apiVersion: fc.constant("kubescheduler.config.k8s.io/v1"),
    kind: fc.constant("KubeSchedulerConfiguration"),
    parallelism: fc.integer({ min: -1, max: 64 }),
    percentageOfNodesToScore: fc.integer({ min: -1, max: 101 }),
    podInitialBackoffSeconds: fc.integer({ min: -1, max: 20 }),
    podMaxBackoffSeconds: fc.integer({ min: -1, max: 20 }),
    profiles: fc.array(
      fc.record(
        {
          schedulerName: fc.constantFrom("default-scheduler", "other", ""),
          percentageOfNodesToScore: fc.integer({ min: -1, max: 101 }),
          plugins: fc.record(
            {
              multiPoint: pluginSet,
              preFilter: pluginSet,
              filter: pluginSet,
              score: pluginSet,
              preScore: pluginSet,
              postFilter: pluginSet,
            },
            { requiredKeys: [] },
          ),
          pluginConfig: fc.array(fc.record({ name: pluginName, args }, { requiredKeys: ["name"] }), {
            maxLength: 3,
          }),
        },
        { requiredKeys: [] },
      ),
      { maxLength: 2 },
    ),
  },
  { requiredKeys: ["apiVersion", "kind"] },
);
const configText = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(configuration, fc.boolean())
      .map(([c, json]) => (json ? JSON.stringify(c) : stringify(c))),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        configuration,
        fc.array(fc.nat(), { minLength: 1, maxLength: 7 }),
        fc.oneof(
          fc.jsonValue({ maxDepth: 2 }),
          fc.constantFrom(null, -1, Number.POSITIVE_INFINITY, "", {}, [], "constructor"),
        ),
      )
      .map(([c, path, r]) => stringify(mutate(c, path, r) ?? null)),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 300 }) },
  {
    weight: 1,
    arbitrary: nested.map(
      (t) =>
        `{"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration", "x": ${t}}`,
    ),
  },
);

describe("fuzz: random KubeSchedulerConfigurations", () => {
  it("config validate and simulate --config end with an exit code and messages", {
    timeout: 600_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(configText, fc.boolean(), async (text, simulate) => {
        await check({ "config.yaml": text, "base.yaml": `${baseNode}---\n${basePod}` }, (p) =>
          simulate
            ? [
                "simulate",
                "--cluster",
                p["base.yaml"] as string,
                "--config",
                p["config.yaml"] as string,
                "-o",
                "json",
              ]
            : ["config", "validate", p["config.yaml"] as string],
        );
      }),
      { seed, numRuns, endOnFailure: true },
    );
  });
});
