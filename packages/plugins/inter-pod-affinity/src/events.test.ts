// upstream: pkg/scheduler/framework/plugins/interpodaffinity/plugin_test.go
import type { Node, Pod } from "@kubesched/api";
import { ActionType, EventResource, QueueingHint } from "@kubesched/framework";
import {
  PodAffinityWithRequiredReq as affReq,
  PodAntiAffinityWithRequiredReq as antiReq,
  createPluginHarness,
  makeNode,
  makePod,
} from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import {
  isSchedulableAfterAssignedPodChange,
  isSchedulableAfterNodeChange,
  isSchedulableAfterTargetPodUpdateLabel,
} from "./events";
import { interPodAffinityPlugin } from "./index";
import type { InterPodAffinity } from "./inter-pod-affinity";

const { Queue, QueueSkip } = QueueingHint;

describe("Test_isSchedulableAfterPodChange", () => {
  const affinityPod = () =>
    makePod().uid("p").name("p").podAffinityIn("service", "region", ["securityscan", "value2"], affReq).obj();
  const antiAffinityPod = () =>
    makePod()
      .uid("p")
      .name("p")
      .podAntiAffinityIn("service", "region", ["securityscan", "value2"], antiReq)
      .obj();
  const multiTermPod = () =>
    makePod()
      .uid("p")
      .name("p")
      .podAffinityExists("aaa", "hostname", affReq)
      .podAffinityExists("bbb", "hostname", affReq)
      .obj();

  const tests: {
    name: string;
    pod: Pod;
    oldPod?: Pod;
    newPod?: Pod;
    expectedHint: QueueingHint;
    target?: boolean;
  }[] = [
    {
      name: "add a pod which matches the pod affinity",
      pod: affinityPod(),
      newPod: makePod().uid("other").node("fake-node").label("service", "securityscan").obj(),
      expectedHint: Queue,
    },
    {
      name: "add an un-scheduled pod",
      pod: affinityPod(),
      newPod: makePod().uid("other").label("service", "securityscan").obj(),
      expectedHint: QueueSkip,
    },
    {
      name: "add a pod which doesn't match the pod affinity",
      pod: affinityPod(),
      newPod: makePod().uid("other").node("fake-node").label("aaa", "a").obj(),
      expectedHint: QueueSkip,
    },
    {
      name: "update a pod from non-match to match pod affinity",
      pod: affinityPod(),
      newPod: makePod().uid("other").node("fake-node").label("service", "securityscan").obj(),
      oldPod: makePod().uid("other").node("fake-node").label("aaa", "a").obj(),
      expectedHint: Queue,
    },
    {
      name: "the updating pod matches target pod's affinity both before and after label changes",
      pod: affinityPod(),
      newPod: makePod().uid("other").node("fake-node").label("service", "securityscan").obj(),
      oldPod: makePod().uid("other").node("fake-node").label("service", "value2").obj(),
      expectedHint: QueueSkip,
    },
    {
      name: "update an un-scheduled pod",
      pod: affinityPod(),
      newPod: makePod().uid("other").label("service", "securityscan").obj(),
      oldPod: makePod().uid("other").label("aaa", "a").obj(),
      expectedHint: QueueSkip,
    },
    {
      name: "update a pod from match to non-match the pod affinity",
      pod: affinityPod(),
      newPod: makePod().uid("other").node("fake-node").label("aaa", "a").obj(),
      oldPod: makePod().uid("other").node("fake-node").label("service", "securityscan").obj(),
      expectedHint: QueueSkip,
    },
    {
      name: "update a pod from match to non-match pod's affinity - multiple terms case",
      pod: multiTermPod(),
      newPod: makePod().uid("other").node("fake-node").label("service", "securityscan").obj(),
      oldPod: makePod().uid("other").node("fake-node").label("aaa", "a").obj(),
      expectedHint: QueueSkip,
    },
    {
      name: "update a pod from non-match to match pod's affinity - multiple terms case",
      pod: multiTermPod(),
      newPod: makePod().uid("other").node("fake-node").label("aaa", "").label("bbb", "").obj(),
      oldPod: makePod().uid("other").node("fake-node").label("aaa", "a").obj(),
      expectedHint: Queue,
    },
    {
      // Newest upstream routes the target pod's own label change to its TargetPod event.
      name: "updated pod is the target pod",
      pod: makePod().uid("p").name("p").label("foo", "baz").obj(),
      newPod: makePod().uid("p").name("p").label("foo", "baz").obj(),
      oldPod: makePod().uid("p").name("p").label("foo", "bar").obj(),
      expectedHint: Queue,
      target: true,
    },
    {
      name: "modify pod label to change it from satisfying pod anti-affinity to not satisfying anti-affinity",
      pod: antiAffinityPod(),
      newPod: makePod().uid("other").node("fake-node").label("service", "aaaa").obj(),
      oldPod: makePod().uid("other").node("fake-node").label("service", "securityscan").obj(),
      expectedHint: Queue,
    },
    {
      name: "modify pod label to change it from not satisfying pod anti-affinity to satisfying anti-affinity",
      pod: antiAffinityPod(),
      newPod: makePod().uid("other").node("fake-node").label("service", "securityscan").obj(),
      oldPod: makePod().uid("other").node("fake-node").label("service", "bbb").obj(),
      expectedHint: QueueSkip,
    },
    {
      name: "delete a pod which doesn't match pod's anti-affinity",
      pod: antiAffinityPod(),
      oldPod: makePod().uid("other").node("fake-node").label("aaa", "a").obj(),
      expectedHint: QueueSkip,
    },
    {
      name: "delete a pod which matches pod's anti-affinity",
      pod: antiAffinityPod(),
      oldPod: makePod().uid("other").node("fake-node").label("service", "securityscan").obj(),
      expectedHint: Queue,
    },
    {
      name: "delete a pod with anti-affinity that matches pending pod",
      pod: makePod().name("p").label("service", "securityscan").obj(),
      oldPod: makePod()
        .node("fake-node")
        .podAntiAffinityIn("service", "region", ["securityscan", "value2"], antiReq)
        .obj(),
      expectedHint: Queue,
    },
    {
      name: "delete a pod with anti-affinity that doesn't match pending pod",
      pod: makePod().name("p").label("service", "foo").obj(),
      oldPod: makePod()
        .node("fake-node")
        .podAntiAffinityIn("service", "region", ["securityscan", "value2"], antiReq)
        .obj(),
      expectedHint: QueueSkip,
    },
    {
      name: "delete a pod which doesn't match pending pod's anti-affinity and has anti-affinity that doesn't match pending pod",
      pod: makePod()
        .name("p")
        .podAntiAffinityIn("service", "region", ["securityscan", "value2"], antiReq)
        .label("service", "foo")
        .obj(),
      oldPod: makePod()
        .node("fake-node")
        .podAntiAffinityIn("service", "region", ["securityscan", "value2"], antiReq)
        .label("service", "foo")
        .obj(),
      expectedHint: QueueSkip,
    },
  ];

  for (const tc of tests) {
    it(tc.name, () => {
      const hint = tc.target
        ? isSchedulableAfterTargetPodUpdateLabel()
        : isSchedulableAfterAssignedPodChange(tc.pod, tc.oldPod, tc.newPod);
      expect(hint).toBe(tc.expectedHint);
    });
  }
});

