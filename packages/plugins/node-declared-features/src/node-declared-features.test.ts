// upstream: pkg/scheduler/framework/plugins/nodedeclaredfeatures/nodedeclaredfeatures_test.go
// (TestPreFilter, TestFilter, TestEnqueueExtensionsNodeUpdate, TestIsSchedulableAfterTargetPodUpdate,
// TestEventsToRegister)
import type { Node, Pod, PodSpec } from "@kubesched/api";
import {
  ActionType,
  definePlugin,
  EventResource,
  type PluginDescriptor,
  QueueingHint,
  type Status,
} from "@kubesched/framework";
import {
  createPluginHarness,
  makeNode,
  makePod,
  type StatusSummary,
  statusSummary,
} from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { isSchedulableAfterNodeChange, isSchedulableAfterTargetPodUpdate } from "./events";
import type { DeclaredFeature } from "./features";
import { nodeDeclaredFeaturesPlugin } from "./index";
import {
  getPreFilterState,
  NodeDeclaredFeatures,
  type NodeDeclaredFeaturesOptions,
  name,
} from "./node-declared-features";
import { ErrReasonUnsatisfiedRequirements } from "./reasons";
import { parseVersion, type Version } from "./version";

/** upstream st.MakeNode().DeclaredFeatures(...): sets node.status.declaredFeatures. */
function withDeclaredFeatures(node: Node, features: string[]): Node {
  return { ...node, status: { ...node.status, declaredFeatures: features } };
}

/** upstream createMockFeature: a feature whose inference result is fixed (or computed). */
function mockFeature(
  featureName: string,
  infer: boolean | ((spec: PodSpec) => boolean),
  maxVersion = "",
): DeclaredFeature {
  return {
    name: featureName,
    maxVersion: maxVersion === "" ? null : parseVersion(maxVersion),
    inferForScheduling: typeof infer === "boolean" ? () => infer : infer,
  };
}

/** A descriptor building the plugin over a given feature registry and version (upstream builds the struct). */
function pluginWith(opts: NodeDeclaredFeaturesOptions): PluginDescriptor<undefined> {
  return definePlugin<undefined>({ name, factory: () => new NodeDeclaredFeatures(opts) });
}

const success: StatusSummary = { code: "Success", reasons: [] };

describe("TestPreFilter", () => {
  const feature1 = "TestFeature1";
  const feature2 = "TestFeature2";
  const tests: {
    name: string;
    pluginEnabled: boolean;
    pod: Pod;
    nodeFeatures: DeclaredFeature[];
    expectedStatus: StatusSummary;
    expectedState: string[] | null;
    componentVersion: string;
  }[] = [
    {
      name: "plugin disabled",
      pluginEnabled: false,
      pod: makePod().name("test-pod").obj(),
      componentVersion: "1.35.0",
      nodeFeatures: [mockFeature(feature1, true), mockFeature(feature2, false)],
      expectedStatus: { code: "Skip", reasons: [] },
      expectedState: null,
    },
    {
      name: "Pod with feature requirements",
      pluginEnabled: true,
      pod: makePod().name("test-pod").obj(),
      componentVersion: "1.35.0",
      nodeFeatures: [mockFeature(feature1, true), mockFeature(feature2, false)],
      expectedStatus: success,
      expectedState: [feature1],
    },
    {
      name: "Pod with multiple feature requirements",
      pluginEnabled: true,
      pod: makePod().name("test-pod").obj(),
      componentVersion: "1.35.0",
      nodeFeatures: [mockFeature(feature1, true, "1.38.0"), mockFeature(feature2, true, "1.38.0")],
      expectedStatus: success,
      expectedState: [feature1, feature2],
    },
    {
      name: "Pod with no requirements",
      pluginEnabled: true,
      pod: makePod().name("test-pod").obj(),
      componentVersion: "1.35.0",
      nodeFeatures: [mockFeature(feature1, false), mockFeature(feature2, false)],
      expectedStatus: { code: "Skip", reasons: [] },
      expectedState: null,
    },
    {
      name: "Feature not required, version > MaxVersion",
      pluginEnabled: true,
      pod: makePod().name("test-pod").obj(),
      componentVersion: "1.34.0",
      nodeFeatures: [mockFeature(feature1, true, "1.33.0"), mockFeature(feature2, false)],
      expectedStatus: { code: "Skip", reasons: [] },
      expectedState: null,
    },
  ];
  for (const tc of tests) {
    it(tc.name, async () => {
      const h = await createPluginHarness({
        plugin: pluginWith({
          enabled: tc.pluginEnabled,
          registry: tc.nodeFeatures,
          version: parseVersion(tc.componentVersion),
        }),
        // Not upstream's (its PreFilter sees no nodes): one node, so that the engine's cycle
        // gets to PreFilter and the conformance suite compares it.
        nodes: [makeNode().name("node").obj()],
      });
      const state = h.newCycleState();
      const pre = h.runPreFilter(state, tc.pod);
      // PreFilter never narrows the nodes: its result is always a status (or null).
      expect(pre.result).toBeNull();
      expect(statusSummary(pre.pluginStatus)).toEqual(tc.expectedStatus);
      if (tc.expectedState !== null) {
        expect(getPreFilterState(state).reqs).toEqual(tc.expectedState);
      } else {
        expect(() => getPreFilterState(state)).toThrow(
          'error reading "PreFilterNodeDeclaredFeatures" from cycle-state: not found',
        );
      }
    });
  }
});

