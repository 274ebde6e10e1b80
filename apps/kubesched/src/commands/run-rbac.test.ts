// deploy/kubesched.yaml, checked by running it: `kubesched run` with the Deployment's arguments
// and the ConfigMap's KubeSchedulerConfiguration against the API-server emulator (leader election
// on its Lease, bindings, an unschedulable pod, a preemption, events with a series, the secure
// port's probes and a /metrics scrape), then every request the emulator recorded is checked
// against the RBAC the manifests bind to the Deployment's service account, with the built-in
// ClusterRoles from upstream's bootstrap policy (test-fixtures/rbac).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { FakeApiServer, type RecordedRequest, waitFor } from "@kubesched/kube/testing";
import { makeNode, makePod } from "@kubesched/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runCli } from "../cli";
import { defaultSecurePort } from "../serving/secure-serving";
import {
  container,
  containerArgs,
  manifests,
  one,
  podSpec,
  serviceAccount,
} from "./deploy-manifests.test-util";
import { describeRequest, type RBACObject, RBACPolicy } from "./rbac.test-util";
import { freePort, httpsStatus } from "./secure-port.test-util";

const bootstrap = (
  parse(
    readFileSync(
      join(dirname(fileURLToPath(import.meta.url)), "../../test-fixtures/rbac/bootstrap-cluster-roles.yaml"),
      "utf8",
    ),
  ) as { items: RBACObject[] }
).items;

let server: FakeApiServer;
let dir: string;

beforeEach(async () => {
  server = await FakeApiServer.start();
  dir = mkdtempSync(join(tmpdir(), "kubesched-run-rbac-"));
});

