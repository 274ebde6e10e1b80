// Device-aware preemption (DRAPreemption, KEP-5690) through the assembled scheduler: simulate()
// with the default profile. Cases after upstream's test/integration/dra preemption tests
// (kubernetes/kubernetes@04f5fdea: testDirectClaimPreemption, testPreemptionDisabled,
// testTemplatePreemption, testPriorityAwarePreemption, testPartitionableDevicesPreemption,
// testConsumableCapacityPreemption), with the simulator's resourceclaim controller releasing the
// victims' claims as kube-controller-manager's does.
import type { ResourceClaim } from "@kubesched/api";
import { type KubeSchedulerConfiguration, loadConfig } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { admit } from "./admission";
import { loadSnapshotTexts } from "./load";
import { openSimulation, simulate } from "./simulate";

const config: KubeSchedulerConfiguration = loadConfig(
  "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n",
  { registry: inTreeRegistry },
);

const header = `apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: { name: gpu.example.com }
spec:
  selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }]
---
apiVersion: v1
kind: Node
metadata: { name: worker-0, labels: { kubernetes.io/hostname: worker-0 } }
status: { allocatable: { cpu: "16", memory: 64Gi, pods: "110" } }
---
`;

/** A slice on worker-0 with the given device entries (YAML flow mappings). */
const slice = (...devices: string[]) => `apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: { name: worker-0-gpus }
spec:
  driver: gpu.example.com
  nodeName: worker-0
  pool: { name: worker-0, generation: 1, resourceSliceCount: 1 }
  devices:
${devices.map((d) => `    - ${d}`).join("\n")}
---
`;

const gpus = (n: number) =>
  slice(
    ...Array.from({ length: n }, (_, i) => `{ name: gpu-${i}, attributes: { name: { string: gpu-${i} } } }`),
  );

/** A claim for one GPU; `selector` picks a device by name; `capacity` requests consumable capacity. */
const claim = (name: string, o: { selector?: string; capacity?: string; status?: string } = {}) => {
  const exactly = [
    "deviceClassName: gpu.example.com",
    ...(o.selector
      ? [
          `selectors: [{ cel: { expression: 'device.attributes["gpu.example.com"].name == "${o.selector}"' } }]`,
        ]
      : []),
    ...(o.capacity ? [`capacity: { requests: { cores: "${o.capacity}" } }`] : []),
  ].join(", ");
  return `apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: { name: ${name}, namespace: default, uid: claim-${name}${o.status ? ", finalizers: [resource.kubernetes.io/delete-protection]" : ""} }
spec:
  devices:
    requests: [{ name: gpu, exactly: { ${exactly} } }]
${o.status ? `status:\n${o.status}` : ""}
---
`;
};

/** The status of a claim the scheduler allocated to `device` and reserved for `pods`. */
const allocatedTo = (device: string, pods: string[], share = "") =>
  `  allocation:
    devices:
      results: [{ request: gpu, driver: gpu.example.com, pool: worker-0, device: ${device}${share} }]
    nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: metadata.name, operator: In, values: [worker-0] }] }] }
  reservedFor: [${pods.map((p) => `{ resource: pods, name: ${p}, uid: pod-${p} }`).join(", ")}]
`;

/** A pod of `priority` using `claimName` (running on worker-0 when `running`). */
const pod = (name: string, priority: number, claimName: string, running = false) => `apiVersion: v1
kind: Pod
metadata: { name: ${name}, namespace: default, uid: pod-${name} }
spec:
  priority: ${priority}
  ${running ? "nodeName: worker-0" : ""}
  containers: [{ name: c, image: i, resources: { requests: { cpu: "1" }, claims: [{ name: gpu }] } }]
  resourceClaims: [{ name: gpu, resourceClaimName: ${claimName} }]
---
`;

async function run(
  text: string,
  features: { enableDRAPreemption: boolean; enableAsyncPreemption?: boolean },
) {
  const { session, pending } = await openSimulation(
    { config, registry: inTreeRegistry, logger: recordingLogger(), features },
    admit(loadSnapshotTexts([{ name: "dra-preemption.yaml", text }]).objects),
  );
  for (const p of pending) session.addPending(p);
  await session.drain();
  session.sched.close();
  const claims = session.cluster.resourceClaims.list() as ResourceClaim[];
  const byName = Object.fromEntries(claims.map((c) => [c.metadata?.name ?? "", c]));
  const exclusive = claims.flatMap((c) =>
    (c.status?.allocation?.devices?.results ?? [])
      .filter((d) => !d.shareID)
      .map((d) => `${d.pool}/${d.device}`),
  );
  // No device is ever allocated to two claims (shares of a multi-allocation device aside).
  expect(new Set(exclusive).size).toBe(exclusive.length);
  const podOf = (n: string) => session.cluster.pods.get("default", n);
  return { claims: byName, podOf };
}

const on = { enableDRAPreemption: true };
const off = { enableDRAPreemption: false };