describe("Test_isSchedulableAfterNodeChange", () => {
  const affinityPod = (topologyKey: string) =>
    makePod().name("p").podAffinityIn("service", topologyKey, ["securityscan", "value2"], affReq).obj();
  const antiPod = () =>
    makePod()
      .name("p")
      .podAntiAffinity("zone", { matchLabels: { another: "label" } }, antiReq)
      .obj();

  const testcases: { name: string; pod: Pod; oldNode?: Node; newNode: Node; expectedHint: QueueingHint }[] = [
    // affinity
    {
      name: "add a new node with matched pod affinity topologyKey",
      pod: affinityPod("zone"),
      newNode: makeNode().name("node-a").label("zone", "zone1").obj(),
      expectedHint: Queue,
    },
    {
      name: "add a new node without matched topologyKey",
      pod: affinityPod("region"),
      newNode: makeNode().name("node-a").label("zone", "zone1").obj(),
      expectedHint: QueueSkip,
    },
    {
      name: "update node label but not topologyKey",
      pod: affinityPod("zone"),
      oldNode: makeNode().name("node-a").label("aaa", "a").obj(),
      newNode: makeNode().name("node-a").label("aaa", "b").obj(),
      expectedHint: QueueSkip,
    },
    {
      name: "update node label that isn't related to the pod affinity",
      pod: affinityPod("zone"),
      oldNode: makeNode().name("node-a").label("zone", "zone1").obj(),
      newNode: makeNode().name("node-a").label("zone", "zone1").label("unrelated-label", "unrelated").obj(),
      expectedHint: QueueSkip,
    },
    {
      name: "update node with different affinity topologyKey value",
      pod: affinityPod("zone"),
      oldNode: makeNode().name("node-a").label("zone", "zone1").obj(),
      newNode: makeNode().name("node-a").label("zone", "zone2").obj(),
      expectedHint: Queue,
    },
    {
      name: "update node to have the affinity topology label",
      pod: affinityPod("zone"),
      oldNode: makeNode().name("node-a").label("aaa", "a").obj(),
      newNode: makeNode().name("node-a").label("zone", "zone1").obj(),
      expectedHint: Queue,
    },
    // anti-affinity
    {
      name: "add a new node with matched pod anti-affinity topologyKey",
      pod: antiPod(),
      newNode: makeNode().name("node-a").label("zone", "zone1").obj(),
      expectedHint: Queue,
    },
    {
      name: "add a new node without matched pod anti-affinity topologyKey",
      pod: antiPod(),
      newNode: makeNode().name("node-a").obj(),
      expectedHint: Queue,
    },
    {
      name: "update node label that isn't related to the pod anti-affinity",
      pod: antiPod(),
      oldNode: makeNode().name("node-a").label("zone", "zone1").obj(),
      newNode: makeNode().name("node-a").label("zone", "zone1").label("unrelated-label", "unrelated").obj(),
      expectedHint: QueueSkip,
    },
    {
      name: "update node with different anti-affinity topologyKey value",
      pod: antiPod(),
      oldNode: makeNode().name("node-a").label("zone", "zone1").obj(),
      newNode: makeNode().name("node-a").label("zone", "zone2").obj(),
      expectedHint: Queue,
    },
    {
      name: "update node to have the anti-affinity topology label",
      pod: antiPod(),
      oldNode: makeNode().name("node-a").label("aaa", "a").obj(),
      newNode: makeNode().name("node-a").label("zone", "zone1").obj(),
      expectedHint: QueueSkip,
    },
    {
      name: "update node label not to have anti-affinity topology label",
      pod: antiPod(),
      oldNode: makeNode().name("node-a").label("zone", "zone1").obj(),
      newNode: makeNode().name("node-a").label("aaa", "a").obj(),
      expectedHint: Queue,
    },
  ];

  for (const tc of testcases) {
    it(tc.name, () => {
      expect(isSchedulableAfterNodeChange(tc.pod, tc.oldNode, tc.newNode)).toBe(tc.expectedHint);
    });
  }
});

describe("EventsToRegister", () => {
  it("registers assigned pod, target pod label and node events with hints", async () => {
    const h = await createPluginHarness({ plugin: interPodAffinityPlugin });
    const events = (h.plugin as InterPodAffinity).eventsToRegister();
    expect(events.map((e) => e.event)).toEqual([
      {
        resource: EventResource.AssignedPod,
        actionType: ActionType.Add | ActionType.UpdatePodLabel | ActionType.Delete,
      },
      { resource: EventResource.TargetPod, actionType: ActionType.UpdatePodLabel },
      { resource: EventResource.Node, actionType: ActionType.Add | ActionType.UpdateNodeLabel },
    ]);
    expect(events.every((e) => typeof e.queueingHintFn === "function")).toBe(true);
  });
});
