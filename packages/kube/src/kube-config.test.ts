import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KubeConfigError, type KubeConfigFlags, resolveKubeConfig, serviceAccountDir } from "./kube-config";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "kubesched-kubeconfig-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A kubeconfig with one cluster `c`, user `u` and context `x` (names can be changed). */
interface FileNames {
  skip?: boolean;
  cluster?: string;
  user?: string;
  context?: string;
  /** current-context; "" for none (default: the context). */
  current?: string;
}
const file = (server: string, names: FileNames = {}) => {
  const { skip = false, cluster = "c", user = "u", context = "x" } = names;
  const current = names.current ?? context;
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    `- name: ${cluster}`,
    "  cluster:",
    `    server: ${server}`,
    ...(skip ? ["    insecure-skip-tls-verify: true"] : []),
    "users:",
    `- name: ${user}`,
    "  user:",
    `    token: token-of-${user}`,
    "contexts:",
    `- name: ${context}`,
    `  context: {cluster: ${cluster}, user: ${user}}`,
    ...(current ? [`current-context: ${current}`] : []),
    "",
  ].join("\n");
};

const scheduler: KubeConfigFlags = { inCluster: "first" };
const kubectl: KubeConfigFlags = { inCluster: "last" };
/** An empty environment: no $KUBECONFIG, a HOME without .kube, no service account. */
const bare = () => ({
  env: { HOME: join(dir, "home") } as Record<string, string | undefined>,
  inClusterRoot: dir,
  cwd: dir,
});
const server = (flags: KubeConfigFlags, opts = bare()) =>
  resolveKubeConfig(flags, opts).kubeConfig.getCurrentCluster()?.server;

function serviceAccount() {
  const sa = join(dir, serviceAccountDir);
  mkdirSync(sa, { recursive: true });
  writeFileSync(join(sa, "token"), "sa-token");
  writeFileSync(join(sa, "ca.crt"), "");
  writeFileSync(join(sa, "namespace"), "kube-system");
  return { KUBERNETES_SERVICE_HOST: "10.0.0.1", KUBERNETES_SERVICE_PORT: "443" };
}

