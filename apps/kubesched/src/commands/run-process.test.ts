// `kubesched run` as a real process against the API-server emulator: the process itself ends
// (nothing left keeping it alive) with the right exit code when it is told to stop or loses its
// lease while the API server hangs its requests; and it keeps serving after the requests that
// once made it exit.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { FakeApiServer, waitFor } from "@kubesched/kube/testing";
import { makeNode, makePod } from "@kubesched/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { sendRaw, statusOf } from "../serving/serving.test-util";

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

const electionFlags = [
  "--secure-port=0",
  "--leader-elect",
  "--leader-elect-lease-duration=2s",
  "--leader-elect-renew-deadline=1s",
  "--leader-elect-retry-period=200ms",
];

function run(flags = electionFlags): { exit: Promise<number | null>; stderr: () => string } {
  let stderr = "";
  child = spawn(
    process.execPath,
    ["--import", "tsx", bin, "run", "--kubeconfig", join(dir, "kubeconfig"), ...flags],
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

  it("keeps serving after the requests that killed it (issue 22: a malformed request target)", async () => {
    // Ports the OS picked a moment ago (a process cannot be asked for port 0 and report it).
    const free = () =>
      new Promise<number>((resolve) => {
        const probe = createServer().listen(0, "127.0.0.1", () => {
          const { port } = probe.address() as { port: number };
          probe.close(() => resolve(port));
        });
      });
    const [securePort, plainPort] = [await free(), await free()];
    const p = run([
      `--secure-port=${securePort}`,
      `--port=${plainPort}`,
      "--bind-address=127.0.0.1",
      "--leader-elect=false",
    ]);
    await waitFor(() => p.stderr().includes("Serving insecurely"), 90_000, "the servers").catch((e) => {
      throw new Error(`${e.message}; stderr:\n${p.stderr()}`);
    });
    // curl -sk --request-target '//[' https://127.0.0.1:10259/ ; --request-target 'http://%zz/' on --port.
    for (const [port, tls] of [
      [securePort, true],
      [plainPort, false],
    ] as const) {
      for (const target of ["//[", "http://%zz/"]) {
        const a = await sendRaw(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, {
          tls,
          after: "keep",
          timeoutMs: 30_000,
        });
        expect(statusOf(a.data), `${target} on ${tls ? "--secure-port" : "--port"}`).toBeGreaterThanOrEqual(
          400,
        );
      }
    }
    expect(child?.exitCode).toBeNull();
    const healthz = await fetch(`http://127.0.0.1:${plainPort}/healthz`);
    expect([healthz.status, await healthz.text()]).toEqual([200, "ok"]);
    child?.kill("SIGTERM");
    expect(await p.exit).toBe(0);
  });
});