afterEach(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("deploy/kubesched.yaml", () => {
  it("runs kubesched as a second scheduler on its own Lease, with HTTPS probes on 10259", () => {
    const config = parse(one("ConfigMap").data["config.yaml"]);
    expect(config.profiles.map((p: { schedulerName: string }) => p.schedulerName)).toEqual(["kubesched"]);
    expect(config.leaderElection).toEqual({
      leaderElect: true,
      resourceName: "kubesched",
      resourceNamespace: "kube-system",
    });
    expect(container.args).toContain("run");
    expect(container.args.some((a: string) => a.startsWith("--secure-port"))).toBe(false);
    expect(defaultSecurePort).toBe(10259);
    expect(container.ports).toEqual([{ name: "https", containerPort: 10259 }]);
    expect(container.livenessProbe.httpGet).toEqual({ scheme: "HTTPS", path: "/healthz", port: 10259 });
    expect(container.readinessProbe.httpGet).toEqual({ scheme: "HTTPS", path: "/readyz", port: 10259 });
    expect(podSpec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 65532 });
    const bound = manifests
      .filter((m) => m.kind.endsWith("Binding"))
      .map((m) => `${m.kind} ${m.metadata.namespace ?? ""}/${m.roleRef.name}`);
    expect(bound).toEqual(
      expect.arrayContaining([
        "ClusterRoleBinding /system:kube-scheduler",
        "ClusterRoleBinding /system:volume-scheduler",
        "RoleBinding kube-system/extension-apiserver-authentication-reader",
      ]),
    );
  });

  it("grants every request `kubesched run` makes: informers, Lease, bindings, status, preemption, events, delegated auth", {
    timeout: 90_000,
  }, async () => {
    // The cluster: one node with a low-priority pod on it; kubesched's pending pods: one that
    // fits, one that fits only by preempting, one that never fits; a pod of another scheduler.
    server.put("Node", makeNode().name("n1").capacity({ cpu: "2", memory: "4Gi", pods: "110" }).obj());
    const pending = (name: string, cpu: string, priority = 0) =>
      makePod().name(name).namespace("default").schedulerName("kubesched").priority(priority).req({ cpu });
    server.put("Pod", pending("victim", "1").node("n1").obj());
    server.put("Pod", pending("web", "500m").obj());
    server.put("Pod", pending("vip", "1500m", 1000).obj());
    server.put("Pod", pending("huge", "64").obj());
    server.put("Pod", makePod().name("theirs").namespace("default").req({ cpu: "1" }).obj());

    // The Deployment's arguments with the ConfigMap where the test puts it, plus what a pod gets
    // from its service account (here: a kubeconfig) and a free port.
    writeFileSync(join(dir, "kubeconfig"), server.kubeConfigYAML());
    const port = await freePort();
    const args: string[] = [
      ...containerArgs(dir),
      "--kubeconfig",
      join(dir, "kubeconfig"),
      "--bind-address=127.0.0.1",
      `--secure-port=${port}`,
    ];
    let stderr = "";
    const code = runCli(args, { stdout: () => {}, stderr: (s) => (stderr += s), cwd: dir });
    const step = (what: string, cond: () => boolean | Promise<boolean>) =>
      waitFor(cond, 30_000, what).catch((e: Error) => {
        throw new Error(`${e.message}; stderr:\n${stderr}`);
      });

    await step("the Lease", () => server.get("Lease", "kube-system", "kubesched") !== undefined);
    await step("the bindings", () => server.bindings.get("default/web") === 1);
    await step("the preemption", () => server.bindings.get("default/vip") === 1);
    expect(server.get("Pod", "default", "victim")).toBeUndefined();
    await step("huge's status", () =>
      (server.get("Pod", "default", "huge")?.status?.conditions ?? []).some(
        (c: { type: string; status: string }) => c.type === "PodScheduled" && c.status === "False",
      ),
    );
    // Once its FailedScheduling Event exists, a node big enough but cordoned: huge is retried and
    // fails again. That Event gets a series (a PATCH) when the pod's resourceVersion is the one the
    // first Event named, else a second Event is created: which depends on when the informer saw
    // the status patch, so either is awaited.
    await step("huge's Event", () =>
      server.list("Event").some((e) => e.regarding?.name === "huge" && e.reason === "FailedScheduling"),
    );
    server.put("Node", makeNode().name("big").capacity({ cpu: "64", memory: "64Gi" }).unschedulable().obj());
    await step(
      "the event series",
      () =>
        server.requestsTo("PATCH", "/apis/events.k8s.io/").length > 0 ||
        server.list("Event").filter((e) => e.regarding?.name === "huge" && e.reason === "FailedScheduling")
          .length > 1,
    );

    for (const probe of [container.livenessProbe, container.readinessProbe]) {
      await step(`${probe.httpGet.path}`, async () => (await httpsStatus(port, probe.httpGet.path)) === 200);
    }
    server.addToken("prometheus-token", "system:serviceaccount:monitoring:prometheus");
    server.allow("system:serviceaccount:monitoring:prometheus", "/metrics");
    expect(await httpsStatus(port, "/metrics", "prometheus-token")).toBe(200);

    process.emit("SIGTERM");
    expect(await code).toBe(0);
    expect(server.get("Lease", "kube-system", "kubesched")?.spec.holderIdentity).toBe("");
    expect(server.bindings.has("default/theirs")).toBe(false);

    const policy = new RBACPolicy([...manifests, ...bootstrap], serviceAccount);
    const describe = (r: RecordedRequest) => describeRequest(r.info);
    const denied = new Set(server.requests.filter((r) => !policy.allowedBy(r.info)).map(describe));
    expect([...denied]).toEqual([]);
    const made = new Set(server.requests.map(describe));
    // The run made the requests this test is about (a series PATCH of events only when the pod's
    // resourceVersion did not move between its two failures: when made, it was checked above).
    expect([...made]).toEqual(
      expect.arrayContaining([
        "list core/pods",
        "watch core/pods",
        "list scheduling.k8s.io/priorityclasses",
        "list resource.k8s.io/resourceclaims",
        "watch resource.k8s.io/resourceclaims",
        "list resource.k8s.io/resourceclaimtemplates",
        "list resource.k8s.io/resourceslices",
        "watch resource.k8s.io/resourceslices",
        "list resource.k8s.io/deviceclasses",
        "watch resource.k8s.io/deviceclasses",
        "list resource.k8s.io/devicetaintrules",
        "watch resource.k8s.io/devicetaintrules",
        "get coordination.k8s.io/leases in kube-system named kubesched",
        "create coordination.k8s.io/leases in kube-system",
        "update coordination.k8s.io/leases in kube-system named kubesched",
        "create core/pods/binding in default named web",
        "patch core/pods/status in default named huge",
        "delete core/pods in default named victim",
        "create events.k8s.io/events in default",
        "create authentication.k8s.io/tokenreviews",
        "create authorization.k8s.io/subjectaccessreviews",
      ]),
    );
  });

  it("needs its own ClusterRole and Lease Role: the built-in roles alone deny PriorityClasses, ResourceClaimTemplates and the kubesched Lease", () => {
    const builtInOnly = new RBACPolicy(
      [...manifests.filter((m) => !m.roleRef?.name.startsWith("kubesched")), ...bootstrap],
      serviceAccount,
    );
    const full = new RBACPolicy([...manifests, ...bootstrap], serviceAccount);
    const info = (verb: string, apiGroup: string, resource: string, namespace = "", name = "") => ({
      isResourceRequest: true,
      path: "",
      verb,
      apiGroup,
      apiVersion: "v1",
      resource,
      subresource: "",
      namespace,
      name,
    });
    const cases = [
      info("watch", "scheduling.k8s.io", "priorityclasses"),
      info("watch", "resource.k8s.io", "resourceclaimtemplates"),
      info("watch", "resource.k8s.io", "devicetaintrules"),
      info("update", "coordination.k8s.io", "leases", "kube-system", "kubesched"),
    ];
    for (const r of cases) {
      expect(builtInOnly.allowedBy(r), describeRequest(r)).toBeNull();
      expect(full.allowedBy(r), describeRequest(r)).not.toBeNull();
    }
    // The Lease Role is for kubesched's Lease, in kube-system only.
    expect(
      full.allowedBy(info("update", "coordination.k8s.io", "leases", "default", "kubesched")),
    ).toBeNull();
    expect(
      full.allowedBy(info("update", "coordination.k8s.io", "leases", "kube-system", "other")),
    ).toBeNull();
  });
});
