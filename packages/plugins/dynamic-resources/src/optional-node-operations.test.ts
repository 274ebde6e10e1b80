// DRAOptionalNodeOperations, Filter side (KEP-5945, "Node Declared Features Integration", the
// second check): a claim already allocated with devices that skip node operations rejects a node
// that does not declare DRAOptionalNodeOperations. Own cases (the upstream Filter code and its
// unit tests are not in the code-search index; test/integration/dra optional_node_operations.go
// @6732d913 checks the same through its podgroup-* subtests, see packages/cluster).
import type { Node, ResourceClaim } from "@kubesched/api";
import { describe, it } from "vitest";
import { runTestPluginCase } from "./plugin-test-runner";
import { ErrReasonOptionalNodeOperationsUnsupported } from "./reasons";
import {
  allocated,
  allocatedClaim,
  allocationResult,
  podWithClaimName,
  reserve,
  workerNode,
} from "./test-fixtures";

/** The allocated claim, its device's result copying a slice's `skipNodeOperations`. */
const skippingClaim: ResourceClaim = allocated(allocatedClaim, {
  ...allocationResult,
  devices: {
    results: (allocationResult.devices?.results ?? []).map((r) => ({ ...r, skipNodeOperations: ["*"] })),
  },
});
const declaring: Node = {
  ...workerNode,
  status: { ...workerNode.status, declaredFeatures: ["DRAOptionalNodeOperations"] },
};
const prebindOf = (claim: ResourceClaim) => ({
  prebind: { assumedClaim: reserve(claim), changes: (c: ResourceClaim) => reserve(c) },
});

describe("DynamicResources Filter: an allocated claim that skips node operations", () => {
  it("rejects a node that does not declare DRAOptionalNodeOperations", async () => {
    await runTestPluginCase({
      features: { enableDRAOptionalNodeOperations: true },
      pod: podWithClaimName,
      claims: [skippingClaim],
      want: {
        filter: {
          worker: {
            status: {
              code: "UnschedulableAndUnresolvable",
              message: ErrReasonOptionalNodeOperationsUnsupported,
            },
          },
        },
        // Not an unavailable claim: PostFilter has nothing to deallocate.
        postfilter: { status: { code: "Unschedulable", message: "" } },
      },
    });
  });

  it("accepts a node declaring the feature", async () => {
    await runTestPluginCase({
      features: { enableDRAOptionalNodeOperations: true },
      nodes: [declaring],
      pod: podWithClaimName,
      claims: [skippingClaim],
      want: prebindOf(skippingClaim),
    });
  });

  it("a claim whose devices skip nothing does not need the feature", async () => {
    await runTestPluginCase({
      features: { enableDRAOptionalNodeOperations: true },
      pod: podWithClaimName,
      claims: [allocatedClaim],
      want: prebindOf(allocatedClaim),
    });
  });

  it("with the gate off the field is not read (as the allocator)", async () => {
    await runTestPluginCase({
      features: { enableDRAOptionalNodeOperations: false },
      pod: podWithClaimName,
      claims: [skippingClaim],
      want: prebindOf(skippingClaim),
    });
  });

  it("with DRAPreemption the status is Unschedulable, as the plugin's other rejections", async () => {
    await runTestPluginCase({
      features: { enableDRAOptionalNodeOperations: true, enableDRAPreemption: true },
      pod: podWithClaimName,
      claims: [skippingClaim],
      want: {
        filter: {
          worker: { status: { code: "Unschedulable", message: ErrReasonOptionalNodeOperationsUnsupported } },
        },
        postfilter: { status: { code: "Unschedulable", message: "" } },
      },
    });
  });
});
