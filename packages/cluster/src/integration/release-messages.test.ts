// The FailedScheduling wording of each release, through the assembled scheduler of the simulate
// path (openSimulation) with the release's default configuration and gates: the rows of
// @kubesched/config's releaseDifferences that change messages.
//  - 1.34–1.36: DynamicResources' PostFilter adds `no new claims to deallocate`; 1.37 keeps its
//    status without the reason (kubernetes/kubernetes#140222).
//  - 1.37: a preemption that chose a node says so, `preemption: found a potential placement for
//    pod on node X, preempting K victims` (kubernetes/kubernetes#140180); before, nothing.
import { defaultConfig, featuresAt, type Release } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { makeNode, makePod, recordingLogger } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { admit } from "../admission";
import { openSimulation } from "../simulate";
import { objectsOf } from "./integration-cluster.test-util";

/** The first FailedScheduling message of `preemptor` on a 4-CPU node with one low-priority 3-CPU victim. */
async function firstMessage(release: Release, preemptorPriority: number): Promise<string | undefined> {
  const features = featuresAt(release);
  const { session, pending } = await openSimulation(
    {
      config: defaultConfig({ registry: inTreeRegistry, features }),
      registry: inTreeRegistry,
      logger: recordingLogger(),
      features,
      kubernetesVersion: release,
    },
    admit(
      objectsOf({
        nodes: [makeNode().name("node").capacity({ cpu: "4", pods: "32" }).obj()],
        pods: [
          makePod().name("victim").namespace("default").req({ cpu: "3" }).priority(1).node("node").obj(),
          makePod()
            .name("preemptor")
            .namespace("default")
            .req({ cpu: "2" })
            .priority(preemptorPriority)
            .obj(),
        ],
      }),
    ),
  );
  for (const p of pending) session.addPending(p);
  await session.drain();
  // The FailedScheduling event, what `kubectl describe pod` shows.
  return session.cluster.events.find(
    (e) => e.reason === "FailedScheduling" && e.regarding.endsWith("/preemptor"),
  )?.note;
}

describe("FailedScheduling wording per release", () => {
  it("1.37 says where preemption found room; 1.34–1.36 say nothing after a successful preemption", async () => {
    expect(await firstMessage("1.37", 100)).toBe(
      "0/1 nodes are available: 1 Insufficient cpu. preemption: found a potential placement for pod on node node, preempting 1 victims",
    );
    for (const release of ["1.33", "1.35", "1.36"] as const) {
      expect(await firstMessage(release, 100), release).toBe("0/1 nodes are available: 1 Insufficient cpu.");
    }
  });

  it("1.34–1.36 add DynamicResources' `no new claims to deallocate`; 1.33 and 1.37 do not", async () => {
    const none = "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.";
    expect(await firstMessage("1.33", 1)).toBe(`0/1 nodes are available: 1 Insufficient cpu. ${none}`);
    for (const release of ["1.34", "1.35", "1.36"] as const) {
      expect(await firstMessage(release, 1), release).toBe(
        `0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, ${none}`,
      );
    }
    expect(await firstMessage("1.37", 1)).toBe(`0/1 nodes are available: 1 Insufficient cpu. ${none}`);
  });
});
