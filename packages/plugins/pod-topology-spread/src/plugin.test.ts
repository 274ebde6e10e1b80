// Ported from upstream pkg/scheduler/framework/plugins/podtopologyspread/plugin_test.go (queueing
// hints). Upstream's newest plugin splits Test_isSchedulableAfterPodChange into an AssignedPod hint and
// a TargetPod hint; each case goes to the hint registered for its event (the target pod's own updates
// have its UID).
import type { Node, Pod } from "@kubesched/api";
import { ActionType, EventResource, QueueingHint } from "@kubesched/framework";
import { makeNode, makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { barSelector, fooSelector } from "./test-fixtures";
import { setup } from "./test-harness";

const Queue = QueueingHint.Queue;
const QueueSkip = QueueingHint.QueueSkip;

async function hintFor(resource: string, enableNodeInclusionPolicy = true) {
  const s = await setup({
    args: { defaultingType: "List" },
    features: { enableNodeInclusionPolicyInPodTopologySpread: enableNodeInclusionPolicy },
  });
  const e = s.plugin.eventsToRegister().find((x) => x.event.resource === resource);
  if (!e?.queueingHintFn) throw new Error(`no hint for ${resource}`);
  return e.queueingHintFn;
}

describe("EventsToRegister", () => {
  it("registers assigned pods, the target pod and nodes, as upstream", async () => {
    const s = await setup({ args: { defaultingType: "List" } });
    expect(s.plugin.eventsToRegister().map((e) => e.event)).toEqual([
      {
        resource: EventResource.AssignedPod,
        actionType: ActionType.Add | ActionType.UpdatePodLabel | ActionType.Delete,
      },
      {
        resource: EventResource.TargetPod,
        actionType: ActionType.UpdatePodToleration | ActionType.UpdatePodLabel,
      },
      {
        resource: EventResource.Node,
        actionType:
          ActionType.Add | ActionType.Delete | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint,
      },
    ]);
  });
});

const zonePod = () => makePod().name("p").spreadConstraint(1, "zone", "DoNotSchedule", fooSelector).obj();
const zoneNodePod = () =>
  makePod()
    .name("p")
    .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector)
    .spreadConstraint(1, "node", "DoNotSchedule", fooSelector)
    .obj();
const n = (labels: Record<string, string>, taintKey?: string): Node => {
  const b = makeNode().name("node-a").labels(labels);
  if (taintKey) b.taints([{ key: taintKey, value: "bbb", effect: "NoSchedule" }]);
  return b.obj();
};

describe("Test_isSchedulableAfterNodeChange", () => {
  const cases: { name: string; pod: Pod; oldNode?: Node; newNode?: Node; expectedHint: QueueingHint }[] = [
    {
      name: "node updates label which matches topologyKey",
      pod: zonePod(),
      oldNode: n({ zone: "zone1" }),
      newNode: n({ zone: "zone2" }),
      expectedHint: Queue,
    },
    {
      name: "node that doesn't match topologySpreadConstraints updates non-related label",
      pod: zonePod(),
      oldNode: n({ foo: "bar1" }),
      newNode: n({ foo: "bar2" }),
      expectedHint: QueueSkip,
    },
    {
      name: "node that match topologySpreadConstraints adds non-related label",
      pod: zoneNodePod(),
      oldNode: n({ zone: "zone1", node: "node1", foo: "bar" }),
      newNode: n({ zone: "zone1", node: "node1" }),
      expectedHint: QueueSkip,
    },
    {
      name: "create node with non-related labels",
      pod: zonePod(),
      newNode: n({ foo: "bar" }),
      expectedHint: QueueSkip,
    },
    {
      name: "create node with related labels",
      pod: zonePod(),
      newNode: n({ zone: "zone1" }),
      expectedHint: Queue,
    },
    {
      name: "delete node with non-related labels",
      pod: zonePod(),
      oldNode: n({ foo: "bar" }),
      expectedHint: QueueSkip,
    },
    {
      name: "delete node with related labels",
      pod: zonePod(),
      oldNode: n({ zone: "zone1" }),
      expectedHint: Queue,
    },
    {
      name: "add node with related labels that only match one of topologySpreadConstraints",
      pod: zoneNodePod(),
      newNode: n({ zone: "zone1" }),
      expectedHint: QueueSkip,
    },
    {
      name: "add node with related labels that match all topologySpreadConstraints",
      pod: zoneNodePod(),
      newNode: n({ zone: "zone1", node: "node1" }),
      expectedHint: Queue,
    },
    {
      name: "update node with related labels that only match one of topologySpreadConstraints",
      pod: zoneNodePod(),
      oldNode: n({ zone: "zone1" }),
      newNode: n({ zone: "zone1" }),
      expectedHint: QueueSkip,
    },
    {
      name: "update node with related labels that match all topologySpreadConstraints",
      pod: zoneNodePod(),
      oldNode: n({ zone: "zone1", node: "node1" }),
      newNode: n({ zone: "zone1", node: "node2" }),
      expectedHint: Queue,
    },
    {
      name: "update node with different taints that match all topologySpreadConstraints",
      pod: zoneNodePod(),
      oldNode: n({ zone: "zone1", node: "node1" }, "aaa"),
      newNode: n({ zone: "zone1", node: "node1" }, "ccc"),
      expectedHint: Queue,
    },
    {
      name: "update node with different taints that only match one of topologySpreadConstraints",
      pod: zoneNodePod(),
      oldNode: n({ node: "node1" }, "aaa"),
      newNode: n({ node: "node1" }, "ccc"),
      expectedHint: QueueSkip,
    },
  ];
  it.each(cases)("$name", async (tc) => {
    expect((await hintFor(EventResource.Node))(tc.pod, tc.oldNode, tc.newNode)).toBe(tc.expectedHint);
  });
});

