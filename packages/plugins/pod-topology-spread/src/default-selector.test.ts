// Ported from upstream pkg/scheduler/framework/plugins/helper/spread_test.go (TestGetPodServices),
// plus DefaultSelector cases.
import type { Service } from "@kubesched/api";
import { makePod, makeReplicaSet, makeService, makeStatefulSet } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { defaultSelector, getPodServices } from "./default-selector";
import { fakeListers as listers } from "./test-harness";

describe("TestGetPodServices", () => {
  const services: Service[] = [0, 1, 2].map((i) =>
    makeService().name(`service-${i}`).namespace("test").selector("app", `test-${i}`).obj(),
  );
  const pods = [0, 1, 2, 3, 4].map((i) =>
    makePod()
      .namespace("test")
      .name(`test-pod-${i}`)
      .label("app", `test-${i}`)
      .label("label", `label-${i}`)
      .obj(),
  );
  const cases = [
    { name: "GetPodServices for pod-0", pod: pods[0]!, expect: [services[0]] },
    { name: "GetPodServices for pod-1", pod: pods[1]!, expect: [services[1]] },
    { name: "GetPodServices for pod-2", pod: pods[2]!, expect: [services[2]] },
    { name: "GetPodServices for pod-3", pod: pods[3]!, expect: [] },
    { name: "GetPodServices for pod-4", pod: pods[4]!, expect: [] },
  ];
  it.each(cases)("$name", (tc) => {
    expect(getPodServices(listers({ services }), tc.pod)).toEqual(tc.expect);
  });
});

describe("DefaultSelector", () => {
  const rsGVK = { group: "apps", version: "v1", kind: "ReplicaSet" };
  const ssGVK = { group: "apps", version: "v1", kind: "StatefulSet" };
  it("merges services and the owning ReplicaSet's selector", () => {
    const pod = makePod()
      .namespace("ns")
      .name("p")
      .label("app", "a")
      .label("tier", "web")
      .ownerReference("rs", rsGVK)
      .obj();
    const sel = defaultSelector(
      pod,
      listers({
        services: [makeService().name("s").namespace("ns").selector("app", "a").obj()],
        replicaSets: [makeReplicaSet().name("rs").namespace("ns").selector("tier", "web").obj()],
      }),
    );
    expect(sel.string()).toBe("app=a,tier=web");
  });
  it("uses a StatefulSet owner; ignores services without a selector and other namespaces", () => {
    const pod = makePod().namespace("ns").name("p").label("app", "a").ownerReference("ss", ssGVK).obj();
    const sel = defaultSelector(
      pod,
      listers({
        services: [
          { metadata: { name: "nil", namespace: "ns" }, spec: {} },
          makeService().name("other").namespace("other").selector("app", "a").obj(),
        ],
        statefulSets: [makeStatefulSet().name("ss").namespace("ns").selector("app", "a").obj()],
      }),
    );
    expect(sel.string()).toBe("app=a");
  });
  it("is empty when nothing selects the pod", () => {
    const pod = makePod().namespace("ns").name("p").label("app", "a").obj();
    expect(defaultSelector(pod, listers({})).empty()).toBe(true);
  });
});
