import type { Node, Pod } from "@kubesched/api";
import {
  makeLabelSelector,
  makePod,
  PodAffinityWithRequiredReq,
  PodAntiAffinityWithRequiredReq,
} from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { createImageExistenceMap, createUsedPVCSet, getNodeImageStates, newSnapshot } from "./snapshot";

const mb = 1024 * 1024;

describe("TestGetNodeImageStates", () => {
  const tests: {
    node: Node;
    imageExistenceMap: Map<string, Set<string>>;
    expected: Record<string, unknown>;
  }[] = [
    {
      node: {
        metadata: { name: "node-0" },
        status: {
          images: [
            { names: ["gcr.io/10:v1"], sizeBytes: 10 * mb },
            { names: ["gcr.io/200:v1"], sizeBytes: 200 * mb },
          ],
        },
      },
      imageExistenceMap: new Map([
        ["gcr.io/10:v1", new Set(["node-0", "node-1"])],
        ["gcr.io/200:v1", new Set(["node-0"])],
      ]),
      expected: {
        "gcr.io/10:v1": { size: 10 * mb, numNodes: 2 },
        "gcr.io/200:v1": { size: 200 * mb, numNodes: 1 },
      },
    },
    {
      node: { metadata: { name: "node-0" }, status: {} },
      imageExistenceMap: new Map([
        ["gcr.io/10:v1", new Set(["node-1"])],
        ["gcr.io/200:v1", new Set<string>()],
      ]),
      expected: {},
    },
  ];
  tests.forEach((tc, i) => {
    it(`case_${i}`, () => {
      expect(Object.fromEntries(getNodeImageStates(tc.node, tc.imageExistenceMap))).toEqual(tc.expected);
    });
  });
});

describe("TestCreateImageExistenceMap", () => {
  const tests: { nodes: Node[]; expected: Map<string, Set<string>> }[] = [
    {
      nodes: [
        {
          metadata: { name: "node-0" },
          status: { images: [{ names: ["gcr.io/10:v1"], sizeBytes: 10 * mb }] },
        },
        {
          metadata: { name: "node-1" },
          status: {
            images: [
              { names: ["gcr.io/10:v1"], sizeBytes: 10 * mb },
              { names: ["gcr.io/200:v1"], sizeBytes: 200 * mb },
            ],
          },
        },
      ],
      expected: new Map([
        ["gcr.io/10:v1", new Set(["node-0", "node-1"])],
        ["gcr.io/200:v1", new Set(["node-1"])],
      ]),
    },
    {
      nodes: [
        { metadata: { name: "node-0" }, status: {} },
        {
          metadata: { name: "node-1" },
          status: {
            images: [
              { names: ["gcr.io/10:v1"], sizeBytes: 10 * mb },
              { names: ["gcr.io/200:v1"], sizeBytes: 200 * mb },
            ],
          },
        },
      ],
      expected: new Map([
        ["gcr.io/10:v1", new Set(["node-1"])],
        ["gcr.io/200:v1", new Set(["node-1"])],
      ]),
    },
  ];
  tests.forEach((tc, i) => {
    it(`case_${i}`, () => {
      expect(createImageExistenceMap(tc.nodes)).toEqual(tc.expected);
    });
  });
});

describe("TestCreateUsedPVCSet", () => {
  const tests: { name: string; pods: Pod[]; expected: Set<string> }[] = [
    { name: "empty pods list", pods: [], expected: new Set() },
    {
      name: "pods not scheduled",
      pods: [makePod().name("foo").namespace("foo").obj(), makePod().name("bar").namespace("bar").obj()],
      expected: new Set(),
    },
    {
      name: "scheduled pods that do not use any PVC",
      pods: [
        makePod().name("foo").namespace("foo").node("node-1").obj(),
        makePod().name("bar").namespace("bar").node("node-2").obj(),
      ],
      expected: new Set(),
    },
    {
      name: "scheduled pods that use PVC",
      pods: [
        makePod().name("foo").namespace("foo").node("node-1").pvc("pvc1").obj(),
        makePod().name("bar").namespace("bar").node("node-2").pvc("pvc2").obj(),
      ],
      expected: new Set(["foo/pvc1", "bar/pvc2"]),
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      expect(createUsedPVCSet(tc.pods)).toEqual(tc.expected);
    });
  }
});

