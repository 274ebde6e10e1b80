// LimitRanger, ported from upstream plugin/pkg/admission/limitranger/admission_test.go
// (TestDefaultContainerResourceRequirements, TestMergePodResourceRequirements, TestPodLimitFunc,
// TestPersistentVolumeClaimLimitFunc): the same inputs; where upstream checks only that an
// error is returned, the expected message is upstream's format string filled in.
import type { Pod, ResourceList } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { type LimitRange, type LimitRangeItem, LimitRanges, limitRangerAnnotation } from "./limit-ranger";

/** upstream getComputeResourceList */
function compute(cpu: string, memory: string): ResourceList {
  return { ...(cpu ? { cpu } : {}), ...(memory ? { memory } : {}) };
}
/** upstream getLocalStorageResourceList */
function storage(s: string): ResourceList {
  return s ? { "ephemeral-storage": s } : {};
}
/** upstream createLimitRange */
function createLimitRange(
  type: LimitRangeItem["type"],
  min: ResourceList,
  max: ResourceList,
  def: ResourceList = {},
  defaultRequest: ResourceList = {},
  maxLimitRequestRatio: ResourceList = {},
): LimitRange {
  return {
    metadata: { name: "abc", namespace: "test" },
    spec: { limits: [{ type, min, max, default: def, defaultRequest, maxLimitRequestRatio }] },
  };
}
/** upstream validLimitRange */
function validLimitRange(): LimitRange {
  return {
    metadata: { name: "abc", namespace: "test" },
    spec: {
      limits: [
        { type: "Pod", max: compute("200m", "4Gi"), min: compute("50m", "2Mi") },
        {
          type: "Container",
          max: compute("100m", "2Gi"),
          min: compute("25m", "1Mi"),
          default: compute("75m", "10Mi"),
          defaultRequest: compute("50m", "5Mi"),
        },
      ],
    },
  };
}
interface Res {
  requests: ResourceList;
  limits: ResourceList;
}
const res = (requests: ResourceList, limits: ResourceList): Res => ({ requests, limits });
/** upstream validPod */
function validPod(name: string, n: number, resources: Res): Pod {
  return {
    metadata: { name, namespace: "test" },
    spec: {
      containers: Array.from({ length: n }, (_, i) => ({
        name: `foo-${i}`,
        image: `foo:V${i}`,
        resources: structuredClone(resources),
      })),
    },
  };
}
/** upstream validPodInit */
function validPodInit(pod: Pod, ...init: Res[]): Pod {
  return {
    ...pod,
    spec: {
      ...pod.spec,
      containers: pod.spec?.containers ?? [],
      initContainers: init.map((r, i) => ({
        name: `foo-${i}`,
        image: `foo:V${i}`,
        resources: structuredClone(r),
      })),
    },
  };
}

/** upstream withRestartableInitContainer: a sidecar (restartPolicy Always) appended. */
function withRestartableInitContainer(requests: ResourceList, limits: ResourceList, pod: Pod): Pod {
  const init = pod.spec?.initContainers ?? [];
  return {
    ...pod,
    spec: {
      ...pod.spec,
      containers: pod.spec?.containers ?? [],
      initContainers: [
        ...init,
        {
          name: `foo-${init.length}`,
          image: `foo:V${init.length}`,
          restartPolicy: "Always",
          resources: { requests, limits },
        },
      ],
    },
  };
}

function admit(lr: LimitRange, pod: Pod): string | Pod {
  const out = new LimitRanges([lr]).admitPod(pod);
  return "error" in out ? out.error : out.pod;
}

