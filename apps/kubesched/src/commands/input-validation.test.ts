// What the user runs, in process, on inputs the API server (or kube-scheduler) would refuse or
// that try to break the CLI: each gets one `error: WHERE: WHAT` line (or a warning) naming the
// file, object and field, and the command keeps its exit codes.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCliIn } from "./run-cli.test-util";

const tmp = mkdtempSync(join(tmpdir(), "kubesched-input-validation-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = (...argv: string[]) => runCliIn(tmp, argv);

function file(name: string, text: string): string {
  writeFileSync(join(tmp, name), text);
  return name;
}

const configHead = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";

describe("kubesched config validate", () => {
  it("rejects Object.prototype's keys as unknown fields, in args and at the top level", async () => {
    const f = file(
      "prototype-keys.yaml",
      `${configHead}constructor: 1\nprofiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: {toString: x, hasOwnProperty: 1, __proto__: {a: 1}}\n`,
    );
    expect(await run("config", "validate", f)).toEqual({
      code: 1,
      stdout: "",
      stderr: [
        `error: ${f}: constructor: unknown field`,
        `error: ${f}: profiles[0].pluginConfig[0].args.toString: unknown field`,
        `error: ${f}: profiles[0].pluginConfig[0].args.hasOwnProperty: unknown field`,
        `error: ${f}: profiles[0].pluginConfig[0].args.__proto__: unknown field`,
        "",
      ].join("\n"),
    });
  });

  it("rejects negative plugin weights", async () => {
    const f = file(
      "negative-weight.yaml",
      `${configHead}profiles:\n- plugins:\n    score:\n      enabled: [{name: NodeResourcesFit, weight: -3}]\n`,
    );
    const r = await run("config", "validate", f);
    expect(r.stderr).toBe(
      `error: ${f}: profiles[0].plugins.score.enabled[0].weight: Invalid value: -3: must be greater than or equal to 0\n`,
    );
    expect(r.code).toBe(1);
  });
});

// biome-ignore lint/suspicious/noControlCharactersInRegex: what the terminal must never receive.
const controlButNewline = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe("terminal escape sequences in object names", () => {
  const evil = "evil\u001b[2J\nfake  Scheduled  node-x\u009b";
  const snapshot = JSON.stringify({
    kind: "List",
    items: [
      {
        kind: "Node",
        metadata: { name: "n1" },
        status: { allocatable: { cpu: "4", memory: "8Gi", pods: "110" } },
      },
      { kind: "Pod", metadata: { name: evil, namespace: "default" }, spec: { containers: [{ name: "c" }] } },
      { kind: "Widget", metadata: { name: evil } },
    ],
  });

  it("the table and explain show them escaped, one row per pod", async () => {
    const f = file("evil.json", snapshot);
    const { code, stdout, stderr } = await run("simulate", "--cluster", f, "--explain");
    expect(code).toBe(0);
    expect(stdout).not.toMatch(controlButNewline);
    expect(stdout).toMatch(/^default\/evil\^\[\[2J\\nfake {2}Scheduled {2}node-x\\u009b +Scheduled +n1 +1$/m);
    expect(stdout).toContain("default/evil^[[2J\\nfake  Scheduled  node-x\\u009b: Scheduled on n1\n");
    expect(stdout.split("\n").filter((l) => l.includes("fake"))).toHaveLength(2);
    expect(stderr).not.toMatch(controlButNewline);
  });

  it("the JSON output keeps them as JSON escapes (the value as it is)", async () => {
    const f = file("evil-json.json", snapshot);
    const { stdout } = await run("simulate", "--cluster", f, "-o", "json");
    expect((JSON.parse(stdout) as { pods: { name: string }[] }).pods[0]?.name).toBe(evil);
  });

  it("errors show them escaped, one line each", async () => {
    const f = file(
      "evil-dup.yaml",
      `kind: Pod\nmetadata: {name: "${JSON.stringify(evil).slice(1, -1)}"}\nspec: {containers: [{name: c}]}\n---\n`.repeat(
        2,
      ),
    );
    const { code, stderr } = await run("simulate", "--cluster", f);
    expect(code).toBe(1);
    expect(stderr).not.toMatch(controlButNewline);
    expect(stderr.trimEnd().split("\n")).toEqual([
      `error: ${f}: document 2 (Pod evil^[[2J\\nfake  Scheduled  node-x\\u009b): duplicate Pod default/evil^[[2J\\nfake  Scheduled  node-x\\u009b (first defined in ${f}: document 1)`,
    ]);
  });
});

/** A "billion laughs": 9 levels of 10 aliases each, indented as a map's value. */
const aliasBomb = [
  '  a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]\n',
  ...Array.from({ length: 8 }, (_, i) => `  a${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(",")}]\n`),
].join("");

const node = (name: string, allocatable: Record<string, string> = { cpu: "4", memory: "8Gi", pods: "110" }) =>
  `kind: Node\nmetadata: {name: ${name}}\nstatus: {allocatable: ${JSON.stringify(allocatable)}}\n`;

describe("snapshot objects the API server would refuse", () => {
  it("negative quantities, priorities beyond int32 and a user priority class above 1e9: one error each", async () => {
    const f = file(
      "refused.yaml",
      [
        'kind: Node\nmetadata: {name: n1}\nstatus: {capacity: {cpu: "-4"}, allocatable: {cpu: "4", memory: -1Gi}}\n',
        'kind: Pod\nmetadata: {name: neg, namespace: shop}\nspec:\n  priority: 3000000000\n  containers: [{name: c, resources: {requests: {cpu: "-100m"}}}]\n',
        "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: too-high}\nvalue: 2000000000\n",
        "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: system-ok}\nvalue: 2000000000\n",
        "kind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: 1\n  template:\n    spec:\n      containers: [{name: c, resources: {limits: {memory: -1Gi}}}]\n",
      ].join("---\n"),
    );
    const { code, stdout, stderr } = await run("simulate", "--cluster", f);
    expect({ code, stdout }).toEqual({ code: 1, stdout: "" });
    expect(stderr.trimEnd().split("\n")).toEqual([
      `error: ${f}: document 1 (Node n1): status.capacity.cpu: Invalid value: "-4": must be greater than or equal to 0`,
      `error: ${f}: document 1 (Node n1): status.allocatable.memory: Invalid value: "-1Gi": must be greater than or equal to 0`,
      `error: ${f}: document 2 (Pod shop/neg): spec.containers[0].resources.requests.cpu: Invalid value: "-100m": must be greater than or equal to 0`,
      `error: ${f}: document 2 (Pod shop/neg): spec.priority: Invalid value: 3000000000: must be between -2147483648 and 2147483647, inclusive`,
      `error: ${f}: document 3 (PriorityClass too-high): value: Forbidden: maximum allowed value of a user defined priority is 1000000000`,
      `error: ${f}: document 5 (Deployment d): spec.template.spec.containers[0].resources.limits.memory: Invalid value: "-1Gi": must be greater than or equal to 0`,
    ]);
  });

  it("an amount past 2^53 is a warning (counted as 2^53 - 1)", async () => {
    const f = file("huge.yaml", node("n1", { cpu: "4", memory: "10E", pods: "110" }));
    const { code, stderr } = await run("simulate", "--cluster", f);
    expect(code).toBe(0);
    expect(stderr).toContain(
      `warning: ${f}: document 1 (Node n1): status.allocatable.memory: "10E" is above 9007199254740991 (2^53 - 1), the largest amount kubesched computes with exactly: counted as 9007199254740991\n`,
    );
  });

  it("objects in namespaces a snapshot with Namespace objects lacks: a warning each", async () => {
    const pod = (ns: string, name: string) =>
      `kind: Pod\nmetadata: {name: ${name}, namespace: ${ns}}\nspec: {containers: [{name: c}]}\n`;
    const objects = [
      node("n1"),
      pod("shop", "a"),
      pod("gone", "b"),
      pod("kube-system", "c"),
      "kind: Job\nmetadata: {name: j, namespace: gone2}\nspec: {template: {spec: {containers: [{name: c}]}}}\n",
    ];
    const withNs = file(
      "with-ns.yaml",
      ["kind: Namespace\nmetadata: {name: shop}\n", ...objects].join("---\n"),
    );
    const r = await run("simulate", "--cluster", withNs);
    expect(r.code).toBe(0);
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      `warning: ${withNs}: document 4 (Pod gone/b): metadata.namespace: Not found: "gone": the snapshot has Namespace objects, but not this one`,
      `warning: ${withNs}: document 6 (Job gone2/j): metadata.namespace: Not found: "gone2": the snapshot has Namespace objects, but not this one`,
    ]);
    // `kubectl get pods -A` has no Namespace objects: taken as it is.
    const without = file("without-ns.yaml", objects.join("---\n"));
    expect((await run("simulate", "--cluster", without)).stderr).toBe("");
  });

  it("duplicate JSON fields: one error each, on the object and field holding it", async () => {
    const text =
      '{"kind": "PodList", "items": [{"metadata": {"name": "a", "name": "b"}, "spec": {"containers": [{"name": "c"}]}}], "kind": "PodList"}';
    for (const name of ["dup.json", "dup-json.yaml"]) {
      const f = file(name, text);
      const at = name.endsWith(".json") ? f : `${f}: document 1`;
      const { code, stderr } = await run("simulate", "--cluster", f);
      expect(code).toBe(1);
      expect(stderr).toBe(
        `error: ${at}, item 1 (Pod b): metadata.name: duplicate field\nerror: ${at} (PodList): kind: duplicate field\n`,
      );
    }
  });

  it("JSON input is capped like YAML: 20 errors per file, then 'and N more like this'", async () => {
    const pod = { kind: "Pod", metadata: { name: "same" }, spec: { containers: [{ name: "c" }] } };
    const f = file("dups.json", JSON.stringify({ kind: "List", items: Array(500).fill(pod) }));
    const { code, stderr } = await run("simulate", "--cluster", f);
    expect(code).toBe(1);
    const lines = stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe(
      `error: ${f}, item 2 (Pod same): duplicate Pod default/same (first defined in ${f}, item 1)`,
    );
    expect(lines[20]).toBe(`error: ${f}: and 479 more like this`);
  });

  it("a valid JSON value 100,000 levels deep is read (lists, and a pod's unknown field)", async () => {
    const deep = (d: number) => `${"[".repeat(d)}${"]".repeat(d)}`;
    const lists = file("deep-lists.json", deep(100_000));
    expect((await run("simulate", "--cluster", lists)).stderr).toBe(
      `warning: ${lists}: no Kubernetes objects in this input\nwarning: no pending pods (pods without spec.nodeName) in ${lists}\n`,
    );
    const pod = `{"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{"name": "c"}]}, "x": ${deep(100_000)}}`;
    for (const name of ["deep-pod.json", "deep-pod.yaml"]) {
      const f = file(name, pod);
      const n = file(`deep-node-${name}.yaml`, node("n1"));
      const r = await run("simulate", "--cluster", n, "--cluster", f, "-o", "json");
      expect(r.stderr).toBe("");
      expect((JSON.parse(r.stdout) as { pods: { outcome: string }[] }).pods[0]?.outcome).toBe("Scheduled");
    }
  });

  it("a YAML alias bomb is refused naming the file and document", async () => {
    const f = file("laughs.yaml", `kind: ConfigMap\nmetadata: {name: x}\ndata:\n${aliasBomb}`);
    const { code, stderr } = await run("simulate", "--cluster", f);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `error: ${f}: document 1: invalid YAML: Excessive alias count indicates a resource exhaustion attack\n`,
    );
  });
});

describe("configuration files that try to break the reader", () => {
  const head = { apiVersion: "kubescheduler.config.k8s.io/v1", kind: "KubeSchedulerConfiguration" };

  it("a duplicate JSON field is an error naming it", async () => {
    const f = file(
      "dup-config.json",
      `${JSON.stringify(head).slice(0, -1)},"parallelism":4,"parallelism":8}`,
    );
    expect(await run("config", "validate", f)).toEqual({
      code: 1,
      stdout: "",
      stderr: `error: ${f}: parallelism: duplicate field\n`,
    });
  });

  it("a JSON value 10,000 levels deep is refused with what is wrong, not a stack overflow", async () => {
    const deep = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
    const f = file("deep-config.json", `${JSON.stringify(head).slice(0, -1)},"x":${deep}}`);
    const r = await run("config", "validate", f);
    expect(r).toEqual({
      code: 1,
      stdout: "",
      stderr: `error: ${f}: the configuration nests 10001 levels deep: no field of a KubeSchedulerConfiguration is deeper than 100\n`,
    });
  });

  it("a YAML alias bomb is refused naming the file", async () => {
    const f = file("laughs-config.yaml", `${configHead}x:\n${aliasBomb}`);
    const want = `error: ${f}: yaml: Excessive alias count indicates a resource exhaustion attack\n`;
    expect(await run("config", "validate", f)).toEqual({ code: 1, stdout: "", stderr: want });
    const n = file("laughs-node.yaml", node("n1"));
    const s = await run("simulate", "--cluster", n, "--config", f);
    expect({ code: s.code, stderr: s.stderr }).toEqual({ code: 1, stderr: want });
  });
});
