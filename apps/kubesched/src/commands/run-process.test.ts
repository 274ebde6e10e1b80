// `kubesched run` as a real process against the API-server emulator: the process itself ends
// (nothing left keeping it alive) with the right exit code when it is told to stop or loses its
// lease while the API server hangs its requests.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { FakeApiServer, waitFor } from "@kubesched/kube/testing";
import { makeNode, makePod } from "@kubesched/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// Starting a process that compiles the CLI on the fly takes seconds on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

const bin = join(dirname(fileURLToPath(import.meta.url)), "..", "bin.ts");
let server: FakeApiServer;
let dir: string;
let child: ChildProcess | null = null;

beforeEach(async () => {
  server = await FakeApiServer.start();
  dir = mkdtempSync(join(tmpdir(), "kubesched-run-process-"));
  writeFileSync(join(dir, "kubeconfig"), server.kubeConfigYAML());
  for (let i = 0; i < 3; i++)
    server.put("Node", makeNode().name(`n${i}`).capacity({ cpu: "8", memory: "8Gi" }).obj());
  for (let i = 0; i < 20; i++)
    server.put("Pod", makePod().name(`p${i}`).namespace("default").req({ cpu: "10m" }).obj());
  // Every binding and every event hangs: nothing the scheduler writes is ever answered.
  server.fail({ method: "POST", path: /\/binding$/, hang: true, times: Number.POSITIVE_INFINITY });
  server.fail({ method: "POST", path: "/apis/events.k8s.io/", hang: true, times: Number.POSITIVE_INFINITY });
});

afterEach(async () => {
  child?.kill("SIGKILL");
  child = null;
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function run(): { exit: Promise<number | null>; stderr: () => string } {
  let stderr = "";
  child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      bin,
      "run",
      "--kubeconfig",
      join(dir, "kubeconfig"),
      "--secure-port=0",
      "--leader-elect",
      "--leader-elect-lease-duration=2s",
      "--leader-elect-renew-deadline=1s",
      "--leader-elect-retry-period=200ms",
    ],
    // (from the package, where `tsx` resolves)
    { cwd: dirname(bin), stdio: ["ignore", "ignore", "pipe"] },
  );
  child.stderr?.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  const exit = new Promise<number | null>((resolve) => child?.on("exit", (code) => resolve(code)));
  return { exit, stderr: () => stderr };
}

const hungBindings = () => server.hungRequests().filter((r) => r.path.endsWith("/binding")).length;

describe("kubesched run (process)", () => {
  it("exits 0 after SIGTERM while bindings and events hang", async () => {
    const p = run();
    await waitFor(() => hungBindings() >= 5, 90_000, "hung bindings").catch((e) => {
      throw new Error(`${e.message}; stderr:\n${p.stderr()}`);
    });
    child?.kill("SIGTERM");
    expect(await p.exit).toBe(0);
    expect(p.stderr()).toContain("Not releasing the lease: bindings were abandoned");
  });

  it("exits 1 when it loses the lease while bindings hang", async () => {
    const p = run();
    await waitFor(() => hungBindings() >= 5, 90_000, "hung bindings");
    const holder = server.get("Lease", "kube-system", "kube-scheduler")?.spec.holderIdentity;
    server.stealLease("kube-system", "kube-scheduler", "other");
    expect(await p.exit).toBe(1);
    expect(p.stderr()).toContain('"Leaderelection lost"');
    expect(holder).toMatch(/_/);
  });
});
