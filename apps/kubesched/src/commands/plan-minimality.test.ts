// plan's answer is the smallest, checked by brute force: on small cases (≤ 3 pools, ≤ 6 nodes
// each; zones with topology spread, hostname anti-affinity, tainted pools with tolerating pods)
// the test simulates EVERY count vector on the same loaded snapshot and pools (the CLI's loader,
// the counterfactual engine's runs) and confirms that no vector with fewer nodes — and, with
// --optimize cost, no cheaper vector — schedules every pod plan did not exclude. Plan itself runs
// as the CLI runs it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Pod, podKey } from "@kubesched/api";
import { type PlanReport, planChanges } from "@kubesched/cluster";
import { afterAll, describe, expect, it } from "vitest";
import { openPlanEngine } from "./plan-engine.test-util";
import { runCliIn } from "./run-cli.test-util";

const tmp = mkdtempSync(join(tmpdir(), "kubesched-plan-min-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** mulberry32: a small seeded generator, so every case is the same on every run. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Case {
  snapshot: string;
  pools: string;
}

function randomCase(seed: number): Case {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const zones = ["a", "b", "c"];
  const docs: string[] = [];
  const existing = 1 + Math.floor(r() * 2);
  for (let i = 1; i <= existing; i++)
    docs.push(`apiVersion: v1
kind: Node
metadata: {name: n${i}, labels: {kubernetes.io/hostname: n${i}, zone: ${pick(zones)}}}
status: {allocatable: {cpu: "${pick([1, 2])}", memory: 16Gi, pods: "110"}}`);
  const pods = 4 + Math.floor(r() * 6);
  for (let i = 1; i <= pods; i++) {
    const kind = pick(["plain", "spread", "anti", "tolerating"] as const);
    const cpu = pick(["500m", "1", "1500m", "2"]);
    const label = kind === "spread" ? "s" : kind === "anti" ? "aa" : "p";
    const extra =
      kind === "spread"
        ? "  topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: s}}}]\n"
        : kind === "anti"
          ? "  affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: aa}}}]}}\n"
          : kind === "tolerating"
            ? "  tolerations: [{key: dedicated, operator: Equal, value: batch, effect: NoSchedule}]\n"
            : "";
    docs.push(`apiVersion: v1
kind: Pod
metadata: {name: p${i}, namespace: default, labels: {app: ${label}}}
spec:
${extra}  containers: [{name: c, image: x, resources: {requests: {cpu: "${cpu}", memory: 1Gi}}}]`);
  }
  const poolCount = 2 + Math.floor(r() * 2);
  const pools: string[] = [];
  for (let i = 1; i <= poolCount; i++) {
    const tainted = r() < 0.3;
    pools.push(`  - name: pool${i}
    maxCount: ${2 + Math.floor(r() * 5)}
    price: ${pick([1, 2, 3, 5])}
    node:
      metadata: {labels: {zone: ${pick(zones)}}}
${tainted ? "      spec: {taints: [{key: dedicated, value: batch, effect: NoSchedule}]}\n" : ""}      status: {allocatable: {cpu: "${pick([2, 4, 6])}", memory: 16Gi, pods: "110"}}`);
  }
  return {
    snapshot: docs.join("\n---\n"),
    pools: `apiVersion: kubesched.io/v1alpha1\nkind: NodePools\npools:\n${pools.join("\n")}\n`,
  };
}

/** The vectors under which every non-excluded pending pod schedules, by brute force. */
async function everyWorkingVector(dir: string, excluded: ReadonlySet<string>) {
  const { planned, cf } = await openPlanEngine(dir, "snapshot.yaml", "pools.yaml");
  const required = planned.objects
    .filter((o) => o.kind === "Pod" && !(o.obj as Pod).spec?.nodeName)
    .map((o) => podKey(o.obj as Pod))
    .filter((k) => !excluded.has(k));
  const working: { v: number[]; count: number; cost: number }[] = [];
  const vectors: number[][] = [[]];
  for (const p of planned.pools) {
    const next: number[][] = [];
    for (const v of vectors) for (let c = 0; c <= p.maxCount; c++) next.push([...v, c]);
    vectors.splice(0, vectors.length, ...next);
  }
  for (const v of vectors) {
    const o = await cf.run(planChanges(planned.pools, v));
    if (required.every((k) => o.pods.get(k)?.outcome === "Scheduled"))
      working.push({
        v,
        count: v.reduce((s, c) => s + c, 0),
        cost: v.reduce((s, c, i) => s + c * (planned.pools[i]?.price ?? 0), 0),
      });
  }
  return { working, vectors: vectors.length };
}

async function planIn(dir: string, ...more: string[]): Promise<PlanReport> {
  const r = await runCliIn(dir, [
    "plan",
    "--cluster",
    "snapshot.yaml",
    "--pools",
    "pools.yaml",
    "-o",
    "json",
    "--max-simulations",
    "10000",
    ...more,
  ]);
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout) as PlanReport;
}

