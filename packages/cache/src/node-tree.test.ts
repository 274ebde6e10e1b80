import { LabelFailureDomainBetaRegion, LabelFailureDomainBetaZone, type Node } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { NodeTree } from "./node-tree";

const region = LabelFailureDomainBetaRegion;
const zone = LabelFailureDomainBetaZone;
const node = (name: string, labels?: Record<string, string>): Node => ({
  metadata: labels ? { name, labels } : { name },
});

const allNodes: Node[] = [
  node("node-0"),
  node("node-1", { [region]: "region-1" }),
  node("node-2", { [zone]: "zone-2" }),
  node("node-3", { [region]: "region-1", [zone]: "zone-2" }),
  node("node-4", { [region]: "region-1", [zone]: "zone-2" }),
  node("node-5", { [region]: "region-1", [zone]: "zone-3" }),
  node("node-6", { [region]: "region-2", [zone]: "zone-2" }),
  node("node-7", { [region]: "region-2", [zone]: "zone-2" }),
  node("node-8", { [region]: "region-2", [zone]: "zone-2" }),
  node("node-9", {
    "topology.kubernetes.io/region": "region-2",
    "topology.kubernetes.io/zone": "zone-2",
    [region]: "region-2",
    [zone]: "zone-2",
  }),
  node("node-10", { [region]: "region-2", [zone]: "zone-3" }),
];

function verifyNodeTree(nt: NodeTree, expectedTree: Record<string, string[]>): void {
  const expectedNumNodes = Object.values(expectedTree).reduce((n, na) => n + na.length, 0);
  expect(nt.numNodes).toBe(expectedNumNodes);
  expect(Object.fromEntries(nt.tree)).toEqual(expectedTree);
  expect(nt.zones.length).toBe(Object.keys(expectedTree).length);
  for (const z of nt.zones) expect(expectedTree).toHaveProperty([z]);
}

describe("TestNodeTree_AddNode", () => {
  const tests: { name: string; nodesToAdd: Node[]; expectedTree: Record<string, string[]> }[] = [
    { name: "single node no labels", nodesToAdd: allNodes.slice(0, 1), expectedTree: { "": ["node-0"] } },
    {
      name: "mix of nodes with and without proper labels",
      nodesToAdd: allNodes.slice(0, 4),
      expectedTree: {
        "": ["node-0"],
        "region-1:\x00:": ["node-1"],
        ":\x00:zone-2": ["node-2"],
        "region-1:\x00:zone-2": ["node-3"],
      },
    },
    {
      name: "mix of nodes with and without proper labels and some zones with multiple nodes",
      nodesToAdd: allNodes.slice(0, 7),
      expectedTree: {
        "": ["node-0"],
        "region-1:\x00:": ["node-1"],
        ":\x00:zone-2": ["node-2"],
        "region-1:\x00:zone-2": ["node-3", "node-4"],
        "region-1:\x00:zone-3": ["node-5"],
        "region-2:\x00:zone-2": ["node-6"],
      },
    },
    {
      name: "nodes also using deprecated zone/region label",
      nodesToAdd: allNodes.slice(9),
      expectedTree: { "region-2:\x00:zone-2": ["node-9"], "region-2:\x00:zone-3": ["node-10"] },
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const nt = new NodeTree();
      for (const n of tc.nodesToAdd) nt.addNode(n);
      verifyNodeTree(nt, tc.expectedTree);
    });
  }
});

describe("TestNodeTree_RemoveNode", () => {
  const tests: {
    name: string;
    existingNodes: Node[];
    nodesToRemove: Node[];
    expectedTree: Record<string, string[]>;
    expectError?: boolean;
  }[] = [
    {
      name: "remove a single node with no labels",
      existingNodes: allNodes.slice(0, 7),
      nodesToRemove: allNodes.slice(0, 1),
      expectedTree: {
        "region-1:\x00:": ["node-1"],
        ":\x00:zone-2": ["node-2"],
        "region-1:\x00:zone-2": ["node-3", "node-4"],
        "region-1:\x00:zone-3": ["node-5"],
        "region-2:\x00:zone-2": ["node-6"],
      },
    },
    {
      name: "remove a few nodes including one from a zone with multiple nodes",
      existingNodes: allNodes.slice(0, 7),
      nodesToRemove: allNodes.slice(1, 4),
      expectedTree: {
        "": ["node-0"],
        "region-1:\x00:zone-2": ["node-4"],
        "region-1:\x00:zone-3": ["node-5"],
        "region-2:\x00:zone-2": ["node-6"],
      },
    },
    {
      name: "remove all nodes",
      existingNodes: allNodes.slice(0, 7),
      nodesToRemove: allNodes.slice(0, 7),
      expectedTree: {},
    },
    {
      name: "remove non-existing node",
      existingNodes: [],
      nodesToRemove: allNodes.slice(0, 5),
      expectedTree: {},
      expectError: true,
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const nt = new NodeTree(tc.existingNodes);
      for (const n of tc.nodesToRemove) {
        if (tc.expectError) expect(() => nt.removeNode(n)).toThrow(/was not found/);
        else nt.removeNode(n);
      }
      verifyNodeTree(nt, tc.expectedTree);
    });
  }
});