describe("resolveKubeConfig", () => {
  it("loads the file; --master overrides its server and keeps its credentials", () => {
    const path = join(dir, "kubeconfig");
    writeFileSync(path, file("https://a.example:6443"));
    expect(server({ ...scheduler, kubeconfig: path })).toBe("https://a.example:6443");
    const { kubeConfig, source } = resolveKubeConfig(
      { ...scheduler, kubeconfig: "kubeconfig", master: "https://b.example:6443" },
      bare(),
    );
    expect(source).toBe("kubeconfig");
    expect(kubeConfig.getCurrentCluster()?.server).toBe("https://b.example:6443");
    expect(kubeConfig.getCurrentUser()?.token).toBe("token-of-u");
  });

  it("allows plain HTTP servers (client-node needs skipTLSVerify for them)", () => {
    const path = join(dir, "kubeconfig");
    writeFileSync(path, file("http://127.0.0.1:8080"));
    const kc = (flags: KubeConfigFlags) => resolveKubeConfig(flags, bare()).kubeConfig.getCurrentCluster();
    expect(kc({ ...scheduler, kubeconfig: path })?.skipTLSVerify).toBe(true);
    expect(kc({ ...scheduler, master: "http://127.0.0.1:8080" })).toMatchObject({
      server: "http://127.0.0.1:8080",
      skipTLSVerify: true,
    });
    expect(kc({ ...scheduler, master: "https://x.example" })?.skipTLSVerify).toBe(false);
  });

  it("kube-scheduler's order: the pod's service account before $KUBECONFIG and ~/.kube/config", async () => {
    const env = { ...serviceAccount(), KUBECONFIG: join(dir, "kubeconfig"), HOME: dir };
    writeFileSync(join(dir, "kubeconfig"), file("https://k.example:6443"));
    const { kubeConfig, source } = resolveKubeConfig(scheduler, { env, inClusterRoot: dir });
    expect(source).toBe("the in-cluster service account");
    expect(kubeConfig.getCurrentCluster()).toMatchObject({
      server: "https://10.0.0.1:443",
      caFile: join(dir, serviceAccountDir, "ca.crt"),
    });
    const opts: { headers?: Record<string, string> } = { headers: {} };
    await kubeConfig.applyToHTTPSOptions(opts as never);
    expect(opts.headers?.Authorization).toBe("Bearer sa-token");
    // kubectl's order: the files first, the service account only when there are none.
    expect(server(kubectl, { env, inClusterRoot: dir, cwd: dir })).toBe("https://k.example:6443");
    expect(
      server(kubectl, { env: { ...env, KUBECONFIG: join(dir, "missing") }, inClusterRoot: dir, cwd: dir }),
    ).toBe("https://10.0.0.1:443");
  });

  it("$KUBECONFIG's files merged as kubectl does: first definition and first current-context win", () => {
    writeFileSync(join(dir, "a"), file("https://a.example", { context: "ctx-a", current: "" }));
    writeFileSync(join(dir, "b"), file("https://b.example", { cluster: "cb", user: "ub", context: "ctx-b" }));
    writeFileSync(join(dir, "c"), file("https://c.example", { context: "ctx-a", current: "ctx-a" }));
    // a's cluster c wins over c's; b's current-context is the first set; a missing file is skipped.
    const KUBECONFIG = ["a", "missing", "b", "c"].join(delimiter);
    const opts = { ...bare(), env: { KUBECONFIG, HOME: dir } };
    const { kubeConfig, source } = resolveKubeConfig(kubectl, opts);
    expect(source).toBe(`$KUBECONFIG (${KUBECONFIG})`);
    expect(kubeConfig.getCurrentCluster()?.server).toBe("https://b.example");
    expect(kubeConfig.getCurrentUser()?.token).toBe("token-of-ub");
    expect(
      resolveKubeConfig({ ...kubectl, context: "ctx-a" }, opts).kubeConfig.getCurrentCluster()?.server,
    ).toBe("https://a.example");
    expect(() => resolveKubeConfig({ ...kubectl, context: "nope" }, opts)).toThrow(
      `$KUBECONFIG (${KUBECONFIG}): no context named "nope"`,
    );
  });

  it("~/.kube/config when $KUBECONFIG is unset; --kubeconfig alone when given", () => {
    mkdirSync(join(dir, "home", ".kube"), { recursive: true });
    writeFileSync(join(dir, "home", ".kube", "config"), file("https://home.example"));
    writeFileSync(join(dir, "explicit"), file("https://explicit.example"));
    expect(resolveKubeConfig(kubectl, bare()).source).toBe(join(dir, "home", ".kube", "config"));
    expect(server(kubectl)).toBe("https://home.example");
    expect(server(scheduler)).toBe("https://home.example");
    expect(server({ ...kubectl, kubeconfig: "explicit" })).toBe("https://explicit.example");
  });

  it("fails at once with a clear error when there is nothing, or the file is unusable", () => {
    // KUBERNETES_SERVICE_HOST without a mounted token is not in-cluster.
    const none = {
      ...bare(),
      env: { ...bare().env, KUBERNETES_SERVICE_HOST: "10.0.0.1", KUBERNETES_SERVICE_PORT: "443" },
    };
    for (const flags of [scheduler, kubectl]) {
      expect(() => resolveKubeConfig(flags, none)).toThrow(KubeConfigError);
      expect(() => resolveKubeConfig(flags, none)).toThrow(
        /^no configuration has been provided: give --kubeconfig/,
      );
    }
    expect(() => resolveKubeConfig({ ...kubectl, kubeconfig: "missing" }, bare())).toThrow(
      "missing: no such file or directory",
    );
    writeFileSync(join(dir, "nocurrent"), file("https://a.example", { current: "" }));
    expect(() => resolveKubeConfig({ ...kubectl, kubeconfig: "nocurrent" }, bare())).toThrow(
      "nocurrent: the kubeconfig has no current cluster",
    );
  });
});
