// The resourceclaim controller's table, ported from upstream's TestSyncHandler
// (pkg/controller/resourceclaim/controller_test.go at 003e86297d18): the cases of a pod's sync
// (create, nop, recreate, missing-template, ...) and of a claim's after its pod is deleted
// (clear-reserved-structured, ...). Names, uids and inputs are upstream's; the generated name's
// 5 characters are ours (upstream's fake client appends "-1").
import type { Pod, ResourceClaim, ResourceClaimTemplate } from "@kubesched/api";
import { loadConfig } from "@kubesched/config";
import { ManualClock } from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { admit } from "./admission";
import { InMemoryCluster } from "./in-memory-cluster";
import { loadSnapshotTexts } from "./load";
import {
  claimGenerateName,
  ResourceClaimController,
  syncPodResourceClaims,
} from "./resourceclaim-controller";
import { openSimulation, simulate } from "./simulate";
import { generatedName } from "./workloads";

const testPodName = "test-pod";
const testNamespace = "my-namespace";
const testPodUID = "uidpod1";
const otherNamespace = "not-my-namespace";
const podResourceClaimName = "acme-resource";
const templateName = "my-template";
const className = "my-resource-class";

function makePod(name: string, uid: string, claims: NonNullable<Pod["spec"]>["resourceClaims"] = []): Pod {
  return {
    metadata: { name, namespace: testNamespace, uid },
    spec: { containers: [], ...(claims.length ? { resourceClaims: claims } : {}) },
  };
}
const ownerRef = (pod: Pod) => ({
  apiVersion: "v1",
  kind: "Pod",
  name: pod.metadata?.name ?? "",
  uid: pod.metadata?.uid ?? "",
  controller: true,
  blockOwnerDeletion: true,
});
function makeClaim(name: string, namespace: string, owner?: Pod): ResourceClaim {
  return {
    apiVersion: "resource.k8s.io/v1",
    kind: "ResourceClaim",
    metadata: { name, namespace, ...(owner ? { ownerReferences: [ownerRef(owner)] } : {}) },
  };
}

const testPod = makePod(testPodName, testPodUID);
const testPodWithResource = makePod(testPodName, testPodUID, [
  { name: podResourceClaimName, resourceClaimTemplateName: templateName },
]);
const generatedClaimName = generatedName(`${testPodName}-${podResourceClaimName}-`, testPodUID, 0);
const template: ResourceClaimTemplate = {
  apiVersion: "resource.k8s.io/v1",
  kind: "ResourceClaimTemplate",
  metadata: { name: templateName, namespace: testNamespace },
  spec: { spec: { devices: { requests: [{ name: "req-0", exactly: { deviceClassName: className } }] } } },
};
/** upstream makeGeneratedClaim, with the template's spec our template carries. */
const generatedTestClaim: ResourceClaim = {
  apiVersion: "resource.k8s.io/v1",
  kind: "ResourceClaim",
  metadata: {
    name: generatedClaimName,
    generateName: `${testPodName}-${podResourceClaimName}-`,
    namespace: testNamespace,
    uid: `${testNamespace}/${generatedClaimName}`,
    creationTimestamp: "2026-01-01T00:00:00Z",
    ownerReferences: [ownerRef(testPodWithResource)],
    annotations: { "resource.kubernetes.io/pod-claim-name": podResourceClaimName },
  },
  spec: template.spec?.spec,
};
const conflictingClaim = makeClaim(`${testPodName}-${podResourceClaimName}`, testNamespace);
const otherNamespaceClaim = makeClaim(`${testPodName}-${podResourceClaimName}`, otherNamespace);
const withStatus = (pod: Pod, claimName: string): Pod => ({
  ...pod,
  status: { resourceClaimStatuses: [{ name: podResourceClaimName, resourceClaimName: claimName }] },
});
const expectedStatuses = [{ name: podResourceClaimName, resourceClaimName: generatedClaimName }];

