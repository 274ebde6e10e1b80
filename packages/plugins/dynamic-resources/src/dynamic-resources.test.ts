// upstream: dynamicresources_test.go (TestPlugin cases without DRA objects) and
// validation_pluginargs_test.go (TestValidateDynamicResourcesArgs).
import type { Pod } from "@kubesched/api";
import { type CycleState, formatFieldError, NodeToStatus, type Status } from "@kubesched/framework";
import { createPluginHarness, makeNode, makePod, statusSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { decodeDynamicResourcesArgs, validateDynamicResourcesArgs } from "./args";
import type { DynamicResources } from "./dynamic-resources";
import { dynamicResourcesPlugin } from "./index";

const h = await createPluginHarness({
  plugin: dynamicResourcesPlugin,
  nodes: [makeNode().name("worker").obj()],
});
const pl = h.plugin as DynamicResources;
const nodeInfos = h.snapshot.nodeInfos().list();
/** PreFilter through the framework; the plugin's own status (Skip included). */
const preFilter = (state: CycleState, pod: Pod): Status | null => h.runPreFilter(state, pod).pluginStatus;
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
    const state = h.newCycleState();
    expect(h.preEnqueue(pod)).toBeNull();
    expect(statusSummary(preFilter(state, pod))).toEqual({
      code: "Skip",
      reasons: [],
    });
    // 1.37 (kubernetes/kubernetes#140222): Unschedulable without the no-op reason.
    expect(statusSummary(pl.postFilter(state, pod, new NodeToStatus()).status)).toEqual({
      code: "Unschedulable",
      reasons: [],
    });
    expect(statusSummary(pl.preScore(state, pod, nodeInfos))).toEqual({
      code: "Skip",
      reasons: [],
    });
    expect(pl.reserve(state, pod, "worker")).toBeNull();
    expect(statusSummary(pl.preBindPreFlight(state, pod, "worker"))).toEqual({
      code: "Skip",
      reasons: [],
    });
    expect(await pl.preBind(state, pod, "worker")).toBeNull();
  });

  it("empty, 1.34–1.36: PostFilter says there are no new claims to deallocate", async () => {
    const at136 = await createPluginHarness({
      plugin: dynamicResourcesPlugin,
      nodes: [makeNode().name("worker").obj()],
      kubernetesVersion: "1.36",
    });
    const pod = makePod().name("my-pod").namespace("default").obj();
    const state = at136.newCycleState();
    expect(statusSummary(preFilter(state, pod))).toEqual({ code: "Skip", reasons: [] });
    expect(
      statusSummary((at136.plugin as DynamicResources).postFilter(state, pod, new NodeToStatus()).status),
    ).toEqual({ code: "Unschedulable", reasons: ["no new claims to deallocate"] });
  });

  it("claim-reference, missing claim: gated in PreEnqueue", () => {
    expect(statusSummary(h.preEnqueue(podWithClaimName))).toEqual({
      code: "UnschedulableAndUnresolvable",
      reasons: ['resourceclaim.resource.k8s.io "my-pod-claim" not found'],
    });
    expect(statusSummary(preFilter(h.newCycleState(), podWithClaimName)).code).toBe(
      "UnschedulableAndUnresolvable",
    );
  });

  it("claim-template, claim not created yet: gated in PreEnqueue", () => {
    expect(statusSummary(h.preEnqueue(podWithTemplate))).toEqual({
      code: "UnschedulableAndUnresolvable",
      reasons: ['pod "default/my-pod": ResourceClaim not created yet'],
    });
  });

  it("claim-template, claim intentionally not created: nothing to do", () => {
    const pod = { ...podWithTemplate, status: { resourceClaimStatuses: [{ name: "my-pod-claim" }] } };
    expect(h.preEnqueue(pod)).toBeNull();
    expect(statusSummary(preFilter(h.newCycleState(), pod)).code).toBe("Skip");
  });

  it("claim with neither name nor template: API unsupported", () => {
    const pod = makePod().name("my-pod").namespace("default").podResourceClaims({ name: "c" }).obj();
    expect(statusSummary(h.preEnqueue(pod)).reasons).toEqual([
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