describe("LimitRanger defaults (TestMergePodResourceRequirements)", () => {
  it("a pod with no resources gets every default request and limit, and the annotation", () => {
    const pod = admit(validLimitRange(), validPod("empty-resources", 1, res({}, {}))) as Pod;
    expect(pod.spec?.containers[0]?.resources).toEqual({
      requests: compute("50m", "5Mi"),
      limits: compute("75m", "10Mi"),
    });
    expect(pod.metadata?.annotations?.[limitRangerAnnotation]).toBe(
      "LimitRanger plugin set: cpu, memory request for container foo-0; cpu, memory limit for container foo-0",
    );
  });

  it("only what is missing is merged, in containers and init containers", () => {
    const input = res(compute("", "512Mi"), {});
    const lr = validLimitRange();
    // The Container item's max (2Gi) and the Pod item's (4Gi) admit 512Mi.
    const pod = admit(lr, validPodInit(validPod("limit-memory", 1, input), input)) as Pod;
    const expected = { requests: { memory: "512Mi", cpu: "50m" }, limits: compute("75m", "10Mi") };
    expect(pod.spec?.containers[0]?.resources).toEqual(expected);
    expect(pod.spec?.initContainers?.[0]?.resources).toEqual(expected);
    expect(pod.metadata?.annotations?.[limitRangerAnnotation]).toBe(
      "LimitRanger plugin set: cpu request for container foo-0; cpu, memory limit for container foo-0; cpu request for init container foo-0; cpu, memory limit for init container foo-0",
    );
  });

  it("a pod with everything set is not changed and not annotated", () => {
    const lr: LimitRange = {
      metadata: { name: "abc", namespace: "test" },
      spec: { limits: [validLimitRange().spec?.limits?.[1] as LimitRangeItem] },
    };
    (lr.spec?.limits?.[0] as LimitRangeItem).max = {};
    const input = res(compute("100m", "512Mi"), compute("200m", "1G"));
    const init = res(compute("200m", "1G"), compute("400m", "2G"));
    const pod = admit(lr, validPodInit(validPod("limit-memory", 1, input), init)) as Pod;
    expect(pod.spec?.containers[0]?.resources).toEqual(input);
    expect(pod.spec?.initContainers?.[0]?.resources).toEqual(init);
    expect(pod.metadata?.annotations?.[limitRangerAnnotation]).toBeUndefined();
  });

  it("pods of other namespaces are not touched", () => {
    const pod = { ...validPod("other", 1, res({}, {})), metadata: { name: "other", namespace: "elsewhere" } };
    expect(admit(validLimitRange(), pod)).toEqual(pod);
  });
});

const none: ResourceList = {};