describe("TestFilter", () => {
  const featureA = "FeatureA";
  const featureB = "FeatureB";
  const featureC = "FeatureC";
  const tests: {
    name: string;
    pluginEnabled: boolean;
    pod: Pod;
    node: Node;
    preFilterReqs: string[] | null;
    expectedStatus: StatusSummary;
  }[] = [
    {
      name: "plugin disabled",
      pluginEnabled: false,
      pod: makePod().name("test-pod").obj(),
      node: withDeclaredFeatures(makeNode().name("node-1").obj(), [featureA, featureB]),
      preFilterReqs: null,
      expectedStatus: success,
    },
    {
      name: "Node matches requirements",
      pluginEnabled: true,
      pod: makePod().name("test-pod").obj(),
      node: withDeclaredFeatures(makeNode().name("node-1").obj(), [featureA, featureB]),
      preFilterReqs: [featureA],
      expectedStatus: success,
    },
    {
      name: "Node does not match requirements",
      pluginEnabled: true,
      pod: makePod().name("test-pod").obj(),
      node: withDeclaredFeatures(makeNode().name("node-1").obj(), [featureB]),
      preFilterReqs: [featureA],
      expectedStatus: { code: "UnschedulableAndUnresolvable", reasons: [ErrReasonUnsatisfiedRequirements] },
    },
    {
      // upstream leaves pluginEnabled unset (false) here: the disabled plugin lets the pod through.
      name: "Node with multiple features, pod requires subset",
      pluginEnabled: false,
      pod: makePod().name("test-pod").obj(),
      node: withDeclaredFeatures(makeNode().name("node-multi").obj(), [featureA, featureB, featureC]),
      preFilterReqs: [featureA, featureC],
      expectedStatus: success,
    },
    {
      name: "Node has no declared features",
      pluginEnabled: true,
      pod: makePod().name("test-pod").obj(),
      node: makeNode().name("node-1").obj(),
      preFilterReqs: [featureA],
      expectedStatus: { code: "UnschedulableAndUnresolvable", reasons: [ErrReasonUnsatisfiedRequirements] },
    },
    {
      name: "Node with some but not all required features",
      pluginEnabled: true,
      pod: makePod().name("test-pod").obj(),
      node: withDeclaredFeatures(makeNode().name("node-1").obj(), [featureA]),
      preFilterReqs: [featureA, featureB],
      expectedStatus: { code: "UnschedulableAndUnresolvable", reasons: [ErrReasonUnsatisfiedRequirements] },
    },
    {
      name: "Error getting pre-filter state",
      pluginEnabled: true,
      pod: makePod().name("test-pod").obj(),
      node: makeNode().name("node-1").obj(),
      preFilterReqs: null, // PreFilter does not run: the state is missing
      // Through the runtime, an Error from Filter is prefixed with the plugin (upstream RunFilterPlugins).
      expectedStatus: {
        code: "Error",
        reasons: [
          'running "NodeDeclaredFeatures" filter plugin: error reading "PreFilterNodeDeclaredFeatures" from cycle-state: not found',
        ],
      },
    },
  ];
  for (const tc of tests) {
    it(tc.name, async () => {
      // Features A, B and C are required exactly when the case says so (upstream writes the state directly).
      const reqs = tc.preFilterReqs ?? [];
      const registry = [featureA, featureB, featureC].map((f) => mockFeature(f, () => reqs.includes(f)));
      const h = await createPluginHarness({
        plugin: pluginWith({ enabled: tc.pluginEnabled, registry, version: parseVersion("1.35.0") }),
        nodes: [tc.node],
      });
      const nodeName = tc.node.metadata?.name ?? "";
      let got: Status | null;
      if (tc.preFilterReqs === null) {
        got = h.runFilter(h.newCycleState(), tc.pod, nodeName);
      } else {
        const out = h.filter(tc.pod);
        expect(statusSummary(out.preFilter.status)).toEqual(success);
        got = out.statuses.get(nodeName) ?? null;
      }
      expect(statusSummary(got)).toEqual(tc.expectedStatus);
    });
  }
});

