import { Code, Status } from "@kubesched/framework";
import { describe, expect, it } from "vitest";
import {
  makeNode,
  makePDB,
  makePod,
  makePV,
  NodeSelectorTypeMatchFields,
  PauseImage,
  PodAffinityWithRequiredPreferredReq,
  PodAntiAffinityWithRequiredReq,
} from "./builders";
import { statusSummary } from "./status-summary";

describe("makePod", () => {
  it("builds a pod with upstream's container naming and a deterministic uid", () => {
    const pod = makePod()
      .name("p")
      .namespace("ns")
      .label("app", "web")
      .priority(10)
      .req({ cpu: "1", memory: "1Gi" })
      .container("nginx")
      .node("n1")
      .obj();
    expect(pod.metadata?.uid).toBe("ns/p");
    expect(pod.metadata?.labels).toEqual({ app: "web" });
    expect(pod.spec?.priority).toBe(10);
    expect(pod.spec?.nodeName).toBe("n1");
    expect(pod.spec?.containers).toEqual([
      { name: "con0", image: PauseImage, resources: { requests: { cpu: "1", memory: "1Gi" } } },
      { name: "con1", image: "nginx" },
    ]);
  });

  it("keeps an explicit uid and returns independent copies", () => {
    const b = makePod().name("p").uid("u1");
    const a = b.obj();
    a.metadata!.name = "changed";
    expect(b.obj().metadata).toEqual({ name: "p", uid: "u1" });
  });

  it("skips empty resource maps, adds init containers and sidecars", () => {
    const pod = makePod().req({}).initReq({ cpu: "1" }).sidecarReq({ cpu: "2" }).obj();
    expect(pod.spec?.containers).toEqual([]);
    expect(pod.spec?.initContainers?.map((c) => [c.name, c.restartPolicy])).toEqual([
      ["init-con0", undefined],
      ["sidecar-con1", "Always"],
    ]);
    expect(pod.spec?.initContainers?.[0]?.resources).toEqual({
      requests: { cpu: "1" },
      limits: { cpu: "1" },
    });
  });

  it("builds node affinity, pod (anti-)affinity and spread constraints", () => {
    const pod = makePod()
      .nodeAffinityIn("metadata.name", ["n1"], NodeSelectorTypeMatchFields)
      .podAffinityExists("foo", "zone", PodAffinityWithRequiredPreferredReq)
      .podAntiAffinityIn("app", "hostname", ["a"], PodAntiAffinityWithRequiredReq)
      .podAffinityIn("x", "zone", ["y"], PodAntiAffinityWithRequiredReq)
      .spreadConstraint(1, "zone", "DoNotSchedule", { matchLabels: { a: "b" } }, 2)
      .obj();
    const aff = pod.spec?.affinity;
    expect(aff?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution).toEqual({
      nodeSelectorTerms: [{ matchFields: [{ key: "metadata.name", operator: "In", values: ["n1"] }] }],
    });
    expect(aff?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution).toEqual([
      { topologyKey: "zone", labelSelector: { matchExpressions: [{ key: "foo", operator: "Exists" }] } },
    ]);
    expect(aff?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.[0]?.weight).toBe(1);
    expect(aff?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution).toEqual([
      {
        topologyKey: "hostname",
        labelSelector: { matchExpressions: [{ key: "app", operator: "In", values: ["a"] }] },
      },
    ]);
    expect(pod.spec?.topologySpreadConstraints).toEqual([
      {
        maxSkew: 1,
        topologyKey: "zone",
        whenUnsatisfiable: "DoNotSchedule",
        labelSelector: { matchLabels: { a: "b" } },
        minDomains: 2,
      },
    ]);
  });

  it("accepts direction shorthands for pod affinity kinds", () => {
    const pod = makePod()
      .podAntiAffinity("zone", null, "preferred", { weight: 5, namespaces: ["a"] })
      .obj();
    expect(pod.spec?.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution).toEqual([
      { weight: 5, podAffinityTerm: { topologyKey: "zone", namespaces: ["a"] } },
    ]);
  });

  it("adds init containers and sidecars by image", () => {
    const pod = makePod().initContainer("busybox").sidecar("envoy").containerImage("nginx").obj();
    expect(pod.spec?.initContainers).toEqual([
      { name: "init-con0", image: "busybox" },
      { name: "sidecar-con1", image: "envoy", restartPolicy: "Always" },
    ]);
    expect(pod.spec?.containers).toEqual([{ name: "con0", image: "nginx" }]);
  });

  it("adds host ports in a container named container", () => {
    const pod = makePod().hostPort(8080, { protocol: "UDP", hostIP: "1.2.3.4" }).obj();
    expect(pod.spec?.containers).toEqual([
      {
        name: "container",
        image: "pause",
        ports: [{ hostPort: 8080, containerPort: 0, protocol: "UDP", hostIP: "1.2.3.4" }],
      },
    ]);
  });
});

describe("makeNode", () => {
  it("defaults to 32 pods and sets capacity and allocatable together", () => {
    expect(makeNode().name("n").obj().status).toEqual({
      capacity: { pods: "32" },
      allocatable: { pods: "32" },
    });
    const n = makeNode().name("n").capacity({ cpu: "4" }).label("zone", "a").obj();
    expect(n.status?.allocatable).toEqual({ pods: "32", cpu: "4" });
    expect(n.metadata?.labels).toEqual({ zone: "a" });
  });

  it("sets images, taints and unschedulable", () => {
    const n = makeNode()
      .images({ "a:1": 10 })
      .taints([{ key: "k", effect: "NoSchedule" }])
      .unschedulable(true)
      .obj();
    expect(n.status?.images).toEqual([{ names: ["a:1"], sizeBytes: 10 }]);
    expect(n.spec).toEqual({ taints: [{ key: "k", effect: "NoSchedule" }], unschedulable: true });
  });
});

describe("other builders", () => {
  it("builds PDBs and PVs", () => {
    const pdb = makePDB().name("pdb").namespace("ns").matchLabel("a", "b").disruptionsAllowed(1).obj();
    expect(pdb.spec?.selector).toEqual({ matchLabels: { a: "b" } });
    expect(pdb.status?.disruptionsAllowed).toBe(1);
    const pv = makePV().name("pv").nodeAffinityIn("zone", ["a"]).obj();
    expect(pv.spec?.nodeAffinity?.required?.nodeSelectorTerms).toHaveLength(1);
  });
});

describe("statusSummary", () => {
  it("summarizes null as Success and keeps error messages first", () => {
    expect(statusSummary(null)).toEqual({ code: "Success", reasons: [] });
    const s = new Status(Code.Unschedulable, "a", "b").withPlugin("P");
    expect(statusSummary(s)).toEqual({ code: "Unschedulable", reasons: ["a", "b"] });
    expect(statusSummary(new Status(Code.Error).withError(new Error("boom")))).toEqual({
      code: "Error",
      reasons: ["boom"],
    });
  });
});