describe("TestNewSnapshot", () => {
  const podWithAnnotations = makePod()
    .name("foo")
    .namespace("ns")
    .node("node-1")
    .annotations({ custom: "annotation" })
    .obj();
  const podWithPort = makePod()
    .name("foo")
    .namespace("foo")
    .node("node-0")
    .containerPort([{ hostPort: 8080, containerPort: 0 }])
    .obj();
  const podWithAntiAffinity = makePod()
    .name("baz")
    .namespace("ns")
    .podAntiAffinity(
      "another",
      makeLabelSelector().label("another", "label").obj(),
      PodAntiAffinityWithRequiredReq,
    )
    .node("node-0")
    .obj();
  const podsWithAffinity = [
    makePod()
      .name("bar")
      .namespace("ns")
      .podAffinity("baz", makeLabelSelector().label("baz", "qux").obj(), PodAffinityWithRequiredReq)
      .node("node-2")
      .obj(),
    makePod()
      .name("bar")
      .namespace("ns")
      .uid("bar-on-node-0")
      .podAffinity("key", makeLabelSelector().label("key", "value").obj(), PodAffinityWithRequiredReq)
      .node("node-0")
      .obj(),
  ];
  const podsWithPVCs = [
    makePod().name("foo").namespace("foo").node("node-0").pvc("pvc0").obj(),
    makePod().name("bar").namespace("bar").node("node-1").pvc("pvc1").obj(),
    makePod().name("baz").namespace("baz").node("node-2").pvc("pvc2").obj(),
  ];
  const tests: {
    name: string;
    pods: Pod[];
    nodes: Node[];
    expectedPods: Pod[][];
    expectedNumNodes: number;
    expectedPodsWithAffinity: number;
    expectedPodsWithAntiAffinity: number;
    expectedUsedPVCSet: Set<string>;
  }[] = [
    {
      name: "no pods no nodes",
      pods: [],
      nodes: [],
      expectedPods: [],
      expectedNumNodes: 0,
      expectedPodsWithAffinity: 0,
      expectedPodsWithAntiAffinity: 0,
      expectedUsedPVCSet: new Set(),
    },
    {
      name: "single pod single node",
      pods: [podWithPort],
      nodes: [{ metadata: { name: "node-0" } }],
      expectedPods: [[podWithPort]],
      expectedNumNodes: 1,
      expectedPodsWithAffinity: 0,
      expectedPodsWithAntiAffinity: 0,
      expectedUsedPVCSet: new Set(),
    },
    {
      name: "multiple nodes, pods with PVCs",
      pods: podsWithPVCs,
      nodes: [
        { metadata: { name: "node-0" } },
        { metadata: { name: "node-1" } },
        { metadata: { name: "node-2" } },
      ],
      expectedPods: [[podsWithPVCs[0]!], [podsWithPVCs[1]!], [podsWithPVCs[2]!]],
      expectedNumNodes: 3,
      expectedPodsWithAffinity: 0,
      expectedPodsWithAntiAffinity: 0,
      expectedUsedPVCSet: new Set(["foo/pvc0", "bar/pvc1", "baz/pvc2"]),
    },
    {
      name: "multiple nodes, pod with affinity",
      pods: [podWithAnnotations, podsWithAffinity[0]!],
      nodes: [
        { metadata: { name: "node-0" } },
        { metadata: { name: "node-1" } },
        { metadata: { name: "node-2", labels: { baz: "qux" } } },
      ],
      expectedPods: [[], [podWithAnnotations], [podsWithAffinity[0]!]],
      expectedNumNodes: 3,
      expectedPodsWithAffinity: 1,
      expectedPodsWithAntiAffinity: 0,
      expectedUsedPVCSet: new Set(),
    },
    {
      name: "multiple nodes, pod with affinity, pod with anti-affinity",
      pods: [podsWithAffinity[1]!, podWithAntiAffinity],
      nodes: [
        { metadata: { name: "node-0", labels: { key: "value" } } },
        { metadata: { name: "node-1", labels: { another: "label" } } },
      ],
      expectedPods: [[podsWithAffinity[1]!, podWithAntiAffinity], []],
      expectedNumNodes: 2,
      expectedPodsWithAffinity: 1,
      expectedPodsWithAntiAffinity: 1,
      expectedUsedPVCSet: new Set(),
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const snapshot = newSnapshot(tc.pods, tc.nodes);
      expect(snapshot.numNodes()).toBe(tc.expectedNumNodes);
      tc.nodes.forEach((node, i) => {
        const info = snapshot.get(node.metadata?.name ?? "");
        expect(info).toBeDefined();
        expect(info!.pods.map((p) => p.pod)).toEqual(tc.expectedPods[i]);
      });
      expect(snapshot.havePodsWithAffinityList().length).toBe(tc.expectedPodsWithAffinity);
      expect(snapshot.havePodsWithRequiredAntiAffinityList().length).toBe(tc.expectedPodsWithAntiAffinity);
      for (const key of tc.expectedUsedPVCSet) expect(snapshot.isPVCUsedByPods(key)).toBe(true);
      expect(snapshot.usedPVCSet).toEqual(tc.expectedUsedPVCSet);
    });
  }

  it("lists nodes in the given order and affinity terms are compiled", () => {
    const snapshot = newSnapshot(
      [podsWithAffinity[0]!],
      [{ metadata: { name: "node-2" } }, { metadata: { name: "node-0" } }],
    );
    expect(snapshot.list().map((n) => n.nodeName)).toEqual(["node-2", "node-0"]);
    const term = snapshot.get("node-2")!.pods[0]!.requiredAffinityTerms[0]!;
    expect(term.topologyKey).toBe("baz");
    expect([...term.namespaces]).toEqual(["ns"]);
  });
});
