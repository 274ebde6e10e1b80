// A throwaway npm registry: verdaccio 6, installed with npm into a temporary folder, listening on
// 127.0.0.1 with its storage in that folder and no uplinks (it serves only what is published to
// it; npm fetches every other package from its usual registry).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { run } from "./proc";

// The last 6.x that runs on Node 20 (6.9 and later require Node 22).
export const verdaccioVersion = "6.8.0";

export interface LocalRegistry {
  url: string;
  /** An auth token of a user that may publish. */
  token: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited (${child.exitCode}):\n${log()}`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`verdaccio did not answer ${url} within 60 s:\n${log()}`);
}

/** Installs and starts verdaccio under `dir`; `stop()` ends it. */
export async function startRegistry(dir: string): Promise<LocalRegistry> {
  const install = path.join(dir, "verdaccio");
  mkdirSync(install, { recursive: true });
  // verdaccio 6 pulls a node-fetch 3 that breaks its CommonJS code on Node 20: pin 2.7.0.
  writeFileSync(
    path.join(install, "package.json"),
    JSON.stringify({
      name: "kubesched-release-check-registry",
      private: true,
      dependencies: { verdaccio: verdaccioVersion },
      overrides: { "node-fetch": "2.7.0" },
    }),
  );
  await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: install });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = path.join(dir, "verdaccio.yaml");
  writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(path.join(dir, "storage"))}`,
      "auth:",
      "  htpasswd:",
      `    file: ${JSON.stringify(path.join(dir, "htpasswd"))}`,
      "    max_users: 10",
      "uplinks: {}",
      "packages:",
      "  '**':",
      "    access: $all",
      "    publish: $authenticated",
      "    unpublish: $authenticated",
      `listen: 127.0.0.1:${port}`,
      "max_body_size: 200mb",
      "publish:",
      "  allow_offline: true",
      "log: { type: stdout, format: pretty, level: warn }",
      "",
    ].join("\n"),
  );
  let output = "";
  const child = spawn(
    process.execPath,
    [path.join(install, "node_modules/verdaccio/bin/verdaccio"), "--config", config],
    {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  };
  try {
    await waitFor(`${url}/-/ping`, child, () => output);
    const res = await fetch(`${url}/-/user/org.couchdb.user:release-check`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "release-check", password: "release-check-password" }),
    });
    const body = (await res.json()) as { token?: string };
    if (!res.ok || !body.token)
      throw new Error(`verdaccio refused the user: ${res.status} ${JSON.stringify(body)}`);
    return { url, token: body.token, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