describe("device-aware preemption in simulate (DRAPreemption)", () => {
  // A priority-10 GPU pod and the priority-0 pod holding the only GPU.
  const direct = `${header}${gpus(1)}${claim("victim", { status: allocatedTo("gpu-0", ["victim"]) })}${pod("victim", 0, "victim", true)}${claim("preemptor")}${pod("preemptor", 10, "preemptor")}`;

  it("direct-claim-preemption: the victim is preempted, its claim released, the preemptor gets the GPU", async () => {
    const r = await run(direct, on);
    expect(r.podOf("victim")).toBeUndefined();
    expect(r.podOf("preemptor")?.spec?.nodeName).toBe("worker-0");
    // Deallocated and reservedFor cleared by the resourceclaim controller, as upstream.
    expect(r.claims.victim?.status?.allocation).toBeUndefined();
    expect(r.claims.victim?.status?.reservedFor).toBeUndefined();
    expect(r.claims.preemptor?.status?.allocation?.devices?.results?.map((d) => d.device)).toEqual(["gpu-0"]);
    expect(r.claims.preemptor?.status?.reservedFor?.map((x) => x.name)).toEqual(["preemptor"]);
  });

  it("preemption-disabled: without the gate the preemptor stays unschedulable and the victim runs", async () => {
    const { session, pending } = await openSimulation(
      { config, registry: inTreeRegistry, logger: recordingLogger(), features: off },
      admit(loadSnapshotTexts([{ name: "dra-preemption.yaml", text: direct }]).objects),
    );
    for (const p of pending) session.addPending(p);
    await session.drain();
    session.sched.close();
    expect(session.cluster.pods.get("default", "victim")?.spec?.nodeName).toBe("worker-0");
    expect(session.cluster.pods.get("default", "preemptor")?.spec?.nodeName).toBeUndefined();
  });

  it("a shared claim still reserved by a pod that is not a victim: preemption cannot help", async () => {
    // The GPU's claim is shared by a priority-0 pod and a priority-20 pod: removing the former
    // does not release it.
    const text = `${header}${gpus(1)}${claim("shared", { status: allocatedTo("gpu-0", ["low", "high"]) })}${pod("low", 0, "shared", true)}${pod("high", 20, "shared", true)}${claim("preemptor")}${pod("preemptor", 10, "preemptor")}`;
    const res = await simulate({
      config,
      registry: inTreeRegistry,
      objects: loadSnapshotTexts([{ name: "shared.yaml", text }]).objects,
      logger: recordingLogger(),
      features: on,
    });
    expect(res.preemptions).toEqual([]);
    expect(res.pods.find((p) => p.name === "preemptor")).toMatchObject({
      outcome: "Unschedulable",
      message:
        "0/1 nodes are available: 1 cannot allocate all claims. preemption: 0/1 nodes are available: 1 cannot allocate all claims.",
    });
    const r = await run(text, on);
    expect(r.podOf("low")?.spec?.nodeName).toBe("worker-0");
    expect(r.claims.shared?.status?.reservedFor?.map((x) => x.name)).toEqual(["low", "high"]);
  });

  it("template-preemption: the victim's generated claim is released", async () => {
    const text = `${header}${gpus(1)}apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: { name: my-template, namespace: default }
spec:
  spec:
    devices:
      requests: [{ name: gpu, exactly: { deviceClassName: gpu.example.com } }]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: victim-gpu-x7k2p
  namespace: default
  uid: claim-victim-gpu
  finalizers: [resource.kubernetes.io/delete-protection]
  annotations: { resource.kubernetes.io/pod-claim-name: gpu }
  ownerReferences: [{ apiVersion: v1, kind: Pod, name: victim, uid: pod-victim, controller: true, blockOwnerDeletion: true }]
spec:
  devices:
    requests: [{ name: gpu, exactly: { deviceClassName: gpu.example.com } }]
status:
${allocatedTo("gpu-0", ["victim"])}---
apiVersion: v1
kind: Pod
metadata: { name: victim, namespace: default, uid: pod-victim }
spec:
  priority: 0
  nodeName: worker-0
  containers: [{ name: c, image: i, resources: { requests: { cpu: "1" }, claims: [{ name: gpu }] } }]
  resourceClaims: [{ name: gpu, resourceClaimTemplateName: my-template }]
status:
  resourceClaimStatuses: [{ name: gpu, resourceClaimName: victim-gpu-x7k2p }]
---
${claim("preemptor")}${pod("preemptor", 10, "preemptor")}`;
    const r = await run(text, on);
    expect(r.podOf("victim")).toBeUndefined();
    expect(r.podOf("preemptor")?.spec?.nodeName).toBe("worker-0");
    // The generated claim of the deleted pod is gone or released; the GPU is the preemptor's.
    expect(r.claims["victim-gpu-x7k2p"]?.status?.allocation).toBeUndefined();
    expect(r.claims.preemptor?.status?.allocation?.devices?.results?.[0]?.device).toBe("gpu-0");
  });

  it("priority-aware-preemption: the lowest-priority holder of a GPU is the victim", async () => {
    const text = `${header}${gpus(2)}${claim("claim-a", { selector: "gpu-0", status: allocatedTo("gpu-0", ["victim-a"]) })}${pod("victim-a", 10, "claim-a", true)}${claim("claim-b", { selector: "gpu-1", status: allocatedTo("gpu-1", ["victim-b"]) })}${pod("victim-b", 20, "claim-b", true)}${claim("claim-c")}${pod("preemptor", 100, "claim-c")}`;
    const r = await run(text, on);
    expect(r.podOf("victim-a")).toBeUndefined();
    expect(r.podOf("victim-b")?.spec?.nodeName).toBe("worker-0");
    expect(r.podOf("preemptor")?.spec?.nodeName).toBe("worker-0");
    expect(r.claims["claim-c"]?.status?.allocation?.devices?.results?.[0]?.device).toBe("gpu-0");
  });

  it("partitionable-devices-preemption: both pods on a counter set are preempted for a device needing all of it", async () => {
    const counters = `apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: { name: worker-0-counters }
spec:
  driver: gpu.example.com
  nodeName: worker-0
  pool: { name: worker-0, generation: 1, resourceSliceCount: 2 }
  sharedCounters: [{ name: gpu-pool, counters: { gpu: { value: "10" } } }]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: { name: worker-0-devices }
spec:
  driver: gpu.example.com
  nodeName: worker-0
  pool: { name: worker-0, generation: 1, resourceSliceCount: 2 }
  devices:
${["a:4", "b:4", "c:8"]
  .map((d) => {
    const [n, v] = d.split(":");
    return `    - { name: device-${n}, attributes: { name: { string: device-${n} } }, consumesCounters: [{ counterSet: gpu-pool, counters: { gpu: { value: "${v}" } } }] }`;
  })
  .join("\n")}
---
`;
    const text = `${header}${counters}${claim("claim-a", { selector: "device-a", status: allocatedTo("device-a", ["victim-a"]) })}${pod("victim-a", 10, "claim-a", true)}${claim("claim-b", { selector: "device-b", status: allocatedTo("device-b", ["victim-b"]) })}${pod("victim-b", 10, "claim-b", true)}${claim("claim-c", { selector: "device-c" })}${pod("preemptor", 100, "claim-c")}`;
    // Asynchronous preemption (SchedulerAsyncPreemption, on by default): the first victim's
    // claim release requeues the preemptor while its preparation still runs, so DefaultPreemption
    // gates it; no later event ungates it (DefaultPreemption's Pod/Delete hint is QueueSkip,
    // DynamicResources registers no Pod/Delete, claim events do not concern the gate). As
    // upstream, the unschedulable pool's periodic flush re-evaluates it once its gate is open.
    const r = await run(text, { ...on, enableAsyncPreemption: true });
    expect(r.podOf("victim-a")).toBeUndefined();
    expect(r.podOf("victim-b")).toBeUndefined();
    expect(r.podOf("preemptor")?.spec?.nodeName).toBe("worker-0");
    expect(r.claims["claim-a"]?.status?.allocation).toBeUndefined();
    expect(r.claims["claim-b"]?.status?.allocation).toBeUndefined();
    expect(r.claims["claim-c"]?.status?.allocation?.devices?.results?.[0]?.device).toBe("device-c");
  });

  it("consumable-capacity-preemption: only as many sharers as needed are preempted", async () => {
    const shared = slice(
      `{ name: device-1, allowMultipleAllocations: true, capacity: { cores: { value: "10" } } }`,
    );
    const share = (id: string) => `, shareID: ${id}, consumedCapacity: { cores: "4" }`;
    const text = `${header}${shared}${claim("claim-a", { capacity: "4", status: allocatedTo("device-1", ["victim-a"], share("5a5a5a5a-0000-0000-0000-00000000000a")) })}${pod("victim-a", 100, "claim-a", true)}${claim("claim-b", { capacity: "4", status: allocatedTo("device-1", ["victim-b"], share("5b5b5b5b-0000-0000-0000-00000000000b")) })}${pod("victim-b", 100, "claim-b", true)}${claim("claim-c", { capacity: "6" })}${pod("preemptor", 200, "claim-c")}`;
    const r = await run(text, on);
    const gone = ["victim-a", "victim-b"].filter((n) => r.podOf(n) === undefined);
    expect(gone).toHaveLength(1);
    expect(r.claims[`claim-${(gone[0] as string).slice(-1)}`]?.status?.allocation).toBeUndefined();
    expect(r.podOf("preemptor")?.spec?.nodeName).toBe("worker-0");
    expect(r.claims["claim-c"]?.status?.allocation?.devices?.results?.[0]).toMatchObject({
      device: "device-1",
      consumedCapacity: { cores: "6" },
    });
  });
});