function cluster(claims: ResourceClaim[] = [], templates: ResourceClaimTemplate[] = []): InMemoryCluster {
  const c = new InMemoryCluster(new ManualClock(Date.UTC(2026, 0, 1)));
  for (const t of templates) c.apply("ResourceClaimTemplate", t);
  for (const cl of claims) c.apply("ResourceClaim", cl);
  return c;
}
/** The claims as stored, without the store's resourceVersion, sorted as upstream's normalizeClaims. */
function claimsOf(c: InMemoryCluster): ResourceClaim[] {
  return c.resourceClaims
    .list()
    .map(({ metadata, ...rest }) => {
      const { resourceVersion: _, ...md } = metadata ?? {};
      return { ...rest, metadata: md };
    })
    .sort((a, b) =>
      `${a.metadata.namespace}/${a.metadata.name}` < `${b.metadata.namespace}/${b.metadata.name}` ? -1 : 1,
    );
}

describe("TestSyncHandler (pod sync)", () => {
  it("create", () => {
    const c = cluster([], [template]);
    const r = syncPodResourceClaims(c, testPodWithResource);
    expect(r.error).toBeUndefined();
    expect(claimsOf(c)).toEqual([generatedTestClaim]);
    expect(r.pod.status?.resourceClaimStatuses).toEqual(expectedStatuses);
  });

  it("nop", () => {
    const c = cluster([generatedTestClaim], [template]);
    const pod = withStatus(testPodWithResource, generatedClaimName);
    const r = syncPodResourceClaims(c, pod);
    expect(r).toEqual({ pod });
    expect(claimsOf(c)).toEqual([generatedTestClaim]);
  });

  it("recreate", () => {
    const c = cluster([], [template]);
    const r = syncPodResourceClaims(c, withStatus(testPodWithResource, generatedClaimName));
    expect(claimsOf(c)).toEqual([generatedTestClaim]);
    expect(r.pod.status?.resourceClaimStatuses).toEqual(expectedStatuses);
  });

  it("missing-template", () => {
    const c = cluster();
    const r = syncPodResourceClaims(c, testPodWithResource);
    expect(r.error).toBe(
      `pod my-namespace/test-pod, PodResourceClaim acme-resource: resource claim template "my-template": resourceclaimtemplate.resource.k8s.io "my-template" not found`,
    );
    expect(r.pod).toBe(testPodWithResource);
    expect(claimsOf(c)).toEqual([]);
    expect(c.events).toEqual([
      expect.objectContaining({
        type: "Warning",
        reason: "FailedResourceClaimCreation",
        regarding: "my-namespace/test-pod",
        note: `PodResourceClaim acme-resource: resource claim template "my-template": resourceclaimtemplate.resource.k8s.io "my-template" not found`,
      }),
    ]);
  });

  it("find-existing-claim-by-label", () => {
    const c = cluster([generatedTestClaim]);
    const r = syncPodResourceClaims(c, testPodWithResource);
    expect(claimsOf(c)).toEqual([generatedTestClaim]);
    expect(r.pod.status?.resourceClaimStatuses).toEqual(expectedStatuses);
  });

  it("pod-deleted", () => {
    const c = cluster([], [template]);
    const pod: Pod = {
      ...testPodWithResource,
      metadata: { ...testPodWithResource.metadata, deletionTimestamp: "2026-01-01T00:00:00Z" },
    };
    expect(syncPodResourceClaims(c, pod)).toEqual({ pod });
    expect(claimsOf(c)).toEqual([]);
  });

  it("no-volumes", () => {
    const c = cluster([], [template]);
    expect(syncPodResourceClaims(c, testPod)).toEqual({ pod: testPod });
    expect(claimsOf(c)).toEqual([]);
  });

  it("create-with-other-claim", () => {
    const c = cluster([otherNamespaceClaim], [template]);
    const r = syncPodResourceClaims(c, testPodWithResource);
    expect(claimsOf(c)).toEqual([generatedTestClaim, otherNamespaceClaim]);
    expect(r.pod.status?.resourceClaimStatuses).toEqual(expectedStatuses);
  });

  it("wrong-claim-owner", () => {
    const c = cluster([conflictingClaim]);
    const r = syncPodResourceClaims(c, testPodWithResource);
    expect(r.error).toMatch(/resource claim template "my-template"/);
    expect(claimsOf(c)).toEqual([conflictingClaim]);
  });

  // upstream create-conflict: the API server refuses the generated name. Ours: a name taken by
  // another object is skipped, as the controller's retry with new random characters would.
  it("a generated name already taken is not reused", () => {
    const taken = makeClaim(generatedClaimName, testNamespace);
    const c = cluster([taken], [template]);
    const r = syncPodResourceClaims(c, testPodWithResource);
    const name = generatedName(`${testPodName}-${podResourceClaimName}-`, testPodUID, 1);
    expect(r.pod.status?.resourceClaimStatuses).toEqual([
      { name: podResourceClaimName, resourceClaimName: name },
    ]);
    expect(claimsOf(c).map((x) => x.metadata?.name)).toEqual([name, generatedClaimName].sort());
  });

  it("labels and annotations of the template's metadata are copied; the pod-claim annotation is added", () => {
    const labelled: ResourceClaimTemplate = {
      ...template,
      spec: { ...template.spec, metadata: { labels: { team: "ml" }, annotations: { note: "x" } } },
    };
    const c = cluster([], [labelled]);
    syncPodResourceClaims(c, testPodWithResource);
    expect(claimsOf(c)[0]?.metadata).toMatchObject({
      labels: { team: "ml" },
      annotations: { note: "x", "resource.kubernetes.io/pod-claim-name": podResourceClaimName },
    });
  });
});