describe("LimitRanger validation (TestPodLimitFunc)", () => {
  const success: [Pod, LimitRange][] = [
    [
      validPod("ctr-min-cpu-request", 1, res(compute("100m", ""), {})),
      createLimitRange("Container", compute("50m", ""), none),
    ],
    [
      validPod("ctr-min-cpu-request-limit", 1, res(compute("100m", ""), compute("200m", ""))),
      createLimitRange("Container", compute("50m", ""), none),
    ],
    [
      validPod("ctr-min-memory-request", 1, res(compute("", "60Mi"), {})),
      createLimitRange("Container", compute("", "50Mi"), none),
    ],
    [
      validPod("ctr-min-memory-request-limit", 1, res(compute("", "60Mi"), compute("", "100Mi"))),
      createLimitRange("Container", compute("", "50Mi"), none),
    ],
    [
      validPod("ctr-max-cpu-request-limit", 1, res(compute("500m", ""), compute("1", ""))),
      createLimitRange("Container", none, compute("2", "")),
    ],
    [
      validPod("ctr-max-cpu-limit", 1, res({}, compute("1", ""))),
      createLimitRange("Container", none, compute("2", "")),
    ],
    [
      validPod("ctr-max-mem-request-limit", 1, res(compute("", "250Mi"), compute("", "500Mi"))),
      createLimitRange("Container", none, compute("", "1Gi")),
    ],
    [
      validPod("ctr-max-cpu-ratio", 1, res(compute("500m", ""), compute("750m", ""))),
      createLimitRange("Container", none, none, none, none, compute("1.5", "")),
    ],
    [
      validPod("ctr-max-mem-limit", 1, res({}, compute("", "500Mi"))),
      createLimitRange("Container", none, compute("", "1Gi")),
    ],
    [
      validPod("pod-min-cpu-request", 2, res(compute("75m", ""), {})),
      createLimitRange("Pod", compute("100m", ""), none),
    ],
    [
      validPod("pod-min-cpu-request-limit", 2, res(compute("75m", ""), compute("200m", ""))),
      createLimitRange("Pod", compute("100m", ""), none),
    ],
    [
      validPod("pod-min-memory-request", 2, res(compute("", "60Mi"), {})),
      createLimitRange("Pod", compute("", "100Mi"), none),
    ],
    [
      validPod("pod-min-memory-request-limit", 2, res(compute("", "60Mi"), compute("", "100Mi"))),
      createLimitRange("Pod", compute("", "100Mi"), none),
    ],
    [
      validPodInit(
        validPod("pod-init-min-memory-request", 2, res(compute("", "60Mi"), {})),
        res(compute("", "100Mi"), {}),
      ),
      createLimitRange("Pod", compute("", "100Mi"), none),
    ],
    [
      validPodInit(
        validPod("pod-init-min-memory-request-limit", 2, res(compute("", "60Mi"), compute("", "100Mi"))),
        res(compute("", "80Mi"), compute("", "100Mi")),
      ),
      createLimitRange("Pod", compute("", "100Mi"), none),
    ],
    [
      validPod("pod-max-cpu-request-limit", 2, res(compute("500m", ""), compute("1", ""))),
      createLimitRange("Pod", none, compute("2", "")),
    ],
    [
      validPod("pod-max-cpu-limit", 2, res({}, compute("1", ""))),
      createLimitRange("Pod", none, compute("2", "")),
    ],
    [
      validPodInit(
        validPod("pod-init-max-cpu-request-limit", 2, res(compute("500m", ""), compute("1", ""))),
        res(compute("1", ""), compute("2", "")),
        res(compute("1", ""), compute("1", "")),
      ),
      createLimitRange("Pod", none, compute("2", "")),
    ],
    [
      validPodInit(
        validPod("pod-init-max-cpu-limit", 2, res({}, compute("1", ""))),
        res({}, compute("2", "")),
        res({}, compute("2", "")),
      ),
      createLimitRange("Pod", none, compute("2", "")),
    ],
    [
      validPod("pod-max-mem-request-limit", 2, res(compute("", "250Mi"), compute("", "500Mi"))),
      createLimitRange("Pod", none, compute("", "1Gi")),
    ],
    [
      validPod("pod-max-mem-limit", 2, res({}, compute("", "500Mi"))),
      createLimitRange("Pod", none, compute("", "1Gi")),
    ],
    [
      validPod("pod-max-mem-ratio", 3, res(compute("", "300Mi"), compute("", "450Mi"))),
      createLimitRange("Pod", none, compute("", "2Gi"), none, none, compute("", "1.5")),
    ],
    [
      validPod("ctr-1-min-local-ephemeral-storage-request", 1, res(storage("60Mi"), {})),
      createLimitRange("Container", storage("50Mi"), none),
    ],
    [
      validPod("ctr-1-min-local-ephemeral-storage-request-limit", 1, res(storage("60Mi"), storage("100Mi"))),
      createLimitRange("Container", storage("50Mi"), none),
    ],
    [
      validPod("ctr-1-max-local-ephemeral-storage-request-limit", 1, res(storage("250Mi"), storage("500Mi"))),
      createLimitRange("Container", none, storage("1Gi")),
    ],
    [
      validPod("ctr-1-max-local-ephemeral-storage-limit", 1, res({}, storage("500Mi"))),
      createLimitRange("Container", none, storage("1Gi")),
    ],
    [
      validPod("ctr-2-max-local-ephemeral-storage-request-limit", 2, res(storage("250Mi"), storage("500Mi"))),
      createLimitRange("Container", none, storage("600Mi")),
    ],
    [
      validPod("pod-min-local-ephemeral-storage-request", 2, res(storage("60Mi"), {})),
      createLimitRange("Pod", storage("100Mi"), none),
    ],
    [
      validPod("pod-max-local-ephemeral-storage-ratio", 3, res(storage("300Mi"), storage("450Mi"))),
      createLimitRange("Pod", none, storage("2Gi"), none, none, storage("1.5")),
    ],
  ];
  it.each(success)("admits %#", (pod, lr) => {
    expect(typeof admit(lr, pod)).toBe("object");
  });

  const errors: [Pod, LimitRange, string][] = [
    [
      validPod("ctr-min-cpu-request", 1, res(compute("40m", ""), {})),
      createLimitRange("Container", compute("50m", ""), none),
      "minimum cpu usage per Container is 50m, but request is 40m",
    ],
    [
      validPod("ctr-min-cpu-request-limit", 1, res(compute("40m", ""), compute("200m", ""))),
      createLimitRange("Container", compute("50m", ""), none),
      "minimum cpu usage per Container is 50m, but request is 40m",
    ],
    [
      validPod("ctr-min-cpu-no-request-limit", 1, res({}, {})),
      createLimitRange("Container", compute("50m", ""), none),
      "minimum cpu usage per Container is 50m.  No request is specified",
    ],
    [
      validPod("ctr-min-memory-request", 1, res(compute("", "40Mi"), {})),
      createLimitRange("Container", compute("", "50Mi"), none),
      "minimum memory usage per Container is 50Mi, but request is 40Mi",
    ],
    [
      validPod("ctr-min-memory-no-request-limit", 1, res({}, {})),
      createLimitRange("Container", compute("", "50Mi"), none),
      "minimum memory usage per Container is 50Mi.  No request is specified",
    ],
    [
      validPod("ctr-max-cpu-request-limit", 1, res(compute("500m", ""), compute("2500m", ""))),
      createLimitRange("Container", none, compute("2", "")),
      "maximum cpu usage per Container is 2, but limit is 2500m",
    ],
    [
      validPod("ctr-max-cpu-limit", 1, res({}, compute("2500m", ""))),
      createLimitRange("Container", none, compute("2", "")),
      "maximum cpu usage per Container is 2, but limit is 2500m",
    ],
    [
      validPod("ctr-max-cpu-no-request-limit", 1, res({}, {})),
      createLimitRange("Container", none, compute("2", "")),
      "maximum cpu usage per Container is 2.  No limit is specified",
    ],
    [
      validPod("ctr-max-cpu-ratio", 1, res(compute("1250m", ""), compute("2500m", ""))),
      createLimitRange("Container", none, none, none, none, compute("1", "")),
      "cpu max limit to request ratio per Container is 1, but provided ratio is 2.000000",
    ],
    [
      validPod("ctr-max-mem-request-limit", 1, res(compute("", "250Mi"), compute("", "2Gi"))),
      createLimitRange("Container", none, compute("", "1Gi")),
      "maximum memory usage per Container is 1Gi, but limit is 2Gi",
    ],
    [
      validPod("ctr-max-mem-no-request-limit", 1, res({}, {})),
      createLimitRange("Container", none, compute("", "1Gi")),
      "maximum memory usage per Container is 1Gi.  No limit is specified",
    ],
    [
      validPod("pod-min-cpu-request", 1, res(compute("75m", ""), {})),
      createLimitRange("Pod", compute("100m", ""), none),
      "minimum cpu usage per Pod is 100m, but request is 75m",
    ],
    [
      validPod("pod-min-memory-request-limit", 1, res(compute("", "60Mi"), compute("", "100Mi"))),
      createLimitRange("Pod", compute("", "100Mi"), none),
      "minimum memory usage per Pod is 100Mi, but request is 60Mi",
    ],
    [
      validPod("pod-max-cpu-request-limit", 3, res(compute("500m", ""), compute("1", ""))),
      createLimitRange("Pod", none, compute("2", "")),
      "maximum cpu usage per Pod is 2, but limit is 3",
    ],
    [
      validPod("pod-max-mem-request-limit", 3, res(compute("", "250Mi"), compute("", "500Mi"))),
      createLimitRange("Pod", none, compute("", "1Gi")),
      "maximum memory usage per Pod is 1Gi, but limit is 1500Mi",
    ],
    [
      validPodInit(
        validPod("pod-init-max-mem-limit", 1, res({}, compute("", "500Mi"))),
        res({}, compute("", "1.5Gi")),
      ),
      createLimitRange("Pod", none, compute("", "1Gi")),
      "maximum memory usage per Pod is 1Gi, but limit is 1536Mi",
    ],
    [
      validPod("pod-max-mem-ratio", 3, res(compute("", "250Mi"), compute("", "500Mi"))),
      createLimitRange("Pod", none, compute("", "2Gi"), none, none, compute("", "1.5")),
      "memory max limit to request ratio per Pod is 1500m, but provided ratio is 2.000000",
    ],
    [
      validPod("ctr-1-min-local-ephemeral-storage-request", 1, res(storage("40Mi"), {})),
      createLimitRange("Container", storage("50Mi"), none),
      "minimum ephemeral-storage usage per Container is 50Mi, but request is 40Mi",
    ],
    [
      validPod("ctr-1-min-local-ephemeral-storage-no-request-limit", 1, res({}, {})),
      createLimitRange("Container", storage("50Mi"), none),
      "minimum ephemeral-storage usage per Container is 50Mi.  No request is specified",
    ],
    [
      withRestartableInitContainer(
        compute("1500m", ""),
        {},
        validPod(
          "ctr-max-cpu-limit-restartable-init-container",
          1,
          res(compute("1000m", ""), compute("1500m", "")),
        ),
      ),
      createLimitRange("Pod", none, compute("2", "")),
      // The sidecar's request adds to the containers' (2500m); its missing limit adds nothing.
      "maximum cpu usage per Pod is 2, but request is 2500m",
    ],
  ];
  it.each(errors)("refuses %#", (pod, lr, message) => {
    expect(admit(lr, pod)).toBe(`pods "${pod.metadata?.name}" is forbidden: ${message}`);
  });

  it("several violations are aggregated as upstream's utilerrors.NewAggregate prints them", () => {
    const pod = validPod("two", 2, res(compute("10m", ""), {}));
    expect(admit(createLimitRange("Container", compute("50m", "1Mi"), none), pod)).toBe(
      'pods "two" is forbidden: [minimum cpu usage per Container is 50m, but request is 10m, minimum memory usage per Container is 1Mi.  No request is specified]',
    );
  });
});

