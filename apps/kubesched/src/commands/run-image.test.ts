// The container image, run as deploy/kubesched.yaml runs it: the image's entrypoint and command
// from its unpacked runtime bundle (what a container runtime executes), as its non-root user, with
// the Deployment's arguments and the ConfigMap's configuration, against the API-server emulator.
// Only when KUBESCHED_IMAGE_BUNDLE names a bundle (`umoci unpack --image deploy/image/out:kubesched:latest
// BUNDLE`, as .ci/run does after deploy/image/build.sh) and as root (chroot); skipped otherwise.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FakeApiServer, waitFor } from "@kubesched/kube/testing";
import { makeNode, makePod } from "@kubesched/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { container, containerArgs, one } from "./deploy-manifests.test-util";
import { freePort, httpsStatus } from "./secure-port.test-util";

const bundle = process.env.KUBESCHED_IMAGE_BUNDLE;

interface RuntimeConfig {
  root: { path: string };
  process: { args: string[]; env: string[]; user: { uid: number; gid: number }; cwd: string };
}

describe.skipIf(bundle === undefined)(
  "the kubesched image (KUBESCHED_IMAGE_BUNDLE)",
  { timeout: 180_000 },
  () => {
    let server: FakeApiServer;
    let child: ChildProcess | null = null;
    let runtime: RuntimeConfig;
    let rootfs: string;
    const scratch = "/tmp/kubesched-image-test";

    beforeAll(async () => {
      server = await FakeApiServer.start();
      runtime = JSON.parse(readFileSync(join(bundle as string, "config.json"), "utf8")) as RuntimeConfig;
      rootfs = join(bundle as string, runtime.root.path);
      mkdirSync(join(rootfs, scratch), { recursive: true });
    });

    afterAll(async () => {
      child?.kill("SIGKILL");
      await server?.close();
      if (rootfs) rmSync(join(rootfs, scratch), { recursive: true, force: true });
    });

    /** Runs the image's process with `args` after its own, inside its root file system, as its user. */
    function run(args: string[]): { exit: Promise<number | null>; output: () => string } {
      const { uid, gid } = runtime.process.user;
      let output = "";
      child = spawn(
        "chroot",
        [
          `--userspec=${uid}:${gid}`,
          rootfs,
          "/usr/bin/env",
          "-i",
          ...runtime.process.env,
          "sh",
          "-c",
          'cd "$0" && exec "$@"',
          runtime.process.cwd,
          ...runtime.process.args,
          ...args,
        ],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
      child.stdout?.on("data", (c: Buffer) => (output += c.toString()));
      child.stderr?.on("data", (c: Buffer) => (output += c.toString()));
      const exit = new Promise<number | null>((resolve) => child?.on("exit", (code) => resolve(code)));
      return { exit, output: () => output };
    }

    it("runs as a non-root user: `kubesched run` by default", () => {
      expect(runtime.process.user.uid).toBe(65532);
      expect(runtime.process.args).toEqual(["kubesched", "run"]);
    });

    it("schedules with deploy/kubesched.yaml's arguments and configuration, serves its probes, exits 0 on SIGTERM", async () => {
      writeFileSync(join(rootfs, scratch, "kubeconfig"), server.kubeConfigYAML());
      const config = parse(one("ConfigMap").data["config.yaml"]);
      server.put("Node", makeNode().name("n1").capacity({ cpu: "4", memory: "8Gi" }).obj());
      server.put(
        "Pod",
        makePod().name("p1").namespace("default").schedulerName(config.profiles[0].schedulerName).obj(),
      );

      const port = await freePort();
      // The Deployment's arguments, after the image's `run` (its command): the same command line.
      const deploymentArgs = containerArgs(join(rootfs, scratch)).map((a) => a.replaceAll(rootfs, ""));
      expect(deploymentArgs[0]).toBe("run");
      const p = run([
        ...deploymentArgs.slice(1),
        `--kubeconfig=${scratch}/kubeconfig`,
        "--bind-address=127.0.0.1",
        `--secure-port=${port}`,
      ]);
      await waitFor(() => server.bindings.get("default/p1") === 1, 120_000, "the binding").catch((e) => {
        throw new Error(`${e.message}; output:\n${p.output()}`);
      });
      expect(server.get("Lease", "kube-system", config.leaderElection.resourceName)).toBeDefined();
      for (const probe of [container.livenessProbe, container.readinessProbe]) {
        await waitFor(
          async () => (await httpsStatus(port, probe.httpGet.path)) === 200,
          30_000,
          probe.httpGet.path,
        );
      }
      child?.kill("SIGTERM");
      expect(await p.exit).toBe(0);
      expect(p.output()).toContain("Successfully bound pod to node");
    });
  },
);