describe("TestNodeTree_UpdateNode", () => {
  const labelled = (name: string): Node => node(name, { [region]: "region-1", [zone]: "zone-2" });
  const tests: {
    name: string;
    existingNodes: Node[];
    nodeToUpdate: Node;
    expectedTree: Record<string, string[]>;
  }[] = [
    {
      name: "update a node without label",
      existingNodes: allNodes.slice(0, 7),
      nodeToUpdate: labelled("node-0"),
      expectedTree: {
        "region-1:\x00:": ["node-1"],
        ":\x00:zone-2": ["node-2"],
        "region-1:\x00:zone-2": ["node-3", "node-4", "node-0"],
        "region-1:\x00:zone-3": ["node-5"],
        "region-2:\x00:zone-2": ["node-6"],
      },
    },
    {
      name: "update the only existing node",
      existingNodes: allNodes.slice(0, 1),
      nodeToUpdate: labelled("node-0"),
      expectedTree: { "region-1:\x00:zone-2": ["node-0"] },
    },
    {
      name: "update non-existing node",
      existingNodes: allNodes.slice(0, 1),
      nodeToUpdate: labelled("node-new"),
      expectedTree: { "": ["node-0"], "region-1:\x00:zone-2": ["node-new"] },
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const nt = new NodeTree(tc.existingNodes);
      const oldNode =
        allNodes.find((n) => n.metadata?.name === tc.nodeToUpdate.metadata?.name) ?? node("nonexisting-node");
      nt.updateNode(oldNode, tc.nodeToUpdate);
      verifyNodeTree(nt, tc.expectedTree);
    });
  }
});

describe("TestNodeTree_List", () => {
  const tests: { name: string; nodesToAdd: Node[]; expectedOutput: string[] }[] = [
    { name: "empty tree", nodesToAdd: [], expectedOutput: [] },
    { name: "one node", nodesToAdd: allNodes.slice(0, 1), expectedOutput: ["node-0"] },
    {
      name: "four nodes",
      nodesToAdd: allNodes.slice(0, 4),
      expectedOutput: ["node-0", "node-1", "node-2", "node-3"],
    },
    {
      name: "all nodes",
      nodesToAdd: allNodes.slice(0, 9),
      expectedOutput: [
        "node-0",
        "node-1",
        "node-2",
        "node-3",
        "node-5",
        "node-6",
        "node-4",
        "node-7",
        "node-8",
      ],
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const { names, err } = new NodeTree(tc.nodesToAdd).list();
      expect(err).toBeNull();
      expect(names).toEqual(tc.expectedOutput);
    });
  }
});

describe("TestNodeTree_List_Exhausted", () => {
  it("reports zone exhaustion", () => {
    const nt = new NodeTree(allNodes.slice(0, 9));
    nt.numNodes++;
    expect(nt.list().err).not.toBeNull();
  });
});

describe("TestNodeTreeMultiOperations", () => {
  const tests: {
    name: string;
    nodesToAdd: Node[];
    nodesToRemove: Node[];
    operations: ("add" | "remove")[];
    expectedOutput: string[];
  }[] = [
    {
      name: "add and remove all nodes",
      nodesToAdd: allNodes.slice(2, 9),
      nodesToRemove: allNodes.slice(2, 9),
      operations: ["add", "add", "add", "remove", "remove", "remove"],
      expectedOutput: [],
    },
    {
      name: "add and remove some nodes",
      nodesToAdd: allNodes.slice(2, 9),
      nodesToRemove: allNodes.slice(2, 9),
      operations: ["add", "add", "add", "remove"],
      expectedOutput: ["node-3", "node-4"],
    },
    {
      name: "remove three nodes",
      nodesToAdd: allNodes.slice(2, 9),
      nodesToRemove: allNodes.slice(2, 9),
      operations: ["add", "add", "add", "remove", "remove", "remove", "add"],
      expectedOutput: ["node-5"],
    },
    {
      name: "add more nodes to an exhausted zone",
      nodesToAdd: [...allNodes.slice(4, 9), allNodes[3]!],
      nodesToRemove: [],
      operations: ["add", "add", "add", "add", "add", "add"],
      expectedOutput: ["node-4", "node-5", "node-6", "node-3", "node-7", "node-8"],
    },
    {
      name: "remove zone and add new",
      nodesToAdd: [...allNodes.slice(3, 5), ...allNodes.slice(6, 8)],
      nodesToRemove: allNodes.slice(3, 5),
      operations: ["add", "add", "remove", "add", "add", "remove"],
      expectedOutput: ["node-6", "node-7"],
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const nt = new NodeTree();
      let addIndex = 0;
      let removeIndex = 0;
      for (const op of tc.operations) {
        if (op === "add") nt.addNode(tc.nodesToAdd[addIndex++]!);
        else nt.removeNode(tc.nodesToRemove[removeIndex++]!);
      }
      const { names, err } = nt.list();
      expect(err).toBeNull();
      expect(names).toEqual(tc.expectedOutput);
    });
  }
});