const fooPod = () =>
  makePod()
    .uid("p")
    .name("p")
    .label("foo", "")
    .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector)
    .obj();
const fooBarPod = () =>
  makePod()
    .uid("p")
    .name("p")
    .label("foo", "")
    .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector)
    .spreadConstraint(1, "node", "DoNotSchedule", barSelector)
    .obj();
const p2 = (labels: Record<string, string>, nodeName?: string, namespace?: string): Pod => {
  const b = makePod().uid("p2").labels(labels);
  if (nodeName) b.node(nodeName);
  if (namespace) b.namespace(namespace);
  return b.obj();
};
const targetPod = (taintsPolicy: "Honor" | "Ignore") =>
  makePod()
    .uid("p")
    .name("p")
    .label("foo", "")
    .spreadConstraint(1, "zone", "DoNotSchedule", fooSelector, null, null, taintsPolicy)
    .spreadConstraint(1, "node", "DoNotSchedule", barSelector)
    .obj();
const self = (labels: Record<string, string>, toleration?: string): Pod => {
  const b = makePod().uid("p").name("p").labels(labels);
  if (toleration) b.toleration(toleration);
  return b.obj();
};

describe("Test_isSchedulableAfterPodChange", () => {
  const F = "fake-node";
  const cases: {
    name: string;
    pod: Pod;
    oldPod?: Pod;
    newPod?: Pod;
    expectedHint: QueueingHint;
    enableNodeInclusionPolicyInPodTopologySpread?: boolean;
  }[] = [
    {
      name: "add pod with labels match topologySpreadConstraints selector",
      pod: fooPod(),
      newPod: p2({ foo: "" }, F),
      expectedHint: Queue,
    },
    { name: "add un-scheduled pod", pod: fooPod(), newPod: p2({ foo: "" }), expectedHint: QueueSkip },
    {
      name: "update un-scheduled pod",
      pod: fooPod(),
      newPod: p2({ foo: "" }),
      oldPod: p2({ bar: "" }),
      expectedHint: QueueSkip,
    },
    { name: "delete un-scheduled pod", pod: fooPod(), oldPod: p2({ foo: "" }), expectedHint: QueueSkip },
    {
      name: "add pod with different namespace",
      pod: fooPod(),
      newPod: p2({ foo: "" }, F, "fake-namespace"),
      expectedHint: QueueSkip,
    },
    {
      name: "add pod with labels don't match topologySpreadConstraints selector",
      pod: fooPod(),
      newPod: p2({ bar: "" }, F),
      expectedHint: QueueSkip,
    },
    {
      name: "delete pod with labels that match topologySpreadConstraints selector",
      pod: fooPod(),
      oldPod: p2({ foo: "" }, F),
      expectedHint: Queue,
    },
    {
      name: "delete pod with labels that don't match topologySpreadConstraints selector",
      pod: fooPod(),
      oldPod: p2({ bar: "" }, F),
      expectedHint: QueueSkip,
    },
    {
      name: "update pod's non-related label",
      pod: fooPod(),
      oldPod: p2({ foo: "", bar: "bar1" }, F),
      newPod: p2({ foo: "", bar: "bar2" }, F),
      expectedHint: QueueSkip,
    },
    {
      name: "add pod's label that matches topologySpreadConstraints selector",
      pod: fooPod(),
      oldPod: p2({}, F),
      newPod: p2({ foo: "" }, F),
      expectedHint: Queue,
    },
    {
      name: "delete pod label that matches topologySpreadConstraints selector",
      pod: fooPod(),
      oldPod: p2({ foo: "" }, F),
      newPod: p2({}, F),
      expectedHint: Queue,
    },
    {
      name: "change pod's label that matches topologySpreadConstraints selector",
      pod: fooPod(),
      oldPod: p2({ foo: "foo1" }, F),
      newPod: p2({ foo: "foo2" }, F),
      expectedHint: QueueSkip,
    },
    {
      name: "change pod's label that doesn't match topologySpreadConstraints selector",
      pod: fooPod(),
      oldPod: p2({ foo: "", bar: "bar1" }, F),
      newPod: p2({ foo: "", bar: "bar2" }, F),
      expectedHint: QueueSkip,
    },
    {
      name: "add pod's label that matches topologySpreadConstraints selector with multi topologySpreadConstraints",
      pod: fooBarPod(),
      oldPod: p2({ foo: "" }, F),
      newPod: p2({ foo: "", bar: "bar2" }, F),
      expectedHint: Queue,
    },
    {
      name: "change pod's label that doesn't match topologySpreadConstraints selector with multi topologySpreadConstraints",
      pod: fooBarPod(),
      oldPod: p2({ foo: "" }, F),
      newPod: p2({ foo: "", baz: "" }, F),
      expectedHint: QueueSkip,
    },
    {
      name: "change pod's label that match topologySpreadConstraints selector with multi topologySpreadConstraints",
      pod: fooBarPod(),
      oldPod: p2({ foo: "", bar: "" }, F),
      newPod: p2({ foo: "", bar: "bar2" }, F),
      expectedHint: QueueSkip,
    },
    {
      name: "the unschedulable Pod has topologySpreadConstraint with NodeTaintsPolicy:Honor and has got a new toleration",
      pod: targetPod("Honor"),
      oldPod: self({ foo: "" }),
      newPod: self({ foo: "" }, "node.kubernetes.io/unschedulable"),
      expectedHint: Queue,
      enableNodeInclusionPolicyInPodTopologySpread: true,
    },
    {
      name: "the unschedulable Pod has topologySpreadConstraint without NodeTaintsPolicy:Honor and has got a new toleration",
      pod: targetPod("Ignore"),
      oldPod: self({ foo: "" }),
      newPod: self({ foo: "" }, "node.kubernetes.io/unschedulable"),
      expectedHint: QueueSkip,
    },
    {
      name: "the unschedulable Pod has topologySpreadConstraint and has got a new label matching the selector of the constraint",
      pod: targetPod("Ignore"),
      oldPod: self({}),
      newPod: self({ foo: "" }),
      expectedHint: Queue,
    },
    {
      name: "the unschedulable Pod has topologySpreadConstraint and has got a new unrelated label",
      pod: targetPod("Ignore"),
      oldPod: self({}),
      newPod: self({ unrelated: "" }),
      expectedHint: QueueSkip,
    },
  ];
  it.each(cases)("$name", async (tc) => {
    const isTarget = (tc.newPod ?? tc.oldPod)?.metadata?.uid === tc.pod.metadata?.uid;
    const hint = await hintFor(
      isTarget ? EventResource.TargetPod : EventResource.AssignedPod,
      tc.enableNodeInclusionPolicyInPodTopologySpread ?? false,
    );
    expect(hint(tc.pod, tc.oldPod, tc.newPod)).toBe(tc.expectedHint);
  });
});
