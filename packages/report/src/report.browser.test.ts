/// <reference lib="dom" />
// The report in a real headless browser (the system's Chromium, driven by playwright-core):
// the page loads from a file:// URL with no console errors, the summary shows the simulation's
// numbers, a pod's explain view opens with its filter matrix and upstream's reasons, and a
// 5000-node cluster loads. In CI (CI set) a missing browser fails the suite; on a developer
// machine without Chromium it is skipped with a message.
//
// UPDATE_SCREENSHOTS=1 npx vitest run packages/report  rewrites docs/*.png from these pages
// (plan.png from the page `kubesched plan --report` writes for examples/plan).
// (The DOM types are for the callbacks page.evaluate runs in the page.)
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  diff,
  loadSnapshotFiles,
  loadSnapshotTexts,
  type PlanReport,
  type SimulationResult,
  simulate,
  type WhyReport,
  why,
} from "@kubesched/cluster";
import { defaultConfig, loadConfigFile } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger } from "@kubesched/testing";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderReport } from "./render-report";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const docs = fileURLToPath(new URL("../docs/", import.meta.url));
const updateScreenshots = process.env.UPDATE_SCREENSHOTS === "1";

/** The system browser: $CHROMIUM_PATH, or Debian's / other distributions' usual paths. */
function findBrowser(): string | null {
  const candidates = [
    process.env.CHROMIUM_PATH,
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
    "/usr/bin/google-chrome-stable",
  ];
  return candidates.find((p): p is string => !!p && existsSync(p)) ?? null;
}

const executablePath = findBrowser();
if (!executablePath && !process.env.CI) {
  console.warn(
    "report browser tests skipped: no Chromium found (install it, e.g. `apt-get install chromium`, or set CHROMIUM_PATH)",
  );
}

async function simulateFiles(file: string): Promise<SimulationResult> {
  return simulate({
    config: defaultConfig({ registry: inTreeRegistry }),
    registry: inTreeRegistry,
    logger: recordingLogger(),
    objects: loadSnapshotFiles([file], root).objects,
    explain: true,
  });
}

