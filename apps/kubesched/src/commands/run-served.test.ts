// `kubesched run` against an API server that does not serve a collection its informers would
// watch (an older server, or a group version or resource turned off with --runtime-config): it
// stops at once with the resource, the versions the server has it in, and the flags that make
// this release's scheduler not watch it, instead of waiting forever for a cache that never syncs.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { VersionInfo } from "@kubesched/api";
import { defaultConfig, featuresOf } from "@kubesched/config";
import type { Features } from "@kubesched/framework";
import type { BackoffConfig } from "@kubesched/kube";
import {
  defaultServerVersion,
  FakeApiServer,
  type FakeApiServerOptions,
  waitFor,
} from "@kubesched/kube/testing";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { makeNode, makePod, recordingLogger } from "@kubesched/testing";
import { afterEach, describe, expect, it } from "vitest";
// The CLI before ./run: cli.ts imports every command (./run among them).
import { runCli } from "../cli";
import { runScheduler } from "./run";

let server: FakeApiServer | undefined;
let dir: string | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const release = (minor: number): VersionInfo => ({
  ...defaultServerVersion,
  minor: String(minor),
  emulationMinor: String(minor),
  gitVersion: `v1.${minor}.2`,
});

/** A server with a node and a pod to schedule (no claims). */
async function start(opts: FakeApiServerOptions): Promise<FakeApiServer> {
  const s = await FakeApiServer.start(opts);
  s.put("Node", makeNode().name("n1").label("kubernetes.io/hostname", "n1").capacity({ cpu: "4" }).obj());
  s.put("Pod", makePod().name("p1").namespace("default").uid("uid-p1").obj());
  server = s;
  return s;
}

/** runScheduler with the release's config; resolves with its exit code and the log. */
function run(
  s: FakeApiServer,
  opts: {
    kubernetesVersion?: string;
    features?: Partial<Features>;
    backoff?: BackoffConfig;
    cacheSyncWarningMs?: number;
  } = {},
) {
  const ac = new AbortController();
  const logger = recordingLogger();
  // As the CLI: the configuration defaulted with the release's gates.
  const config = defaultConfig({
    registry: inTreeRegistry,
    kubernetesVersion: opts.kubernetesVersion,
    features: featuresOf(opts.kubernetesVersion, opts.features),
  });
  config.leaderElection = { ...config.leaderElection, leaderElect: false };
  const done = runScheduler({
    config,
    registry: inTreeRegistry,
    kubeConfig: s.kubeConfig(),
    logger,
    serving: null,
    signal: ac.signal,
    backoff: opts.backoff ?? { durationMs: 20, capMs: 100, steps: 3, factor: 2, jitter: 0 },
    ...(opts.cacheSyncWarningMs ? { cacheSyncWarningMs: opts.cacheSyncWarningMs } : {}),
    ...(opts.kubernetesVersion ? { kubernetesVersion: opts.kubernetesVersion } : {}),
    ...(opts.features ? { features: opts.features } : {}),
  });
  return { done, logger, stop: () => ac.abort() };
}

const errors = (logger: ReturnType<typeof recordingLogger>) =>
  logger.entries.filter((e) => e.level === "error").map((e) => e.msg);

