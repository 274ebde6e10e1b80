// The surface plugins read from @kubesched/api, pinned by what it infers (the API report pins the
// declarations; these pin how plugin code uses them). Imports the package by name, so that
// tooling/type-tests compiles the same file against the built .d.ts.
import {
  HostPortInfo,
  labelSelectorAsSelector,
  type Node,
  type Pod,
  parseQuantity,
  podRequests,
  type ResourceAmounts,
  type Selector,
  type Taint,
  type Toleration,
  tolerationsTolerateTaint,
} from "@kubesched/api";
import { describe, expectTypeOf, it } from "vitest";

describe("@kubesched/api", () => {
  it("objects are Kubernetes' JSON shapes, with every field optional as in YAML", () => {
    const pod: Pod = { metadata: { name: "p", labels: { app: "a" } }, spec: { containers: [{ name: "c" }] } };
    expectTypeOf(pod.spec?.nodeName).toEqualTypeOf<string | undefined>();
    expectTypeOf<Node["spec"]>().toExtend<{ taints?: Taint[]; unschedulable?: boolean } | undefined>();
    expectTypeOf<Toleration>().toExtend<{ key?: string; operator?: string; value?: string }>();
  });

  it("requests are canonical integer amounts by resource name", () => {
    expectTypeOf(podRequests).parameters.toExtend<[Pod, ...unknown[]]>();
    expectTypeOf(podRequests).returns.toEqualTypeOf<ResourceAmounts>();
    expectTypeOf<ResourceAmounts>().toEqualTypeOf<Map<string, number>>();
    expectTypeOf(parseQuantity("1Gi").value()).toEqualTypeOf<number>();
  });

  it("selectors and taint helpers take what pods carry", () => {
    expectTypeOf(labelSelectorAsSelector).returns.toEqualTypeOf<Selector>();
    expectTypeOf<Selector["matches"]>().parameters.toExtend<[Record<string, string> | undefined]>();
    expectTypeOf(tolerationsTolerateTaint).returns.toEqualTypeOf<boolean>();
    expectTypeOf(new HostPortInfo().checkConflict).returns.toEqualTypeOf<boolean>();
  });
});