describe.skipIf(!executablePath && !process.env.CI)(
  "report in a headless browser",
  { timeout: 60_000 },
  () => {
    let browser: Browser;
    const tmp = mkdtempSync(join(tmpdir(), "kubesched-report-"));

    beforeAll(async () => {
      if (!executablePath) {
        throw new Error(
          "CI is set and no Chromium was found (.ci/run installs Debian's chromium; or set CHROMIUM_PATH)",
        );
      }
      browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      rmSync(tmp, { recursive: true, force: true });
    });

    /** Opens the report from a file, as a user would, collecting console errors and page errors. */
    async function open(name: string, html: string): Promise<{ page: Page; errors: string[] }> {
      const file = join(tmp, name);
      writeFileSync(file, html);
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      const errors: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error" || m.type() === "warning") errors.push(`console.${m.type()}: ${m.text()}`);
      });
      page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
      // Any request other than the file itself would be the report reaching for the network.
      page.on("request", (r) => {
        if (r.url() !== pathToFileURL(file).href) errors.push(`request: ${r.url()}`);
      });
      await page.goto(pathToFileURL(file).href);
      await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
      return { page, errors };
    }

    async function text(page: Page, selector: string): Promise<string> {
      return (await page.locator(selector).first().textContent()) ?? "";
    }

    it("examples/cluster.yaml: loads, the summary matches the result, render-xl's filter matrix shows why", async () => {
      const r = await simulateFiles("examples/cluster.yaml");
      const { page, errors } = await open(
        "cluster.html",
        renderReport({
          simulation: r,
          subtitle: "kubesched simulate --cluster examples/cluster.yaml --explain",
        }),
      );
      for (const key of ["pods", "scheduled", "unschedulable", "error", "gated", "skipped"] as const) {
        expect(await text(page, `#summary-${key}`), key).toBe(String(r.summary[key]));
      }
      expect(await text(page, "#summary-preemptions")).toBe("0");
      expect(await page.locator("#pods-table tbody tr").count()).toBe(r.pods.length);
      expect(await page.locator("#nodes-table tbody tr").count()).toBe(r.nodes.length);
      // The GPU node has an extended-resource column, before 0 and after 1 of 2.
      expect(await page.locator("#nodes-table thead th").allTextContents()).toContain("nvidia.com/gpu");
      expect(await text(page, "#reasons-table")).toContain("Insufficient cpu");
      if (updateScreenshots) await page.screenshot({ path: join(docs, "summary.png"), fullPage: true });

      await page.click('button.explain-btn[data-pod="default/render-xl"]');
      await page.waitForSelector("#explain #filter-matrix");
      const header = await page.locator("#filter-matrix thead th").allTextContents();
      expect(header.join("|")).toMatch(/NodeResourcesFit✗ 4 node\(s\)/);
      expect(header.join("|")).toMatch(/TaintToleration✗ 1 node\(s\)/);
      const failing = await page.locator("#filter-matrix td.fail").allTextContents();
      expect(failing).toContain("Insufficient cpu; Insufficient memory");
      expect(failing).toContain("node(s) had untolerated taint(s)");
      expect(failing).toContain("node(s) were unschedulable");
      const nodeA2 = page.locator("#filter-matrix tbody tr", { hasText: "node-a2" });
      expect(await nodeA2.locator("td.fail").textContent()).toBe("node(s) were unschedulable");
      expect(await text(page, "#postfilter-table")).toContain("DefaultPreemption");
      expect(await text(page, "#score-skipped")).toContain("Scoring did not run");
      if (updateScreenshots) await page.screenshot({ path: join(docs, "explain-unschedulable.png") });

      // Close, then a scheduled pod: its score breakdown marks the selected node.
      await page.click("#explain-close");
      expect(await page.locator("#explain").count()).toBe(0);
      const web1 = r.pods.find((p) => p.name === "web-1");
      await page.click('button.explain-btn[data-pod="shop/web-1"]');
      await page.waitForSelector("#explain #score-table");
      const selected = page.locator("#score-table tr.selected");
      expect(await selected.count()).toBe(1);
      expect(await selected.locator("td.name").textContent()).toContain(web1?.node ?? "?");
      expect(await selected.locator("td").nth(1).textContent()).toBe(
        String(web1?.explain?.finalScore?.[web1.node ?? ""]),
      );
      const scoreHeader = await page.locator("#score-table thead th").allTextContents();
      expect(scoreHeader.join("|")).toContain("NodeResourcesFit");
      if (updateScreenshots) await page.screenshot({ path: join(docs, "explain-scheduled.png") });

      expect(errors).toEqual([]);
      await page.close();
    });

    it("examples/dra-gpu with maintenance.yaml: each node's tainted devices as the JSON counts them, none where nothing is tainted", async () => {
      const r = await simulate({
        config: defaultConfig({ registry: inTreeRegistry }),
        registry: inTreeRegistry,
        logger: recordingLogger(),
        objects: loadSnapshotFiles(
          ["examples/dra-gpu/cluster.yaml", "examples/dra-gpu/maintenance.yaml"],
          root,
        ).objects,
      });
      // The JSON's (and the table's TAINTED column's) count, summed over a node's pools.
      const taintedOf = (node: string) =>
        (r.nodes.find((n) => n.name === node)?.devices ?? []).reduce((sum, d) => sum + (d.tainted ?? 0), 0);
      expect(taintedOf("gpu-node-1")).toBe(4);
      expect(taintedOf("gpu-node-2")).toBe(0);
      const { page, errors } = await open("dra-gpu-maintenance.html", renderReport({ simulation: r }));
      const header = await page.locator("#nodes-table thead th").allTextContents();
      const column = header.indexOf("gpu.example.com devices");
      expect(column).toBeGreaterThan(0);
      const cell = (node: string) =>
        page.locator("#nodes-table tbody tr", { hasText: node }).locator("td").nth(column);
      expect(await cell("gpu-node-1").locator("span.tainted").textContent()).toBe("4 tainted");
      expect(await cell("gpu-node-1").getAttribute("title")).toMatch(/, 4 tainted$/);
      expect(await cell("gpu-node-1").locator("span.tainted").getAttribute("title")).toContain(
        "NoSchedule or NoExecute taint",
      );
      expect(await cell("gpu-node-2").locator("span.restext").count()).toBe(1);
      expect(await cell("gpu-node-2").locator("span.tainted").count()).toBe(0);
      // Without the rule nothing is tainted: no marker on any node.
      const untainted = await simulate({
        config: defaultConfig({ registry: inTreeRegistry }),
        registry: inTreeRegistry,
        logger: recordingLogger(),
        objects: loadSnapshotFiles(["examples/dra-gpu/cluster.yaml"], root).objects,
      });
      const plain = await open("dra-gpu.html", renderReport({ simulation: untainted }));
      expect(await plain.page.locator("#nodes-table span.tainted").count()).toBe(0);
      expect([...errors, ...plain.errors]).toEqual([]);
      await page.close();
      await plain.page.close();
    });

    it("examples/preemption.yaml: the preemption, its victim, the node before and after", async () => {
      const r = await simulateFiles("examples/preemption.yaml");
      const { page, errors } = await open("preemption.html", renderReport({ simulation: r }));
      expect(await text(page, "#summary-preemptions")).toBe(String(r.preemptions.length));
      const row = page.locator("#preemptions-table tbody tr, #preemptions-table tr:has(td)").first();
      const pre = r.preemptions[0];
      expect(await row.textContent()).toBe(`${pre?.preemptor}${pre?.node}${pre?.victims.join(", ")}`);
      // The preemption's node: cpu requested before (with the victim) and after (with the preemptor).
      const n = r.nodes.find((x) => x.name === pre?.node);
      const cpu =
        n?.before.requested.cpu === n?.requested.cpu
          ? n?.requested.cpu
          : `${n?.before.requested.cpu} → ${n?.requested.cpu}`;
      const nodeRow = page.locator("#nodes-table tbody tr", { hasText: pre?.node ?? "?" });
      expect(await nodeRow.locator("td.res").first().textContent()).toMatch(new RegExp(`^${cpu} / 4 `));
      expect(errors).toEqual([]);
      await page.close();
    });

    it("pods admission refused: listed as Refused, and the outcome filter selects them", async () => {
      // A quota of 2 cpu in shop and a Deployment of 4 pods of 1 cpu: 2 are created and scheduled,
      // ResourceQuota refuses the other 2 (loadSnapshotTexts expands the workload, as the CLI).
      const loaded = loadSnapshotTexts([
        {
          name: "refused.yaml",
          text: `apiVersion: v1
kind: Node
metadata: { name: n1 }
status: { allocatable: { cpu: "8", memory: 16Gi, pods: "110" } }
---
apiVersion: v1
kind: ResourceQuota
metadata: { name: shop-quota, namespace: shop }
spec: { hard: { requests.cpu: "2" } }
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: shop, uid: d1 }
spec:
  replicas: 4
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers: [{ name: c, image: nginx, resources: { requests: { cpu: "1" } } }]
`,
        },
      ]);
      const r = await simulate({
        config: defaultConfig({ registry: inTreeRegistry }),
        registry: inTreeRegistry,
        logger: recordingLogger(),
        objects: loaded.objects,
        refusedPods: loaded.refusedPods,
      });
      expect(r.pods.map((p) => p.outcome)).toEqual(["Scheduled", "Scheduled", "Refused", "Refused"]);
      const { page, errors } = await open("refused.html", renderReport({ simulation: r }));
      const options = await page
        .locator("#pod-outcome option")
        .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
      expect(options).toEqual(["all", "Scheduled", "Unschedulable", "Error", "Gated", "Skipped", "Refused"]);
      expect(await page.locator("#pods-table tbody tr").count()).toBe(4);
      await page.selectOption("#pod-outcome", "Refused");
      const rows = page.locator("#pods-table tbody tr");
      expect(await rows.count()).toBe(2);
      for (const row of await rows.all()) {
        expect(await row.locator(".outcome").textContent()).toBe("Refused");
        expect(await row.locator("td.msg").textContent()).toMatch(/is forbidden: exceeded quota: shop-quota/);
      }
      await page.selectOption("#pod-outcome", "Scheduled");
      expect(await rows.count()).toBe(2);
      expect(errors).toEqual([]);
      await page.close();
    });

    it("text from the data is shown as text: a message with </script> and markup cannot break out", async () => {
      const r = await simulateFiles("examples/cluster.yaml");
      const evil = '</script><script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">';
      const pods = r.pods.map((p) => (p.name === "render-xl" ? { ...p, message: evil } : p));
      const { page, errors } = await open(
        "evil.html",
        renderReport({ simulation: { ...r, pods }, title: evil }),
      );
      expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
      expect(await text(page, "#pods-table")).toContain(evil);
      expect(await page.title()).toBe(evil);
      expect(errors).toEqual([]);
      await page.close();
    });

    it("kubesched diff: default vs bin-packing side by side, the pods that moved and why", async () => {
      const d = await diff({
        configs: [
          defaultConfig({ registry: inTreeRegistry }),
          loadConfigFile(join(root, "examples/config/bin-packing.yaml"), { registry: inTreeRegistry }),
        ],
        labels: ["default", "examples/config/bin-packing.yaml"],
        registry: inTreeRegistry,
        logger: recordingLogger(),
        objects: loadSnapshotFiles(["examples/cluster.yaml"], root).objects,
      });
      expect(d.changed).toBeGreaterThan(0);
      const { page, errors } = await open(
        "diff.html",
        renderReport({
          diff: d,
          subtitle:
            "kubesched diff --cluster examples/cluster.yaml --config default --config examples/config/bin-packing.yaml",
        }),
      );
      expect(await text(page, "#diff-changed")).toBe(
        `${d.changed} of ${d.pods.length} pending pod(s) placed differently (seed 0).`,
      );
      const nodesUsed = page.locator('#diff-summary-table tr[data-measure="nodes used"] td');
      expect(await nodesUsed.allTextContents()).toEqual([
        "nodes used",
        String(d.summary.a.nodesUsed),
        String(d.summary.b.nodesUsed),
        expect.stringMatching(/^[+-]?\d+$/),
      ]);
      // Only the pods placed differently at first; all of them with the box unticked.
      expect(await page.locator("#diff-pods-table tbody tr").count()).toBe(d.changed);
      const web1 = d.pods.find((p) => p.name === "web-1");
      const row = page.locator('#diff-pods-table tr[data-pod="shop/web-1"]');
      expect(await row.locator("td").nth(1).textContent()).toBe(`${web1?.a.outcome}${web1?.a.node}`);
      expect(await row.locator("td").nth(2).textContent()).toBe(`${web1?.b.outcome}${web1?.b.node}`);
      expect(await row.locator("td.msg").textContent()).toBe(web1?.why);
      if (updateScreenshots) await page.screenshot({ path: join(docs, "diff.png"), fullPage: true });
      await page.uncheck("#diff-only-changed");
      expect(await page.locator("#diff-pods-table tbody tr").count()).toBe(d.pods.length);
      await page.fill("#diff-pod-filter", "web-1");
      expect(await page.locator("#diff-pods-table tbody tr").count()).toBe(1);
      expect(errors).toEqual([]);
      await page.close();
    });

    it("kubesched plan --report: the page the CLI writes for examples/plan — nodes per pool, cost, utilisation (inline SVG), the proof", async () => {
      // The CLI as a user runs it (the checkout's bin): its PlanReport (-o json) and its HTML page.
      const html = join(tmp, "plan-cli.html");
      const json = execFileSync(
        process.execPath,
        [
          "apps/kubesched/bin/kubesched.js",
          "plan",
          "--cluster",
          "examples/plan/cluster.yaml",
          "--pools",
          "examples/plan/pools.yaml",
          "-o",
          "json",
          "--report",
          html,
        ],
        { cwd: root, encoding: "utf8" },
      );
      const r = JSON.parse(json) as PlanReport;
      const { page, errors } = await open("plan.html", readFileSync(html, "utf8"));
      expect(await page.title()).toBe("kubesched plan report");
      expect(await text(page, "#plan-summary")).toBe(
        "found add 3 node(s), cost 2.6 — exact search, smallest by node count.",
      );
      // One bar row per pool with what plan added, of its maxCount.
      const rows = page.locator("#plan-nodes-chart g.bar-row");
      expect(await rows.count()).toBe(3);
      expect(await page.locator("#plan-nodes-chart text.value").allTextContents()).toEqual([
        "1 of 6",
        "0 of 6",
        "2 of 3",
      ]);
      expect(await page.locator("#plan-cost-chart text.value").allTextContents()).toEqual(["0.2", "2.4"]);
      const u = r.status.utilisation;
      expect(await page.locator("#plan-utilisation-chart text.value").allTextContents()).toEqual(
        [u.before.cpu, u.after.cpu, u.before.memory, u.after.memory].map((f) => `${(f * 100).toFixed(1)}%`),
      );
      // The bars are drawn to scale: cpu after is u.after.cpu of the 360-pixel track.
      const after = page.locator('#plan-utilisation-chart g.bar-row[data-label="cpu after"] rect.after');
      expect(Number(await after.getAttribute("width"))).toBeCloseTo(u.after.cpu * 360, 3);
      expect(await text(page, "#plan-proof-summary")).toBe(
        "13/14 pending pod(s) scheduled by the follow-up simulate.",
      );
      expect(await page.locator("#plan-pods-table tbody tr").count()).toBe(14);
      expect(await page.locator("#plan-excluded-table tbody tr").count()).toBe(3);
      await page.fill("#plan-pods-search", "gpu-new");
      expect(await page.locator("#plan-pods-table tbody tr").count()).toBe(2);
      await page.fill("#plan-pods-search", "");
      if (updateScreenshots) {
        // The whole page in one viewport: a full-page capture draws the sticky nav mid-page.
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        await page.setViewportSize({ width: 1400, height });
        await page.screenshot({ path: join(docs, "plan.png") });
      }
      expect(errors).toEqual([]);
      await page.close();
    });

    it("kubesched plan --report on examples/plan-gpu: the devices per pool and per DeviceClass (allocated of published, drawn to scale)", async () => {
      const html = join(tmp, "plan-gpu.html");
      const json = execFileSync(
        process.execPath,
        [
          "apps/kubesched/bin/kubesched.js",
          "plan",
          "--cluster",
          "examples/plan-gpu/cluster.yaml",
          "--pools",
          "examples/plan-gpu/pools.yaml",
          "-o",
          "json",
          "--report",
          html,
        ],
        { cwd: root, encoding: "utf8" },
      );
      const d = (JSON.parse(json) as PlanReport).status.devices;
      const gpu = d?.pools[0];
      const { page, errors } = await open("plan-gpu.html", readFileSync(html, "utf8"));
      expect(await page.locator("#plan-pool-devices-chart text.value").allTextContents()).toEqual([
        `${gpu?.allocated}/16`,
      ]);
      expect(await page.locator("#plan-class-devices-chart text.value").allTextContents()).toEqual([
        "16/20 (16 added)",
      ]);
      const allocated = page.locator(
        '#plan-class-devices-chart g.bar-row[data-label="gpu.example.com"] rect.after',
      );
      expect(Number(await allocated.getAttribute("width"))).toBeCloseTo((16 / 20) * 360, 3);
      expect(errors).toEqual([]);
      await page.close();
    });

    async function whyRenderXL() {
      return why({
        config: defaultConfig({ registry: inTreeRegistry }),
        registry: inTreeRegistry,
        logger: recordingLogger(),
        objects: loadSnapshotFiles(["examples/cluster.yaml"], root).objects,
        pod: { namespace: "default", name: "render-xl" },
        fixes: { budgetSeconds: 60, maxFixes: 5 },
      });
    }

    it("kubesched why --report: render-xl's pod view, the reasons grouped, every node's rejections, preemption, the verified fixes", async () => {
      const r = await whyRenderXL();
      const { page, errors } = await open(
        "why.html",
        renderReport({ why: r, subtitle: "kubesched why default/render-xl on examples/cluster.yaml" }),
      );
      expect(await page.title()).toBe("kubesched why default/render-xl");
      expect(await text(page, "#why-summary")).toBe("pending 0/6 nodes fit (profile default-scheduler).");
      if (updateScreenshots) await page.screenshot({ path: join(docs, "why.png"), fullPage: true });
      // The groups as `why` groups them, in its order, with its numbers.
      const groups = page.locator("#why-groups-table tbody tr");
      expect(await groups.count()).toBe(r.groups.length);
      for (const [i, g] of r.groups.entries()) {
        expect(await groups.nth(i).locator("td").allTextContents()).toEqual([
          String(g.count),
          g.reason,
          g.detail,
          g.plugin,
          "show nodes",
        ]);
      }
      expect(await text(page, "#why-groups-table")).toContain("Insufficient cpu");
      // Every node, every rejecting plugin, the plugin's numbers.
      expect(await page.locator("#why-nodes-table tbody tr").count()).toBe(6);
      const a1 = page.locator('#why-nodes-table tr[data-node="node-a1"]');
      expect(await a1.locator(".rejection .plugin").allTextContents()).toEqual(["NodeResourcesFit"]);
      expect(await a1.locator(".rejection .reason").textContent()).toBe(
        "Insufficient cpu, Insufficient memory",
      );
      expect(await a1.locator(".detail").allTextContents()).toEqual([
        "cpu: requested 12, free 3 of 4, short 9",
        "memory: requested 48Gi, free 15Gi of 16Gi, short 33Gi",
      ]);
      const a2 = page.locator('#why-nodes-table tr[data-node="node-a2"]');
      expect(await a2.locator(".rejection .plugin").allTextContents()).toEqual(
        r.nodes.find((n) => n.name === "node-a2")?.rejections.map((j) => j.plugin),
      );
      // A group's "show nodes" narrows the node table to that group.
      const taint = r.groups.find((g) => g.plugin === "TaintToleration");
      await page.click(`#why-groups-table tr[data-reason="${taint?.reason}"] button.group-nodes`);
      expect(await page.locator("#why-nodes-table tbody tr").count()).toBe(taint?.count);
      expect(await text(page, "#why-node-group")).toBe(
        `showing the ${taint?.count} nodes of: ${taint?.reason}`,
      );
      await page.click("#why-all-nodes");
      expect(await page.locator("#why-nodes-table tbody tr").count()).toBe(6);
      // Preemption, as why found it: not helpful anywhere, each node's reason.
      expect(await text(page, "#why-preemption h2")).toBe("Preemption (DefaultPreemption)");
      expect(await text(page, "#why-preemption-outcome")).toBe(r.preemption.reason);
      expect(await page.locator("#why-not-helpful-table tbody tr").count()).toBe(
        r.preemption.notHelpful.length,
      );
      // The verified fixes `why` found, smallest first, each with the node the pod lands on.
      expect(r.fixes?.length).toBeGreaterThanOrEqual(2);
      const fixes = page.locator("#why-fixes-table tbody tr");
      expect(await fixes.count()).toBe(r.fixes?.length);
      for (const [i, f] of (r.fixes ?? []).entries()) {
        expect(await fixes.nth(i).locator("td.name").textContent()).toBe(f.node);
      }
      expect(errors).toEqual([]);
      await page.close();
    });

    it("kubesched why --report: a report carrying verified fixes shows them, smallest first, with kubectl", async () => {
      const r: WhyReport = {
        ...(await whyRenderXL()),
        fixes: [
          {
            kind: "LowerRequest",
            target: "pod",
            description: "lower cpu request of container render from 12 to 3",
            size: 1,
            node: "node-a1",
            displaces: [],
            kubectl: ["kubectl -n default set resources pod/render-xl -c render --requests=cpu=3"],
            changes: [],
            moved: [],
          },
          {
            kind: "AddNodes",
            target: "cluster",
            description: "add 1 node shaped like node-b1 (16 cpu, 64Gi)",
            size: 2,
            node: "node-b1-copy-1",
            displaces: ["shop/web-3"],
            kubectl: ["kubectl get node node-b1 -o yaml > node.yaml", "kubectl apply -f node.yaml"],
            changes: [],
            moved: [],
          },
        ],
        fixSearch: { budgetSeconds: 60, withPendingPods: true, exhausted: false, tried: 14 },
      };
      const { page, errors } = await open("why-fixes.html", renderReport({ why: r }));
      expect(await text(page, "#why-fix-search")).toBe("14 candidates tried in a 60 s budget.");
      const rows = page.locator("#why-fixes-table tbody tr");
      expect(await rows.count()).toBe(2);
      expect(await rows.nth(0).locator("td").allTextContents()).toEqual([
        "1",
        "LowerRequestlower cpu request of container render from 12 to 3",
        "pod",
        "node-a1",
        "no other pending pod",
        "kubectl -n default set resources pod/render-xl -c render --requests=cpu=3",
      ]);
      expect(await rows.nth(1).locator("td").nth(4).textContent()).toBe("shop/web-3");
      expect(await rows.nth(1).locator("code.cmd").allTextContents()).toEqual(r.fixes?.[1]?.kubectl);
      if (updateScreenshots)
        await page.locator("#why-fixes").screenshot({ path: join(docs, "why-fixes.png") });

      // The budget ran out with nothing found: said so.
      const none = await open(
        "why-no-fix.html",
        renderReport({
          why: {
            ...r,
            fixes: [],
            fixSearch: {
              budgetSeconds: 60,
              withPendingPods: true,
              exhausted: true,
              tried: 40,
              note: "stopped after 60 s",
            },
          },
        }),
      );
      expect(await text(none.page, "#why-fix-search")).toBe(
        "40 candidates tried in a 60 s budget: the budget ran out before every candidate was tried. stopped after 60 s",
      );
      expect(await text(none.page, "#why-no-fix")).toBe("No change tried makes the pod schedulable.");
      expect([...errors, ...none.errors]).toEqual([]);
      await page.close();
      await none.page.close();
    });

    it("kubesched why --report: a pod held back at PreEnqueue and a pod PreFilter rejects show what the JSON's summary says", async () => {
      const snapshot = `apiVersion: v1
kind: Node
metadata: { name: node-a, labels: { kubernetes.io/hostname: node-a } }
status: { allocatable: { cpu: "4", memory: 8Gi, pods: "110" } }
---
apiVersion: v1
kind: Pod
metadata: { name: gated, namespace: default }
spec:
  schedulingGates: [{ name: example.com/quota }]
  containers: [{ name: c, image: i }]
---
apiVersion: v1
kind: Pod
metadata: { name: needs-pvc, namespace: default }
spec:
  containers: [{ name: c, image: i }]
  volumes: [{ name: data, persistentVolumeClaim: { claimName: missing } }]
`;
      const whyOf = (name: string) =>
        why({
          config: defaultConfig({ registry: inTreeRegistry }),
          registry: inTreeRegistry,
          logger: recordingLogger(),
          objects: loadSnapshotTexts([{ name: "cluster.yaml", text: snapshot }]).objects,
          pod: { namespace: "default", name },
        });

      const gated = await whyOf("gated");
      const gate = gated.summary.gated;
      expect(gate).toEqual({
        plugin: "SchedulingGates",
        code: "UnschedulableAndUnresolvable",
        message: "waiting for scheduling gates: [example.com/quota]",
      });
      const g = await open("why-gated.html", renderReport({ why: gated }));
      const note = g.page.locator("#why-gated");
      expect([await note.getAttribute("data-plugin"), await note.getAttribute("data-code")]).toEqual([
        gate?.plugin,
        gate?.code,
      ]);
      expect(await g.page.locator("#why-gated p").allTextContents()).toEqual([
        "The pod never enters a scheduling cycle: PreEnqueue of SchedulingGates holds it back (UnschedulableAndUnresolvable): waiting for scheduling gates: [example.com/quota]",
        "No PreFilter or Filter plugin runs and no node is evaluated until an event lets it pass.",
      ]);
      // Nothing evaluated the pod: no reasons or node verdicts are shown (no node "fits").
      expect(await g.page.locator("#why-reasons, #why-nodes, #why-prefilter-rejection").count()).toBe(0);
      expect(await text(g.page, "#why-preemption-outcome")).toBe(gated.preemption.reason);

      const rejected = await whyOf("needs-pvc");
      const rejection = rejected.summary.preFilterRejection;
      expect(rejection).toEqual({
        plugin: "VolumeRestrictions",
        code: "UnschedulableAndUnresolvable",
        message: 'persistentvolumeclaim "missing" not found',
      });
      const pf = await open("why-prefilter-rejection.html", renderReport({ why: rejected }));
      const p = pf.page.locator("#why-prefilter-rejection");
      expect([await p.getAttribute("data-plugin"), await p.getAttribute("data-code")]).toEqual([
        rejection?.plugin,
        rejection?.code,
      ]);
      expect(await p.textContent()).toBe(
        'PreFilter of VolumeRestrictions rejects the pod (UnschedulableAndUnresolvable): no node is evaluated. FitError: 0/1 nodes are available: persistentvolumeclaim "missing" not found.',
      );
      expect(await pf.page.locator("#why-gated").count()).toBe(0);
      expect([...g.errors, ...pf.errors]).toEqual([]);
      await g.page.close();
      await pf.page.close();
    });

    it("5000 nodes: loads, pages the node table, opens an explain view", async () => {
      const nodes = Array.from({ length: 5000 }, (_, i) => ({
        apiVersion: "v1",
        kind: "Node",
        metadata: { name: `node-${i}`, labels: { "kubernetes.io/hostname": `node-${i}` } },
        status: { allocatable: { cpu: "4", memory: "32Gi", pods: "110" } },
      }));
      const pods = Array.from({ length: 40 }, (_, i) => ({
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name: `pod-${i}`, namespace: "default" },
        spec: {
          containers: [{ name: "c", image: "i", resources: { requests: { cpu: i === 0 ? "5" : "100m" } } }],
        },
      }));
      const r = await simulate({
        config: defaultConfig({ registry: inTreeRegistry }),
        registry: inTreeRegistry,
        logger: recordingLogger(),
        objects: loadSnapshotTexts([{ name: "big.json", text: JSON.stringify([...nodes, ...pods]) }]).objects,
        explain: true,
      });
      const html = renderReport({ simulation: r });
      const { page, errors } = await open("big.html", html);
      expect(await text(page, "#nodes .pager-info")).toBe("1–50 of 5000 nodes (page 1/100)");
      expect(await page.locator("#nodes-table tbody tr").count()).toBe(50);
      await page.fill("#node-filter", "node-4999");
      expect(await text(page, "#nodes .pager-info")).toBe("1–1 of 1 nodes (page 1/1)");
      // pod-0 asks for more cpu than any node has: every one of the 5000 nodes rejects it.
      await page.click('button.explain-btn[data-pod="default/pod-0"]');
      await page.waitForSelector("#explain #filter-matrix");
      expect(await text(page, "#explain .pager-info")).toBe("1–50 of 5000 nodes (page 1/100)");
      expect(await page.locator("#filter-matrix td.fail").first().textContent()).toBe("Insufficient cpu");
      expect(errors).toEqual([]);
      await page.close();
    }, 120_000);
  },
);