describe("generateName of a claim", () => {
  it("is <pod>-<claim>- up to 57 characters", () => {
    expect(claimGenerateName("test-pod", "acme-resource")).toBe("test-pod-acme-resource-");
  });
  it("cuts both names in proportion beyond 57 characters, as upstream (no trailing hyphen)", () => {
    const pod = "p".repeat(60);
    const claim = "c".repeat(20);
    // len("<pod>-<claim>-") = 82: pod 60*57/82 = 41, claim 20*57/82 = 13.
    expect(claimGenerateName(pod, claim)).toBe(`${"p".repeat(41)}-${"c".repeat(13)}`);
  });
});

describe("TestSyncHandler (claims of a deleted pod)", () => {
  const reserved = (claim: ResourceClaim, ...pods: Pod[]): ResourceClaim => ({
    ...claim,
    status: {
      ...claim.status,
      reservedFor: [
        ...(claim.status?.reservedFor ?? []),
        ...pods.map((p) => ({ resource: "pods", name: p.metadata?.name ?? "", uid: p.metadata?.uid ?? "" })),
      ],
    },
  });
  const allocated = (claim: ResourceClaim): ResourceClaim => ({ ...claim, status: { allocation: {} } });
  // upstream structuredParameters: the scheduler's finalizer marks a claim it allocated.
  const structured = (claim: ResourceClaim): ResourceClaim => ({
    ...claim,
    metadata: { ...claim.metadata, finalizers: ["resource.kubernetes.io/delete-protection"] },
  });
  const otherTestPod = makePod(`${testPodName}-II`, `${testPodUID}-II`, [
    { name: podResourceClaimName, resourceClaimName: "shared" },
  ]);
  const sharedClaim = makeClaim("shared", testNamespace);
  const podUsingShared = makePod(testPodName, testPodUID, [
    { name: podResourceClaimName, resourceClaimName: "shared" },
  ]);

  function deleteAfterRunning(c: InMemoryCluster, pod: Pod): void {
    new ResourceClaimController(c, recordingLogger());
    const running: Pod = { ...pod, spec: { ...pod.spec, containers: [], nodeName: "worker" } };
    c.apply("Pod", running);
    c.delete("Pod", pod);
  }

  it("clear-reserved-structured", () => {
    const c = cluster([structured(reserved(allocated(sharedClaim), podUsingShared))]);
    deleteAfterRunning(c, podUsingShared);
    expect(claimsOf(c)).toEqual([
      { ...sharedClaim, metadata: { ...sharedClaim.metadata, finalizers: [] }, status: {} },
    ]);
  });

  it("dont-clear-reserved-structured", () => {
    const c = cluster([structured(reserved(allocated(sharedClaim), podUsingShared, otherTestPod))]);
    deleteAfterRunning(c, podUsingShared);
    expect(claimsOf(c)).toEqual([structured(reserved(allocated(sharedClaim), otherTestPod))]);
  });

  it("remove-reserved (a claim the scheduler did not allocate stays allocated)", () => {
    const c = cluster([reserved(allocated(sharedClaim), podUsingShared, otherTestPod)]);
    deleteAfterRunning(c, podUsingShared);
    expect(claimsOf(c)).toEqual([reserved(allocated(sharedClaim), otherTestPod)]);
  });

  it("delete-claim-when-done: the claims generated for the pod go with it", () => {
    const c = cluster([
      structured(reserved(allocated(generatedTestClaim), testPodWithResource)),
      sharedClaim,
    ]);
    deleteAfterRunning(c, withStatus(testPodWithResource, generatedClaimName));
    expect(claimsOf(c)).toEqual([sharedClaim]);
  });

  it("the claim the scheduler created for the pod's extended resources goes with it (DRAExtendedResource)", () => {
    const pod = makePod(testPodName, testPodUID);
    const owned = makeClaim(`${testPodName}-extended-resources-x7k2p`, testNamespace, pod);
    const extended: ResourceClaim = {
      ...owned,
      metadata: {
        ...owned.metadata,
        annotations: { "resource.kubernetes.io/extended-resource-claim": "true" },
      },
    };
    const c = cluster([structured(reserved(allocated(extended), pod)), sharedClaim]);
    deleteAfterRunning(c, {
      ...pod,
      status: {
        extendedResourceClaimStatus: {
          resourceClaimName: extended.metadata?.name ?? "",
          requestMappings: [
            { containerName: "c", resourceName: "example.com/gpu", requestName: "container-0-request-0" },
          ],
        },
      },
    });
    expect(claimsOf(c)).toEqual([sharedClaim]);
  });
});