describe("LimitRanger on claims (TestPersistentVolumeClaimLimitFunc)", () => {
  const claim = (name: string, request: string) => ({
    metadata: { name, namespace: "test" },
    spec: { resources: { requests: { storage: request } } },
  });
  const pvcRange = (min: string, max: string) =>
    createLimitRange("PersistentVolumeClaim", min ? { storage: min } : {}, max ? { storage: max } : {});
  it.each([
    ["pvc-is-min-storage-request", "1Gi", pvcRange("1Gi", "")],
    ["pvc-is-max-storage-request", "1Gi", pvcRange("", "1Gi")],
    ["pvc-no-minmax-storage-request", "100Gi", pvcRange("", "")],
    ["pvc-within-minmax-storage-request", "5Gi", pvcRange("1Gi", "10Gi")],
  ])("admits %s", (name, request, lr) => {
    expect(new LimitRanges([lr]).admitClaim(claim(name, request))).toBeNull();
  });
  it.each([
    [
      "pvc-below-min-storage-request",
      "500Mi",
      pvcRange("1Gi", ""),
      "minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi",
    ],
    [
      "pvc-exceeds-max-storage-request",
      "100Gi",
      pvcRange("1Gi", "1Gi"),
      "maximum storage usage per PersistentVolumeClaim is 1Gi, but request is 100Gi",
    ],
  ])("refuses %s", (name, request, lr, message) => {
    expect(new LimitRanges([lr]).admitClaim(claim(name, request))).toBe(
      `persistentvolumeclaims "${name}" is forbidden: ${message}`,
    );
  });
});

