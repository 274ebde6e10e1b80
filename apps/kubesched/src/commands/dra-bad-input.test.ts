// Issue 23's bad DRA input through `kubesched simulate`: a claim naming a missing DeviceClass, a
// CEL selector that does not compile, device names published twice (in one slice, in one pool),
// an allocation naming a device no slice publishes, a selector whose regular expression would
// backtrack exponentially in JavaScript's RegExp. Each gives one line naming file, object and
// field (and upstream's status for the pod); no stack trace, and the other pods of the run
// (one with a claim, one without) are scheduled as without the bad input.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCliIn } from "./run-cli.test-util";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const dir = "apps/kubesched/test-fixtures/dra-bad-input";

interface Result {
  pods: { name: string; outcome: string; node: string | null; message?: string }[];
}

async function simulate(bad: string) {
  const r = await runCliIn(root, [
    "simulate",
    "--cluster",
    `${dir}/base.yaml`,
    "--cluster",
    `${dir}/${bad}.yaml`,
    "-o",
    "json",
  ]);
  const lines = r.stderr.split("\n").filter((l) => l !== "");
  const pods = r.code === 0 ? (JSON.parse(r.stdout) as Result).pods : [];
  const outcome = (name: string) => pods.find((p) => p.name === name);
  return { code: r.code, lines, outcome };
}

/** The pods without bad input: scheduled as always. */
function othersScheduled(outcome: (name: string) => Result["pods"][number] | undefined): void {
  expect(outcome("good")?.outcome).toBe("Scheduled");
  expect(outcome("plain")?.outcome).toBe("Scheduled");
}

describe("kubesched simulate: bad DRA input", () => {
  it("a claim naming a DeviceClass the snapshot lacks: a warning with the field, upstream's status", async () => {
    const { code, lines, outcome } = await simulate("missing-class");
    expect(code).toBe(0);
    expect(lines).toEqual([
      `warning: ${dir}/missing-class.yaml: document 1 (ResourceClaim default/bad): spec.devices.requests[0].exactly.deviceClassName: Not found: "no-such-class": no DeviceClass of this name in the snapshot; no device can be allocated for this request`,
    ]);
    expect(outcome("bad")?.outcome).toBe("Unschedulable");
    expect(outcome("bad")?.message).toMatch(
      /^0\/1 nodes are available: request gpu: device class no-such-class does not exist\./,
    );
    othersScheduled(outcome);
  }, 60_000);

  it("a CEL selector that does not compile: a warning with the field, the pod's error once (not per retry)", async () => {
    const { code, lines, outcome } = await simulate("bad-cel");
    expect(code).toBe(0);
    const error =
      'running "DynamicResources" filter plugin: claim default/bad: selector #0: CEL compile error: compilation failed: ERROR: <input>:1:46: Syntax error: Unexpected token: EOF';
    expect(lines[0]).toBe(
      `warning: ${dir}/bad-cel.yaml: document 1 (ResourceClaim default/bad): spec.devices.requests[0].exactly.selectors[0].cel.expression: Invalid value: "device.attributes[\\"gpu.example.com\\"].model ==": compilation failed: ERROR: <input>:1:46: Syntax error: Unexpected token: EOF; the scheduler fails the pods whose claims use it`,
    );
    // The scheduler retries the pod with backoff until the simulated clock stops: its error
    // line is written once, then once more with how often it repeated.
    expect(lines.slice(1).map((l) => l.replace(/^E\d{4} [\d:.]+\] /, ""))).toEqual([
      `"Error scheduling pod; retrying" err=${JSON.stringify(error)} pod="default/bad"`,
      expect.stringMatching(/^"Error scheduling pod; retrying" err=.* pod="default\/bad" repeated=\d+$/),
    ]);
    expect(outcome("bad")?.outcome).toBe("Error");
    expect(outcome("bad")?.message).toBe(error);
    othersScheduled(outcome);
  }, 60_000);

  it("a selector whose regular expression backtracks exponentially (ReDoS): RE2 answers at once, the pod is unschedulable", async () => {
    const { code, lines, outcome } = await simulate("redos");
    expect(code).toBe(0);
    expect(lines).toEqual([]);
    expect(outcome("bad")?.outcome).toBe("Unschedulable");
    expect(outcome("bad")?.message).toMatch(/^0\/1 nodes are available: 1 cannot allocate all claims\./);
    othersScheduled(outcome);
  }, 60_000);

  it("a selector nested deeper than the stack allows: a warning with the field, the pod's error; the run goes on", async () => {
    const { code, lines, outcome } = await simulate("deep-cel");
    expect(code).toBe(0);
    expect(lines[0]).toMatch(
      new RegExp(
        `^warning: ${dir}/deep-cel.yaml: document 1 \\(ResourceClaim default/bad\\): spec.devices.requests\\[0\\].exactly.selectors\\[0\\].cel.expression: Invalid value: ".*": compilation failed: ERROR: <input>:1:1: Maximum call stack size exceeded: the expression nests too deeply; the scheduler fails the pods whose claims use it$`,
      ),
    );
    expect(outcome("bad")?.outcome).toBe("Error");
    expect(outcome("bad")?.message).toMatch(/CEL compile error: compilation failed: .*nests too deeply$/);
    othersScheduled(outcome);
  }, 60_000);

  it("a slice publishing a device name twice: the API server's error for the slice's field", async () => {
    const { code, lines } = await simulate("duplicate-devices");
    expect(code).toBe(1);
    expect(lines).toEqual([
      `error: ${dir}/duplicate-devices.yaml: document 2 (ResourceSlice node-b-gpus): spec.devices[1].name: Duplicate value: "gpu-0"`,
    ]);
  }, 60_000);

  it("two slices of one pool publishing the same device: a warning naming both, upstream's status for the node", async () => {
    const { code, lines, outcome } = await simulate("duplicate-devices-in-pool");
    expect(code).toBe(0);
    expect(lines).toEqual([
      `warning: ${dir}/duplicate-devices-in-pool.yaml: document 3 (ResourceSlice node-b-gpus-1): spec.devices[0].name: Duplicate value: "gpu-0": ResourceSlice node-b-gpus-0 of pool gpu.example.com/node-b has a device of this name; the pool is invalid, none of its devices can be allocated`,
    ]);
    expect(outcome("bad")?.outcome).toBe("Unschedulable");
    expect(outcome("bad")?.message).toMatch(
      /^0\/2 nodes are available: 1 invalid resource pools were encountered, 1 node\(s\) didn't match Pod's node affinity\/selector\./,
    );
    othersScheduled(outcome);
  }, 60_000);

  it("an allocation naming a device no slice publishes: a warning with the field; the allocation pins the pod as upstream", async () => {
    const { code, lines, outcome } = await simulate("missing-device");
    expect(code).toBe(0);
    expect(lines).toEqual([
      `warning: ${dir}/missing-device.yaml: document 1 (ResourceClaim default/bad): status.allocation.devices.results[0].device: Not found: "gpu-9": no ResourceSlice of pool gpu.example.com/node-a publishes this device`,
    ]);
    expect(outcome("bad")).toMatchObject({ outcome: "Scheduled", node: "node-a" });
    othersScheduled(outcome);
  }, 60_000);
});