function caseDir(name: string, c: Case): string {
  const d = mkdtempSync(join(tmp, `${name}-`));
  writeFileSync(join(d, "snapshot.yaml"), c.snapshot);
  writeFileSync(join(d, "pools.yaml"), c.pools);
  return d;
}

async function checkMinimal(dir: string): Promise<{ count: number; cost: number } | null> {
  const byCount = await planIn(dir);
  const byCost = await planIn(dir, "--optimize", "cost");
  const excluded = new Set(byCount.status.excluded.map((e) => e.pod));
  expect(new Set(byCost.status.excluded.map((e) => e.pod))).toEqual(excluded);
  const { working } = await everyWorkingVector(dir, excluded);
  if (working.length === 0) {
    expect(byCount.status.found).toBe(false);
    expect(byCost.status.found).toBe(false);
    return null;
  }
  const minCount = Math.min(...working.map((w) => w.count));
  const minCost = Math.min(...working.map((w) => w.cost));
  expect(byCount.status).toMatchObject({ found: true, minimal: true, nodes: minCount });
  expect(byCost.status).toMatchObject({ found: true, minimal: true, cost: minCost });
  // Each answer is one of the working vectors (the brute force agrees it works).
  const vectorOf = (r: PlanReport) =>
    r.spec.pools.map((p) => r.status.additions.find((a) => a.pool === p.name)?.count ?? 0).join(",");
  const works = new Set(working.map((w) => w.v.join(",")));
  expect(works.has(vectorOf(byCount))).toBe(true);
  expect(works.has(vectorOf(byCost))).toBe(true);
  return { count: minCount, cost: minCost };
}

describe("plan is minimal: brute force over every count vector", () => {
  it("by node count, and by price where the cheaper answer has more nodes", async () => {
    // One big node (8 cpu, price 10) holds the four 2-cpu pods; by price, four small ones (4).
    const dir = caseDir("fixed", {
      snapshot: [1, 2, 3, 4]
        .map(
          (i) => `apiVersion: v1
kind: Pod
metadata: {name: p${i}, namespace: default}
spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "2"}}}]}`,
        )
        .join("\n---\n"),
      pools: `apiVersion: kubesched.io/v1alpha1
kind: NodePools
pools:
  - {name: big, maxCount: 3, price: 10, node: {status: {allocatable: {cpu: "8", memory: 16Gi, pods: "110"}}}}
  - {name: small, maxCount: 6, price: 1, node: {status: {allocatable: {cpu: "2", memory: 16Gi, pods: "110"}}}}
`,
    });
    expect(await checkMinimal(dir)).toEqual({ count: 1, cost: 4 });
  }, 60_000);

  const found: ({ count: number; cost: number } | null)[] = [];
  it.each([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])(
    "on random small cluster %i (spread, anti-affinity, taints)",
    async (seed) => {
      found.push(await checkMinimal(caseDir(`random-${seed}`, randomCase(seed))));
    },
    60_000,
  );

  it("the random cases are not trivial: most need nodes, some more than one", () => {
    const needed = found.filter((f) => f !== null);
    expect(found.length).toBe(12);
    // With these seeds: 10 have an answer, 8 of them of 2–4 nodes, 2 have none within maxCount.
    expect(needed.length).toBe(10);
    expect(needed.filter((f) => f.count >= 2).length).toBe(8);
  });
});
