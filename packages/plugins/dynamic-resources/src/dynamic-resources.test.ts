// upstream: dynamicresources_test.go (TestPlugin cases without DRA objects) and
// validation_pluginargs_test.go (TestValidateDynamicResourcesArgs).
import {
  CycleState,
  formatFieldError,
  isStatus,
  NodeToStatus,
  type PreFilterResult,
  type Status,
} from "@kubesched/framework";
import { makeNode, makePod, statusSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { decodeDynamicResourcesArgs, validateDynamicResourcesArgs } from "./args";
import type { DynamicResources } from "./dynamic-resources";
import { type DynamicResourcesArgs, dynamicResourcesPlugin } from "./index";
import { setup } from "./test-harness";

const st = (r: PreFilterResult | Status | null): Status | null => (isStatus(r) ? r : null);
const h = setup<DynamicResourcesArgs, DynamicResources>(dynamicResourcesPlugin, {
  nodes: [makeNode().name("worker").obj()],
});
const podWithClaimName = makePod()
  .name("my-pod")
  .namespace("default")
  .uid("1234")
  .resourceClaim("my-pod-claim", "my-pod-claim")
  .obj();
const podWithTemplate = makePod()
  .name("my-pod")
  .namespace("default")
  .uid("1234")
  .podResourceClaims({ name: "my-pod-claim", resourceClaimTemplateName: "tmpl" })
  .obj();

describe("TestPlugin", () => {
  it("empty: a pod without claims skips everything", async () => {
    const pod = makePod().name("my-pod").namespace("default").obj();
    const state = new CycleState();
    expect(h.plugin.preEnqueue(pod)).toBeNull();
    expect(statusSummary(st(h.plugin.preFilter(state, pod, h.snapshot.nodeInfoList)))).toEqual({
      code: "Skip",
      reasons: [],
    });
    expect(statusSummary(h.plugin.postFilter(state, pod, new NodeToStatus()).status)).toEqual({
      code: "Unschedulable",
      reasons: ["no new claims to deallocate"],
    });
    expect(statusSummary(h.plugin.preScore(state, pod, h.snapshot.nodeInfoList))).toEqual({
      code: "Skip",
      reasons: [],
    });
    expect(h.plugin.reserve(state, pod, "worker")).toBeNull();
    expect(statusSummary(h.plugin.preBindPreFlight(state, pod, "worker"))).toEqual({
      code: "Skip",
      reasons: [],
    });
    expect(await h.plugin.preBind(state, pod, "worker")).toBeNull();
  });

  it("claim-reference, missing claim: gated in PreEnqueue", () => {
    expect(statusSummary(h.plugin.preEnqueue(podWithClaimName))).toEqual({
      code: "UnschedulableAndUnresolvable",
      reasons: ['resourceclaim.resource.k8s.io "my-pod-claim" not found'],
    });
    expect(statusSummary(st(h.plugin.preFilter(new CycleState(), podWithClaimName, []))).code).toBe(
      "UnschedulableAndUnresolvable",
    );
  });

  it("claim-template, claim not created yet: gated in PreEnqueue", () => {
    expect(statusSummary(h.plugin.preEnqueue(podWithTemplate))).toEqual({
      code: "UnschedulableAndUnresolvable",
      reasons: ['pod "default/my-pod": ResourceClaim not created yet'],
    });
  });

  it("claim-template, claim intentionally not created: nothing to do", () => {
    const pod = { ...podWithTemplate, status: { resourceClaimStatuses: [{ name: "my-pod-claim" }] } };
    expect(h.plugin.preEnqueue(pod)).toBeNull();
    expect(statusSummary(st(h.plugin.preFilter(new CycleState(), pod, []))).code).toBe("Skip");
  });

  it("claim with neither name nor template: API unsupported", () => {
    const pod = makePod().name("my-pod").namespace("default").podResourceClaims({ name: "c" }).obj();
    expect(statusSummary(h.plugin.preEnqueue(pod)).reasons).toEqual([
      'pod "default/my-pod", spec.resourceClaim "c": API unsupported',
    ]);
  });
});

describe("TestValidateDynamicResourcesArgs", () => {
  it.each([
    { name: "defaults", raw: undefined, want: [] },
    { name: "zero filter timeout disables it", raw: { filterTimeout: "0s" }, want: [] },
    {
      name: "negative filter timeout",
      raw: { filterTimeout: "-1s" },
      want: ['filterTimeout: Invalid value: "-1s": must be zero or positive'],
    },
    {
      name: "binding timeout too small",
      raw: { bindingTimeout: "500ms" },
      want: ['bindingTimeout: Invalid value: "0.5s": must be at least 1s'],
    },
  ])("$name", ({ raw, want }) => {
    const d = decodeDynamicResourcesArgs(raw, "");
    expect(d.errors).toEqual([]);
    expect(validateDynamicResourcesArgs(d.args).map(formatFieldError)).toEqual(want);
  });

  it("defaults filterTimeout to 10s and bindingTimeout to 600s", () => {
    expect(decodeDynamicResourcesArgs(undefined, "args").args).toEqual({
      filterTimeoutMs: 10_000,
      bindingTimeoutMs: 600_000,
    });
  });

  it("reports malformed durations and unknown fields", () => {
    expect(
      decodeDynamicResourcesArgs({ filterTimeout: "ten", x: 1 }, "args").errors.map(formatFieldError),
    ).toEqual([
      'args.filterTimeout: Invalid value: "ten": must be a duration such as 10s or 1m30s',
      "args.x: unknown field",
    ]);
  });
});
