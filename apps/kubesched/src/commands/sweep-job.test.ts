// kubesched sweep on Kubernetes: the Indexed Job `--emit-job` writes, checked field by field;
// its pods' command lines run as separate processes (the completion index and the claim's mount
// filled in as the kubelet would), and `sweep merge` of their shard files printing the very
// report of a local run, byte for byte; merge's refusals (a shard missing, given twice, of
// another matrix).
import { spawn } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parse as parseYAML } from "yaml";
import { runCliIn } from "./run-cli.test-util";
import { sweepShardSchema } from "./sweep-report-schema";

// Each shard is a process that compiles the CLI on the fly: seconds on a loaded machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const bin = join(dirname(fileURLToPath(import.meta.url)), "..", "bin.ts");
const tmp = mkdtempSync(join(tmpdir(), "kubesched-sweep-job-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The matrix folder as the user has it. */
const local = join(tmp, "local");
mkdirSync(local);
copyFileSync(join(root, "examples/cluster.yaml"), join(local, "cluster.yaml"));
copyFileSync(join(root, "examples/workloads/deployment.yaml"), join(local, "workloads.yaml"));
copyFileSync(join(root, "examples/config/bin-packing.yaml"), join(local, "bin-packing.yaml"));
const matrix = `apiVersion: kubesched.io/v1alpha1
kind: SweepMatrix
seed: 3
snapshots: [cluster.yaml, workloads.yaml]
configs: [default, bin-packing.yaml]
pools:
  - {name: none, count: 0}
  - {name: big, count: 1, node: {status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}}}
`;
writeFileSync(join(local, "sweep.yaml"), matrix);

const shards = 3;
// biome-ignore lint/suspicious/noExplicitAny: a YAML manifest, checked field by field
let job: any;

/** Runs the CLI as a process, as the container's entrypoint would; resolves to its exit code and stderr. */
function runProcess(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    // From the package, where `tsx` resolves.
    const child = spawn(process.execPath, ["--import", "tsx", bin, ...args], {
      cwd: join(root, "apps/kubesched"),
      env: { ...process.env, ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

/** The claim: a copy of the matrix folder, as the README fills it. */
const claim = join(tmp, "claim");

beforeAll(async () => {
  const emitted = await runCliIn(local, [
    "sweep",
    "sweep.yaml",
    "--emit-job",
    "--shards",
    String(shards),
    "--image",
    "registry.example/kubesched:0.1",
    "--claim",
    "sweep-inputs",
  ]);
  expect(emitted.stderr).toBe("");
  expect(emitted.code).toBe(0);
  job = parseYAML(emitted.stdout);
  cpSync(local, claim, { recursive: true });
  const container = job.spec.template.spec.containers[0];
  const mount = container.volumeMounts[0].mountPath as string;
  // Every completion index at once, as the Job's parallelism runs them.
  const runs = await Promise.all(
    [...Array(shards).keys()].map((i) => {
      const env = { JOB_COMPLETION_INDEX: String(i) };
      const args = (container.args as string[]).map((a) =>
        a.replaceAll("$(JOB_COMPLETION_INDEX)", String(i)).replaceAll(mount, claim),
      );
      return runProcess(args, env);
    }),
  );
  for (const r of runs) expect(r, r.stderr).toEqual({ code: 0, stderr: "" });
});

describe("kubesched sweep --emit-job", () => {
  it("writes an Indexed Job: one completion per shard, the index in the environment, the inputs from the claim", () => {
    expect(job.apiVersion).toBe("batch/v1");
    expect(job.kind).toBe("Job");
    expect(job.spec.completionMode).toBe("Indexed");
    expect(job.spec.completions).toBe(shards);
    expect(job.spec.parallelism).toBe(shards);
    const pod = job.spec.template.spec;
    expect(pod.restartPolicy).toBe("Never");
    const [container] = pod.containers;
    expect(container.image).toBe("registry.example/kubesched:0.1");
    expect(container.env).toEqual([
      {
        name: "JOB_COMPLETION_INDEX",
        valueFrom: {
          fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" },
        },
      },
    ]);
    expect(pod.volumes).toEqual([{ name: "sweep", persistentVolumeClaim: { claimName: "sweep-inputs" } }]);
    expect(container.volumeMounts).toEqual([{ name: "sweep", mountPath: "/data" }]);
    expect(container.args).toEqual([
      "sweep",
      "/data/sweep.yaml",
      "--shard",
      `$(JOB_COMPLETION_INDEX)/${shards}`,
      "--parallelism",
      "1",
      "--out",
      "/data/results/shard-$(JOB_COMPLETION_INDEX).json",
    ]);
    // The image's user can write the results to the claim.
    expect(pod.securityContext.fsGroup).toBe(65532);
  });

  it("refuses a matrix whose inputs are outside its folder (the Job mounts that folder only)", async () => {
    writeFileSync(
      join(local, "outside.yaml"),
      matrix.replace("[cluster.yaml, workloads.yaml]", "[../cluster.yaml]"),
    );
    const r = await runCliIn(local, ["sweep", "outside.yaml", "--emit-job"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "error: outside.yaml: snapshots[0]: ../cluster.yaml is outside the matrix file's folder, which the Job mounts\n",
    );
  });
});

describe("kubesched sweep merge", () => {
  it("combines the Job's shard files into the report a local run prints, byte for byte", async () => {
    const validate = new Ajv2020({ strict: false }).compile(sweepShardSchema);
    for (let i = 0; i < shards; i++) {
      const shard = JSON.parse(readFileSync(join(claim, "results", `shard-${i}.json`), "utf8"));
      expect(validate(shard), JSON.stringify(validate.errors)).toBe(true);
      expect(shard.shard).toEqual({ index: i, count: shards });
    }
    for (const format of ["json", "table", "yaml"]) {
      const whole = await runCliIn(local, ["sweep", "sweep.yaml", "-o", format, "--parallelism", "1"]);
      const merged = await runCliIn(tmp, ["sweep", "merge", "claim/results", "-o", format]);
      expect(merged.stderr).toBe("");
      expect(merged.code).toBe(0);
      expect(merged.stdout).toBe(whole.stdout);
    }
  });

  it("refuses a shard missing, a shard given twice, and a shard of another matrix, writing no report", async () => {
    const results = join(claim, "results");
    const partial = join(tmp, "partial");
    mkdirSync(partial);
    copyFileSync(join(results, "shard-0.json"), join(partial, "shard-0.json"));
    copyFileSync(join(results, "shard-2.json"), join(partial, "shard-2.json"));
    const missing = await runCliIn(tmp, ["sweep", "merge", "partial"]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe("");
    const hash = JSON.parse(readFileSync(join(results, "shard-0.json"), "utf8")).spec.matrixHash;
    expect(missing.stderr).toBe(
      `error: missing shard(s) 1/3 of matrix ${hash} (2 of 3 given)\nerror: no report written: the shards do not make up the whole sweep\n`,
    );

    const twice = await runCliIn(tmp, ["sweep", "merge", "claim/results", "partial/shard-2.json"]);
    expect(twice.code).toBe(1);
    expect(twice.stdout).toBe("");
    expect(twice.stderr).toBe(
      "error: partial/shard-2.json: shard 2/3 given twice (also claim/results/shard-2.json)\nerror: no report written: the shards do not make up the whole sweep\n",
    );

    // Shard 1 of the same matrix with another seed: another file, another hash.
    const other = join(tmp, "other");
    cpSync(local, other, { recursive: true });
    writeFileSync(join(other, "sweep.yaml"), matrix.replace("seed: 3", "seed: 4"));
    const shard1 = await runCliIn(other, [
      "sweep",
      "sweep.yaml",
      "--shard",
      "1/3",
      "--out",
      "shard-1.json",
      "--parallelism",
      "1",
    ]);
    expect(shard1.code).toBe(0);
    copyFileSync(join(other, "shard-1.json"), join(partial, "shard-1.json"));
    const mixed = await runCliIn(tmp, ["sweep", "merge", "partial"]);
    expect(mixed.code).toBe(1);
    expect(mixed.stdout).toBe("");
    const otherHash = JSON.parse(readFileSync(join(other, "shard-1.json"), "utf8")).spec.matrixHash;
    expect(mixed.stderr).toBe(
      `error: partial/shard-1.json: a shard of another matrix (${otherHash}) than partial/shard-0.json (${hash})\nerror: no report written: the shards do not make up the whole sweep\n`,
    );
  });
});