describe("the controller in simulate()", () => {
  const snapshot = `apiVersion: v1
kind: Node
metadata: { name: n1 }
status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: { name: gpu.example.com }
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: { name: one-gpu, namespace: ml }
spec:
  metadata: { labels: { team: ml } }
  spec: { devices: { requests: [{ name: gpu, exactly: { deviceClassName: gpu.example.com } }] } }
---
apiVersion: v1
kind: Pod
metadata: { name: train, namespace: ml }
spec:
  resourceClaims: [{ name: gpu, resourceClaimTemplateName: one-gpu }]
  containers: [{ name: c, image: i, resources: { claims: [{ name: gpu }] } }]
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: infer, namespace: ml, uid: infer-uid }
spec:
  replicas: 2
  selector: { matchLabels: { app: infer } }
  template:
    metadata: { labels: { app: infer } }
    spec:
      resourceClaims: [{ name: gpu, resourceClaimTemplateName: one-gpu }]
      containers: [{ name: c, image: i }]
`;

  async function session(text: string, seed = 0) {
    const logger = recordingLogger();
    const config = loadConfig(
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n",
      {
        registry: inTreeRegistry,
      },
    );
    const { session, pending } = await openSimulation(
      { config, registry: inTreeRegistry, logger, seed },
      admit(loadSnapshotTexts([{ name: "c.yaml", text }]).objects),
    );
    for (const p of pending) session.addPending(p);
    await session.drain();
    session.sched.close();
    return { cluster: session.cluster, logger, pending };
  }

  it("a pending pod and a workload's pods get their claims, named the same for every seed", async () => {
    const { cluster, pending } = await session(snapshot);
    const pods = pending.map((p) => cluster.pods.get("ml", p.metadata?.name ?? "") as Pod);
    const claims = cluster.resourceClaims.list();
    expect(claims).toHaveLength(3);
    for (const pod of pods) {
      const name = pod.status?.resourceClaimStatuses?.[0]?.resourceClaimName ?? "";
      expect(name).toBe(generatedName(`${pod.metadata?.name}-gpu-`, `ml/${pod.metadata?.name}`, 0));
      expect(cluster.resourceClaims.get("ml", name)).toMatchObject({
        metadata: {
          labels: { team: "ml" },
          annotations: { "resource.kubernetes.io/pod-claim-name": "gpu" },
          ownerReferences: [
            { kind: "Pod", name: pod.metadata?.name, uid: `ml/${pod.metadata?.name}`, controller: true },
          ],
        },
        spec: { devices: { requests: [{ name: "gpu", exactly: { deviceClassName: "gpu.example.com" } }] } },
      });
    }
    const again = await session(snapshot, 7);
    expect(again.cluster.resourceClaims.list().map((c) => c.metadata?.name)).toEqual(
      claims.map((c) => c.metadata?.name),
    );
  });

  it("missing-template: the pod stays pending with the scheduler's reason; the controller's failure is logged", async () => {
    const { cluster, logger } = await session(
      snapshot.replace(
        "resourceClaimTemplateName: one-gpu }]\n  containers",
        "resourceClaimTemplateName: none }]\n  containers",
      ),
    );
    expect(cluster.pods.get("ml", "train")?.status?.resourceClaimStatuses).toBeUndefined();
    expect(logger.entries.filter((e) => e.level === "warn").map((e) => e.msg)).toEqual([
      `pod ml/train, PodResourceClaim gpu: resource claim template "none": resourceclaimtemplate.resource.k8s.io "none" not found`,
    ]);
    const result = await simulate({
      config: loadConfig("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n", {
        registry: inTreeRegistry,
      }),
      registry: inTreeRegistry,
      logger: recordingLogger(),
      objects: loadSnapshotTexts([
        {
          name: "c.yaml",
          text: snapshot.replace(
            "resourceClaimTemplateName: one-gpu }]\n  containers",
            "resourceClaimTemplateName: none }]\n  containers",
          ),
        },
      ]).objects,
    });
    expect(result.pods[0]).toMatchObject({
      name: "train",
      outcome: "Gated",
      message: 'pod "ml/train": ResourceClaim not created yet',
    });
  });

  it("a pod deleted (capacity's replica that did not fit) takes its generated claim with it", async () => {
    const { cluster } = await session(snapshot);
    const pod = cluster.pods.get("ml", "train") as Pod;
    const claim = pod.status?.resourceClaimStatuses?.[0]?.resourceClaimName ?? "";
    expect(cluster.resourceClaims.get("ml", claim)).toBeDefined();
    cluster.delete("Pod", pod);
    expect(cluster.resourceClaims.get("ml", claim)).toBeUndefined();
  });
});