describe("LimitRanger admission (TestPodLimitFuncApplyDefault, TestLimitRangerAdmitPod)", () => {
  it("defaults every container and init container", () => {
    const pod = admit(validLimitRange(), validPodInit(validPod("foo", 1, res({}, {})), res({}, {}))) as Pod;
    for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
      expect(c.resources).toEqual({ requests: compute("50m", "5Mi"), limits: compute("75m", "10Mi") });
    }
  });

  it("refuses a pod without limits where the LimitRange has a max and no defaults", () => {
    const noDefaults: LimitRange = {
      metadata: { name: "abc", namespace: "test" },
      spec: {
        limits: [
          { type: "Pod", max: compute("200m", "4Gi"), min: compute("50m", "2Mi") },
          { type: "Container", max: compute("100m", "2Gi"), min: compute("25m", "1Mi") },
        ],
      },
    };
    expect(admit(noDefaults, validPod("testPod", 1, res({}, {})))).toBe(
      'pods "testPod" is forbidden: [minimum cpu usage per Pod is 50m.  No request is specified, minimum memory usage per Pod is 2Mi.  No request is specified, maximum cpu usage per Pod is 200m.  No limit is specified, maximum memory usage per Pod is 4Gi.  No limit is specified, minimum cpu usage per Container is 25m.  No request is specified, minimum memory usage per Container is 1Mi.  No request is specified, maximum cpu usage per Container is 100m.  No limit is specified, maximum memory usage per Container is 2Gi.  No limit is specified]',
    );
  });
});
