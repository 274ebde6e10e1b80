import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildKubeConfig, KubeConfigError, serviceAccountDir } from "./kube-config";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "kubesched-kubeconfig-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const file = (server: string, skip = false) =>
  [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    "- name: c",
    "  cluster:",
    `    server: ${server}`,
    ...(skip ? ["    insecure-skip-tls-verify: true"] : []),
    "users:",
    "- name: u",
    "  user:",
    "    token: t",
    "contexts:",
    "- name: x",
    "  context: {cluster: c, user: u}",
    "current-context: x",
    "",
  ].join("\n");

describe("buildKubeConfig", () => {
  it("loads the file; --master overrides its server and keeps its credentials", () => {
    const path = join(dir, "kubeconfig");
    writeFileSync(path, file("https://a.example:6443"));
    expect(buildKubeConfig(path).getCurrentCluster()?.server).toBe("https://a.example:6443");
    const kc = buildKubeConfig(path, "https://b.example:6443");
    expect(kc.getCurrentCluster()?.server).toBe("https://b.example:6443");
    expect(kc.getCurrentUser()?.token).toBe("t");
  });

  it("allows plain HTTP servers (client-node needs skipTLSVerify for them)", () => {
    const path = join(dir, "kubeconfig");
    writeFileSync(path, file("http://127.0.0.1:8080"));
    expect(buildKubeConfig(path).getCurrentCluster()?.skipTLSVerify).toBe(true);
    expect(buildKubeConfig(undefined, "http://127.0.0.1:8080").getCurrentCluster()).toMatchObject({
      server: "http://127.0.0.1:8080",
      skipTLSVerify: true,
    });
    expect(buildKubeConfig(undefined, "https://x.example").getCurrentCluster()?.skipTLSVerify).toBe(false);
  });

  it("uses the pod's service account when no kubeconfig is given", async () => {
    const sa = join(dir, serviceAccountDir);
    mkdirSync(sa, { recursive: true });
    writeFileSync(join(sa, "token"), "sa-token");
    writeFileSync(join(sa, "ca.crt"), "");
    writeFileSync(join(sa, "namespace"), "kube-system");
    const kc = buildKubeConfig(undefined, undefined, {
      inClusterRoot: dir,
      env: { KUBERNETES_SERVICE_HOST: "10.0.0.1", KUBERNETES_SERVICE_PORT: "443" },
    });
    expect(kc.getCurrentCluster()).toMatchObject({
      server: "https://10.0.0.1:443",
      caFile: join(sa, "ca.crt"),
    });
    const opts: { headers?: Record<string, string> } = { headers: {} };
    await kc.applyToHTTPSOptions(opts as never);
    expect(opts.headers?.Authorization).toBe("Bearer sa-token");
  });

  it("falls back to $KUBECONFIG, and fails at once with a clear error when there is nothing", () => {
    const path = join(dir, "kubeconfig");
    writeFileSync(path, file("https://k.example:6443"));
    const env = { KUBECONFIG: path };
    expect(
      buildKubeConfig(undefined, undefined, { env, inClusterRoot: dir }).getCurrentCluster()?.server,
    ).toBe("https://k.example:6443");
    // KUBERNETES_SERVICE_HOST without a mounted token is not in-cluster.
    const none = {
      env: { KUBERNETES_SERVICE_HOST: "10.0.0.1", KUBERNETES_SERVICE_PORT: "443" },
      inClusterRoot: dir,
    };
    expect(() => buildKubeConfig(undefined, undefined, none)).toThrow(KubeConfigError);
    expect(() => buildKubeConfig(undefined, undefined, none)).toThrow(/^no configuration has been provided/);
  });

  it("throws for a missing file", () => {
    expect(() => buildKubeConfig(join(dir, "missing"))).toThrow(/ENOENT/);
  });
});