describe("the controller's cost per pod event", () => {
  it("finds a pod's claims through an index, without listing every claim (creates and deletes stay linear)", () => {
    const c = cluster([sharedClaim0(), otherNamespaceClaim], [template]);
    const controller = new ResourceClaimController(c, recordingLogger());
    let listed = 0;
    const list = c.resourceClaims.list.bind(c.resourceClaims);
    c.resourceClaims.list = (ns?: string) => {
      listed++;
      return list(ns);
    };
    const pods = Array.from({ length: 20 }, (_, i) =>
      makePod(`p${i}`, `uid-${i}`, [{ name: podResourceClaimName, resourceClaimTemplateName: templateName }]),
    );
    for (const p of pods) {
      const running: Pod = {
        ...controller.podCreated(p),
        spec: { containers: [], ...p.spec, nodeName: "n" },
      };
      c.apply("Pod", running);
    }
    // Each pod's generated claim, reserved for it (as PreBind writes it), is found and released.
    for (const p of pods) {
      const name = c.pods.get(testNamespace, p.metadata?.name ?? "")?.status?.resourceClaimStatuses?.[0]
        ?.resourceClaimName;
      const claim = c.resourceClaims.get(testNamespace, name ?? "") as ResourceClaim;
      const reserved: ResourceClaim = {
        ...claim,
        status: {
          reservedFor: [{ resource: "pods", name: p.metadata?.name ?? "", uid: p.metadata?.uid ?? "" }],
        },
      };
      c.apply("ResourceClaim", reserved);
    }
    expect(c.resourceClaims.size).toBe(22);
    for (const p of pods) c.delete("Pod", c.pods.get(testNamespace, p.metadata?.name ?? "") as Pod);
    expect(listed).toBe(0);
    expect(claimsOf(c).map((x) => x.metadata?.name)).toEqual(["shared", otherNamespaceClaim.metadata?.name]);
  });

  it("a claim owned by a pod of the same uid in another namespace is left alone (the index spans namespaces)", () => {
    const owner = makePod(testPodName, testPodUID);
    const elsewhere = makeClaim("elsewhere", otherNamespace, owner);
    const mine = makeClaim("mine", testNamespace, owner);
    const c = cluster([elsewhere, mine]);
    new ResourceClaimController(c, recordingLogger());
    const running: Pod = {
      ...owner,
      spec: { containers: [], nodeName: "n" },
      status: { extendedResourceClaimStatus: { resourceClaimName: "mine", requestMappings: [] } },
    };
    c.apply("Pod", running);
    c.delete("Pod", running);
    expect(claimsOf(c).map((x) => `${x.metadata?.namespace}/${x.metadata?.name}`)).toEqual([
      `${otherNamespace}/elsewhere`,
    ]);
  });
});

function sharedClaim0(): ResourceClaim {
  return makeClaim("shared", testNamespace);
}