describe("TestEnqueueExtensionsNodeUpdate", () => {
  const targetPodName = "test-pod";
  const tests: { name: string; oldNode: Node | undefined; newNode: Node; expectedHint: QueueingHint }[] = [
    {
      name: "Node Add with feature",
      oldNode: undefined,
      newNode: withDeclaredFeatures(makeNode().name("node-1").obj(), ["FeatureA"]),
      expectedHint: QueueingHint.Queue,
    },
    {
      name: "Node Update (Features Added)",
      oldNode: makeNode().name("node-1").obj(),
      newNode: withDeclaredFeatures(makeNode().name("node-1").obj(), ["FeatureA"]),
      expectedHint: QueueingHint.Queue,
    },
    {
      name: "Node Update (Features Unchanged)",
      oldNode: withDeclaredFeatures(makeNode().name("node-1").obj(), ["FeatureA"]),
      newNode: withDeclaredFeatures(makeNode().name("node-1").obj(), ["FeatureA"]),
      expectedHint: QueueingHint.QueueSkip,
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const pod = makePod().name(targetPodName).obj();
      expect(isSchedulableAfterNodeChange(pod, tc.oldNode, tc.newNode)).toBe(tc.expectedHint);
    });
  }
});

describe("TestIsSchedulableAfterTargetPodUpdate", () => {
  const targetPodName = "test-pod";
  const targetPodUID = "123";
  /** A feature whose inference answers `answers` in call order (upstream's call-counting mock). */
  const sequence = (answers: boolean[]): DeclaredFeature => {
    let i = 0;
    return mockFeature("TestFeature", () => {
      if (i >= answers.length) throw new Error("unexpected calls to SetInferForScheduling");
      return answers[i++] as boolean;
    });
  };
  const tests: {
    name: string;
    oldPod: Pod;
    newPod: Pod;
    feature: () => DeclaredFeature;
    componentVersion: Version | null;
    expectedHint: QueueingHint;
    expectedErr?: string;
  }[] = [
    {
      name: "Pod Update adds requirement",
      oldPod: makePod().name(targetPodName).uid(targetPodUID).obj(),
      newPod: makePod().name(targetPodName).uid(targetPodUID).label("foo", "bar").obj(),
      componentVersion: parseVersion("1.35.0"),
      feature: () => sequence([false, true]),
      expectedHint: QueueingHint.Queue,
    },
    {
      name: "Pod Update removes requirement",
      oldPod: makePod().name(targetPodName).uid(targetPodUID).label("foo", "bar").obj(),
      newPod: makePod().name(targetPodName).uid(targetPodUID).obj(),
      componentVersion: parseVersion("1.35.0"),
      feature: () => sequence([true, false]),
      expectedHint: QueueingHint.Queue,
    },
    {
      name: "Pod Update with no change in requirements",
      oldPod: makePod().name(targetPodName).uid(targetPodUID).obj(),
      newPod: makePod().name(targetPodName).uid(targetPodUID).obj(),
      componentVersion: parseVersion("1.35.0"),
      feature: () => mockFeature("TestFeature", false),
      expectedHint: QueueingHint.QueueSkip,
    },
    {
      name: "Infer returns error",
      oldPod: makePod().name(targetPodName).uid(targetPodUID).obj(),
      newPod: makePod().name(targetPodName).uid(targetPodUID).label("foo", "bar").obj(),
      componentVersion: null,
      feature: () => mockFeature("TestFeature", true),
      expectedHint: QueueingHint.Queue, // Queued again in case of error
      expectedErr: "target version cannot be nil",
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const hint = isSchedulableAfterTargetPodUpdate([tc.feature()], tc.componentVersion);
      const pod = makePod().name(targetPodName).uid(targetPodUID).obj();
      if (tc.expectedErr !== undefined) {
        // A hint that throws counts as Queue (the queue's contract, upstream's error + Queue).
        expect(tc.expectedHint).toBe(QueueingHint.Queue);
        expect(() => hint(pod, tc.oldPod, tc.newPod)).toThrow(tc.expectedErr);
      } else {
        expect(hint(pod, tc.oldPod, tc.newPod)).toBe(tc.expectedHint);
      }
    });
  }
});

describe("TestEventsToRegister", () => {
  const tests: { name: string; enabled: boolean; expectedLength: number }[] = [
    { name: "plugin disabled", enabled: false, expectedLength: 0 },
    { name: "plugin enabled", enabled: true, expectedLength: 2 },
  ];
  for (const tt of tests) {
    it(tt.name, async () => {
      const h = await createPluginHarness({
        plugin: nodeDeclaredFeaturesPlugin,
        features: { enableNodeDeclaredFeatures: tt.enabled },
      });
      const events = (h.plugin as NodeDeclaredFeatures).eventsToRegister();
      expect(events).toHaveLength(tt.expectedLength);
      if (tt.enabled) {
        expect(events.map((e) => e.event)).toEqual([
          { resource: EventResource.Node, actionType: ActionType.Add | ActionType.UpdateNodeDeclaredFeature },
          { resource: EventResource.TargetPod, actionType: ActionType.Update },
        ]);
      }
    });
  }
});