describe("kubesched run: collections the API server does not serve", { timeout: 30_000 }, () => {
  it("a 1.36 server without v1 DeviceTaintRules: exit 1 at once, naming the resource, the served versions and the way out", async () => {
    const s = await start({
      version: release(36),
      runtimeConfig: {
        "resource.k8s.io/v1/devicetaintrules": false,
        "resource.k8s.io/v1beta2/devicetaintrules": true,
      },
    });
    const r = run(s);
    expect(await r.done).toBe(1);
    expect(errors(r.logger)).toEqual([
      "the API server (1.36) does not serve devicetaintrules in resource.k8s.io/v1 (it serves devicetaintrules in resource.k8s.io/v1beta2); kubesched at release 1.37 with DRADeviceTaintRules on watches DeviceTaintRules there, as kube-scheduler 1.37 does, and its cache would never sync. Run with --emulated-version 1.36 (the server's release), or --feature-gates DRADeviceTaintRules=false (DeviceTaintRules are then not applied).",
    ]);
    // Nothing was listed: the informers never started.
    expect(s.requestsTo("GET", "/api/v1/nodes")).toEqual([]);
    expect(s.requestsTo("GET", /devicetaintrules/)).toEqual([]);
  });

  it("the way out works: --feature-gates DRADeviceTaintRules=false, or the server's release (1.36: the gate is off)", async () => {
    for (const opts of [{ features: { enableDRADeviceTaintRules: false } }, { kubernetesVersion: "1.36" }]) {
      const s = await start({
        version: release(36),
        runtimeConfig: { "resource.k8s.io/v1/devicetaintrules": false },
      });
      const r = run(s, opts);
      await waitFor(() => s.bindings.get("default/p1") === 1, 20_000, "the binding");
      r.stop();
      expect(await r.done).toBe(0);
      expect(errors(r.logger)).toEqual([]);
      expect(s.requestsTo("GET", /devicetaintrules/)).toEqual([]);
      await s.close();
      server = undefined;
    }
  });

  it("a server without resource.k8s.io/v1 (1.33): every DRA collection is named; at 1.33 DRA is off and nothing of resource.k8s.io is watched", async () => {
    const s = await start({ version: release(33), runtimeConfig: { "resource.k8s.io/v1": false } });
    const r = run(s);
    expect(await r.done).toBe(1);
    const lines = errors(r.logger);
    expect(lines.map((l) => l.split(" in ")[0])).toEqual([
      "the API server (1.33) does not serve resourceclaims",
      "the API server (1.33) does not serve resourceclaimtemplates",
      "the API server (1.33) does not serve resourceslices",
      "the API server (1.33) does not serve deviceclasses",
      "the API server (1.33) does not serve devicetaintrules",
    ]);
    expect(lines[0]).toContain(
      "(it does not serve the API group resource.k8s.io at all); kubesched at release 1.37 with DynamicResourceAllocation on watches ResourceClaims there",
    );
    expect(lines[0]).toContain(
      "Run with --emulated-version 1.33 (the server's release), or --emulated-version 1.34 --feature-gates DynamicResourceAllocation=false",
    );

    await s.close();
    const older = await start({ version: release(33), runtimeConfig: { "resource.k8s.io/v1": false } });
    const at133 = run(older, { kubernetesVersion: "1.33" });
    await waitFor(() => older.bindings.get("default/p1") === 1, 20_000, "the binding");
    at133.stop();
    expect(await at133.done).toBe(0);
    expect(
      older.requests.filter((q) => q.path.includes("resource.k8s.io") && q.path.split("/").length > 4),
    ).toEqual([]);
  });

  it("discovery that fails is a warning: the informers go on as upstream's", async () => {
    const s = await start({});
    s.fail({ method: "GET", path: "/apis/resource.k8s.io/v1", status: 503, times: 1 });
    const r = run(s);
    await waitFor(() => s.bindings.get("default/p1") === 1, 20_000, "the binding");
    r.stop();
    expect(await r.done).toBe(0);
    expect(r.logger.entries.find((e) => e.level === "warn")?.msg).toBe(
      "Could not check which resources the API server serves; the informers retry until it answers",
    );
  });

  it("while the caches wait, the kinds not synced yet are logged", async () => {
    const s = await start({});
    s.fail({ method: "GET", path: "/apis/storage.k8s.io/v1/csinodes", status: 403, times: 3 });
    const r = run(s, {
      backoff: { durationMs: 200, capMs: 200, steps: 1, factor: 1, jitter: 0 },
      cacheSyncWarningMs: 100,
    });
    await waitFor(() => s.bindings.get("default/p1") === 1, 20_000, "the binding");
    r.stop();
    expect(await r.done).toBe(0);
    expect(r.logger.entries).toContainEqual(
      expect.objectContaining({
        msg: "Still waiting for the informer caches to sync",
        fields: { kinds: "CSINode" },
      }),
    );
  });

  it("through the CLI: exit 1 with the message on stderr, no stack trace", async () => {
    const s = await start({
      version: release(36),
      runtimeConfig: { "resource.k8s.io/v1/devicetaintrules": false },
    });
    dir = mkdtempSync(join(tmpdir(), "kubesched-run-served-"));
    writeFileSync(join(dir, "kubeconfig"), s.kubeConfigYAML());
    let stderr = "";
    const code = await runCli(
      ["run", "--kubeconfig", "kubeconfig", "--secure-port=0", "--leader-elect=false"],
      { stdout: () => undefined, stderr: (t) => (stderr += t), cwd: dir },
    );
    expect(code).toBe(1);
    expect(stderr).toContain(
      "does not serve devicetaintrules in resource.k8s.io/v1 (resource.k8s.io serves v1",
    );
    expect(stderr).toContain("--feature-gates DRADeviceTaintRules=false");
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
