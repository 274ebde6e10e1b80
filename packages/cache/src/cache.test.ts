import type { ContainerPort, Node, Pod, ResourceList } from "@kubesched/api";
import { type Clock, NodeInfo } from "@kubesched/framework";
import { makeContainer, makeNode, makePod, PodAffinityWithRequiredReq } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { newCache } from "./cache";
import type { Cache } from "./interface";
import type { NodeTree } from "./node-tree";
import { Snapshot } from "./snapshot";

// --- helpers (upstream cache_test.go) ---

interface Item {
  info: NodeInfo;
  next: Item | null;
}

/** Test-only access to the cache's internals (upstream tests read the struct fields). */
interface CacheInternals {
  nodes: Map<string, Item>;
  headNode: Item | null;
  nodeTree: NodeTree;
  assumedPods: Set<string>;
  updateNodeInfoSnapshotList(snapshot: Snapshot, updateAll: boolean): void;
}

function internals(cache: Cache) {
  const c = cache as unknown as CacheInternals;
  return { nodes: c.nodes, head: c.headNode, nodeTree: c.nodeTree, assumedPods: c.assumedPods };
}

const fixedClock = (now: number): Clock => ({ now: () => now, setTimeout: () => ({ cancel() {} }) });

function makeBasePod(
  nodeName: string,
  objName: string,
  cpu: string,
  mem: string,
  extended: string,
  ports: ContainerPort[],
): Pod {
  const req: ResourceList = {};
  if (cpu !== "") {
    req.cpu = cpu;
    req.memory = mem;
    if (extended !== "") {
      const [k, v] = extended.split(":");
      req[k!] = v!;
    }
  }
  return makePod()
    .name(objName)
    .namespace("node_info_cache_test")
    .uid(objName)
    .node(nodeName)
    .containers([makeContainer().name("container").image("pause").resources(req).containerPort(ports).obj()])
    .obj();
}

interface Expected {
  requested: { milliCPU: number; memory: number; ephemeralStorage?: number; scalar?: Record<string, number> };
  nonZero: { milliCPU: number; memory: number };
  pods: Pod[];
  ports: [protocol: string, ip: string, port: number][];
}

function summary(ni: NodeInfo) {
  return {
    requested: {
      milliCPU: ni.requested.milliCPU,
      memory: ni.requested.memory,
      ephemeralStorage: ni.requested.ephemeralStorage,
      scalar: Object.fromEntries(ni.requested.scalarResources ?? []),
    },
    nonZero: { milliCPU: ni.nonZeroRequested.milliCPU, memory: ni.nonZeroRequested.memory },
    pods: ni.pods.map((p) => p.pod),
    ports: ni.usedPorts
      .entries()
      .map((e) => [e.protocol, e.ip, e.port])
      .sort(),
    imageStates: Object.fromEntries(ni.imageStates),
  };
}

/** deepEqualWithoutGeneration */
function expectNodeInfo(item: Item | undefined, want: Expected | null): void {
  if (want === null) {
    expect(item).toBeUndefined();
    return;
  }
  expect(item).toBeDefined();
  expect(summary(item!.info)).toEqual({
    requested: { ephemeralStorage: 0, scalar: {}, ...want.requested },
    nonZero: want.nonZero,
    pods: want.pods,
    ports: [...want.ports].sort(),
    imageStates: {},
  });
}

const tcp80: ContainerPort[] = [{ hostIP: "127.0.0.1", hostPort: 80, protocol: "TCP", containerPort: 0 }];
const tcp8080: ContainerPort[] = [{ hostIP: "127.0.0.1", hostPort: 8080, protocol: "TCP", containerPort: 0 }];

function isForgottenFromCache(p: Pod, c: Cache): void {
  expect(c.isAssumedPod(p)).toBe(false);
  expect(c.getPod(p)).toBeUndefined();
}

describe("TestAssumePodScheduled", () => {
  const nodeName = "node";
  const testPods = [
    makeBasePod(nodeName, "test-resource-request-and-port-0", "100m", "500", "", tcp80),
    makeBasePod(nodeName, "test-resource-request-and-port-1", "100m", "500", "", tcp80),
    makeBasePod(nodeName, "test-resource-request-and-port-2", "200m", "1Ki", "", tcp8080),
    makeBasePod(nodeName, "test-nonzero-request", "", "", "", tcp80),
    makeBasePod(nodeName, "test-extended-resource-1", "100m", "500", "example.com/foo:3", tcp80),
    makeBasePod(nodeName, "test-extended-resource-2", "200m", "1Ki", "example.com/foo:5", tcp8080),
    makeBasePod(nodeName, "test-extended-key", "100m", "500", "random-invalid-extended-key:100", [
      { containerPort: 0 },
    ]),
  ];
  const tests: { name: string; pods: Pod[]; want: Expected }[] = [
    {
      name: "assumed one pod with resource request and used ports",
      pods: [testPods[0]!],
      want: {
        requested: { milliCPU: 100, memory: 500 },
        nonZero: { milliCPU: 100, memory: 500 },
        pods: [testPods[0]!],
        ports: [["TCP", "127.0.0.1", 80]],
      },
    },
    {
      name: "node requested resource are equal to the sum of the assumed pods requested resource, node contains host ports defined by pods",
      pods: [testPods[1]!, testPods[2]!],
      want: {
        requested: { milliCPU: 300, memory: 1524 },
        nonZero: { milliCPU: 300, memory: 1524 },
        pods: [testPods[1]!, testPods[2]!],
        ports: [
          ["TCP", "127.0.0.1", 80],
          ["TCP", "127.0.0.1", 8080],
        ],
      },
    },
    {
      name: "assumed pod without resource request",
      pods: [testPods[3]!],
      want: {
        requested: { milliCPU: 0, memory: 0 },
        nonZero: { milliCPU: 100, memory: 200 * 1024 * 1024 },
        pods: [testPods[3]!],
        ports: [["TCP", "127.0.0.1", 80]],
      },
    },
    {
      name: "assumed one pod with extended resource",
      pods: [testPods[4]!],
      want: {
        requested: { milliCPU: 100, memory: 500, scalar: { "example.com/foo": 3 } },
        nonZero: { milliCPU: 100, memory: 500 },
        pods: [testPods[4]!],
        ports: [["TCP", "127.0.0.1", 80]],
      },
    },
    {
      name: "assumed two pods with extended resources",
      pods: [testPods[4]!, testPods[5]!],
      want: {
        requested: { milliCPU: 300, memory: 1524, scalar: { "example.com/foo": 8 } },
        nonZero: { milliCPU: 300, memory: 1524 },
        pods: [testPods[4]!, testPods[5]!],
        ports: [
          ["TCP", "127.0.0.1", 80],
          ["TCP", "127.0.0.1", 8080],
        ],
      },
    },
    {
      name: "assumed pod with random invalid extended resource key",
      pods: [testPods[6]!],
      want: {
        requested: { milliCPU: 100, memory: 500 },
        nonZero: { milliCPU: 100, memory: 500 },
        pods: [testPods[6]!],
        ports: [],
      },
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const cache = newCache({ ttlMs: 1000 });
      for (const pod of tc.pods) {
        cache.assumePod(pod);
        // The pod is already in the cache so it can't be assumed.
        expect(() => cache.assumePod(pod)).toThrow(/is in the cache, so can't be assumed/);
      }
      expectNodeInfo(internals(cache).nodes.get(nodeName), tc.want);
      for (const pod of tc.pods) {
        cache.forgetPod(pod);
        isForgottenFromCache(pod, cache);
      }
    });
  }
});

describe("TestExpirePod", () => {
  const nodeName = "node";
  const testPods = [
    makeBasePod(nodeName, "test-1", "100m", "500", "", tcp80),
    makeBasePod(nodeName, "test-2", "200m", "1Ki", "", tcp8080),
    makeBasePod(nodeName, "test-3", "200m", "1Ki", "", tcp8080),
  ];
  const now = 1_700_000_000_000;
  const defaultTTL = 10_000;
  const tests: {
    name: string;
    pods: { pod: Pod; finishBind?: boolean; assumedTime?: number }[];
    cleanupTime: number;
    ttl: number;
    want: Expected | null;
  }[] = [
    {
      name: "assumed pod would expire",
      pods: [{ pod: testPods[0]!, finishBind: true, assumedTime: now }],
      cleanupTime: now + 2 * defaultTTL,
      want: null,
      ttl: defaultTTL,
    },
    {
      name: "first one would expire, second and third would not",
      pods: [
        { pod: testPods[0]!, finishBind: true, assumedTime: now },
        { pod: testPods[1]!, finishBind: true, assumedTime: now + (3 * defaultTTL) / 2 },
        { pod: testPods[2]! },
      ],
      cleanupTime: now + 2 * defaultTTL,
      // Order gets altered when removing pods.
      want: {
        requested: { milliCPU: 400, memory: 2048 },
        nonZero: { milliCPU: 400, memory: 2048 },
        pods: [testPods[2]!, testPods[1]!],
        ports: [["TCP", "127.0.0.1", 8080]],
      },
      ttl: defaultTTL,
    },
    {
      name: "assumed pod would never expire",
      pods: [{ pod: testPods[0]!, finishBind: true, assumedTime: now }],
      cleanupTime: now + 3 * defaultTTL,
      want: {
        requested: { milliCPU: 100, memory: 500 },
        nonZero: { milliCPU: 100, memory: 500 },
        pods: [testPods[0]!],
        ports: [["TCP", "127.0.0.1", 80]],
      },
      ttl: 0,
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      let clockNow = now;
      const clock: Clock = { now: () => clockNow, setTimeout: () => ({ cancel() {} }) };
      const cache = newCache({ ttlMs: tc.ttl, clock });
      for (const p of tc.pods) {
        cache.assumePod(p.pod);
        if (!p.finishBind) continue;
        clockNow = p.assumedTime!;
        cache.finishBinding(p.pod);
      }
      // Pods that got bound and have assumedTime + ttl < cleanupTime get expired and removed.
      cache.cleanupAssumedPods(tc.cleanupTime);
      expectNodeInfo(internals(cache).nodes.get(nodeName), tc.want);
    });
  }
});

describe("TestAddPodWillConfirm", () => {
  it("two pods were assumed at same time, but first one is called Add() and gets confirmed", () => {
    const nodeName = "node";
    const now = 1_700_000_000_000;
    const ttl = 10_000;
    const testPods = [
      makeBasePod(nodeName, "test-1", "100m", "500", "", tcp80),
      makeBasePod(nodeName, "test-2", "200m", "1Ki", "", tcp8080),
    ];
    const cache = newCache({ ttlMs: ttl, clock: fixedClock(now) });
    for (const p of testPods) {
      cache.assumePod(p);
      cache.finishBinding(p);
    }
    cache.addPod(testPods[0]!);
    // The pod is already in added state.
    expect(() => cache.addPod(testPods[0]!)).toThrow(/was already in added state/);
    cache.cleanupAssumedPods(now + 2 * ttl);
    // Confirmed pods aren't expired.
    expectNodeInfo(internals(cache).nodes.get(nodeName), {
      requested: { milliCPU: 100, memory: 500 },
      nonZero: { milliCPU: 100, memory: 500 },
      pods: [testPods[0]!],
      ports: [["TCP", "127.0.0.1", 80]],
    });
  });
});

describe("TestDump", () => {
  it("dumps nodes and assumed pods", () => {
    const nodeName = "node";
    const testPods = [
      makeBasePod(nodeName, "test-1", "100m", "500", "", tcp80),
      makeBasePod(nodeName, "test-2", "200m", "1Ki", "", tcp80),
    ];
    const cache = newCache({ ttlMs: 10_000 });
    for (const p of testPods) {
      cache.assumePod(p);
      cache.finishBinding(p);
    }
    cache.addPod(testPods[0]!);
    const dump = cache.dump();
    const { nodes, assumedPods } = internals(cache);
    expect(dump.nodes.size).toBe(nodes.size);
    for (const [name, ni] of dump.nodes) expect(ni).toEqual(nodes.get(name)!.info);
    expect(dump.assumedPods).toEqual(assumedPods);
    expect([...dump.assumedPods]).toEqual(["test-2"]);
  });
});

describe("TestAddPodAlwaysUpdatesPodInfoInNodeInfo", () => {
  it("AddPod updates the PodInfo of an assumed pod", () => {
    const p1 = makeBasePod("node1", "test-1", "100m", "500", "", [{ hostPort: 80, containerPort: 0 }]);
    const p2 = structuredClone(p1) as { -readonly [K in keyof Pod]: Pod[K] };
    p2.status = {
      ...p2.status,
      conditions: [...(p1.status?.conditions ?? []), { type: "PodScheduled", status: "True" }],
    };
    const cache = newCache({ ttlMs: 10_000 });
    cache.assumePod(p1);
    cache.finishBinding(p1);
    cache.addPod(p2);
    expectNodeInfo(internals(cache).nodes.get("node1"), {
      requested: { milliCPU: 100, memory: 500 },
      nonZero: { milliCPU: 100, memory: 500 },
      pods: [p2],
      ports: [["TCP", "0.0.0.0", 80]],
    });
  });
});

describe("TestAddPodWillReplaceAssumed", () => {
  it("a pod being Add()ed replaces the assumed pod", () => {
    const assumedPod = makeBasePod("assumed-node-1", "test-1", "100m", "500", "", [
      { hostPort: 80, containerPort: 0 },
    ]);
    const addedPod = makeBasePod("actual-node", "test-1", "100m", "500", "", [
      { hostPort: 80, containerPort: 0 },
    ]);
    const updatedPod = makeBasePod("actual-node", "test-1", "200m", "500", "", [
      { hostPort: 90, containerPort: 0 },
    ]);
    const cache = newCache({ ttlMs: 10_000 });
    cache.assumePod(structuredClone(assumedPod));
    cache.finishBinding(assumedPod);
    cache.addPod(structuredClone(addedPod));
    cache.updatePod(structuredClone(addedPod), structuredClone(updatedPod));
    const { nodes } = internals(cache);
    expectNodeInfo(nodes.get("assumed-node"), null);
    expectNodeInfo(nodes.get("assumed-node-1"), null);
    expectNodeInfo(nodes.get("actual-node"), {
      requested: { milliCPU: 200, memory: 500 },
      nonZero: { milliCPU: 200, memory: 500 },
      pods: [updatedPod],
      ports: [["TCP", "0.0.0.0", 90]],
    });
  });
});

describe("TestAddPodAfterExpiration", () => {
  it("a pod being Add()ed is added back if expired", () => {
    const nodeName = "node";
    const ttl = 10_000;
    const now = 1_700_000_000_000;
    const basePod = makeBasePod(nodeName, "test", "100m", "500", "", tcp80);
    const cache = newCache({ ttlMs: ttl, clock: fixedClock(now) });
    cache.assumePod(basePod);
    cache.finishBinding(basePod);
    cache.cleanupAssumedPods(now + 2 * ttl);
    // It should be expired and removed.
    isForgottenFromCache(basePod, cache);
    cache.addPod(basePod);
    expectNodeInfo(internals(cache).nodes.get(nodeName), {
      requested: { milliCPU: 100, memory: 500 },
      nonZero: { milliCPU: 100, memory: 500 },
      pods: [basePod],
      ports: [["TCP", "127.0.0.1", 80]],
    });
  });
});

const updateTestPods = [
  makeBasePod("node", "test", "100m", "500", "", tcp80),
  makeBasePod("node", "test", "200m", "1Ki", "", tcp8080),
];
const updateWants: Expected[] = [
  {
    requested: { milliCPU: 200, memory: 1024 },
    nonZero: { milliCPU: 200, memory: 1024 },
    pods: [updateTestPods[1]!],
    ports: [["TCP", "127.0.0.1", 8080]],
  },
  {
    requested: { milliCPU: 100, memory: 500 },
    nonZero: { milliCPU: 100, memory: 500 },
    pods: [updateTestPods[0]!],
    ports: [["TCP", "127.0.0.1", 80]],
  },
];

describe("TestUpdatePod", () => {
  it("add a pod and then update it twice", () => {
    const cache = newCache({ ttlMs: 10_000 });
    cache.addPod(updateTestPods[0]!);
    const podsToUpdate = [updateTestPods[0]!, updateTestPods[1]!, updateTestPods[0]!];
    for (let j = 1; j < podsToUpdate.length; j++) {
      cache.updatePod(podsToUpdate[j - 1]!, podsToUpdate[j]!);
      expectNodeInfo(internals(cache).nodes.get("node"), updateWants[j - 1]!);
    }
  });
});

describe("TestUpdatePodAndGet", () => {
  const tests: {
    name: string;
    pod: Pod;
    podToUpdate: Pod;
    handler: (c: Cache, p: Pod) => void;
    assumePod: boolean;
  }[] = [
    {
      name: "do not update pod when pod information has not changed",
      pod: updateTestPods[0]!,
      podToUpdate: updateTestPods[0]!,
      handler: (c, p) => c.assumePod(p),
      assumePod: true,
    },
    {
      name: "update  pod when pod information changed",
      pod: updateTestPods[0]!,
      podToUpdate: updateTestPods[1]!,
      handler: (c, p) => c.addPod(p),
      assumePod: false,
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      const cache = newCache({ ttlMs: 10_000 });
      // An unknown pod can be neither got nor updated.
      expect(cache.getPod(tc.podToUpdate)).toBeUndefined();
      expect(() => cache.updatePod(tc.pod, tc.podToUpdate)).toThrow(/is not added to scheduler cache/);
      tc.handler(cache, tc.pod);
      if (!tc.assumePod) cache.updatePod(tc.pod, tc.podToUpdate);
      expect(cache.getPod(tc.pod)).toEqual(tc.podToUpdate);
    });
  }
});

describe("TestExpireAddUpdatePod", () => {
  it("pod is assumed, expired, and added; then updated twice", () => {
    const ttl = 10_000;
    const now = 1_700_000_000_000;
    const cache = newCache({ ttlMs: ttl, clock: fixedClock(now) });
    cache.assumePod(updateTestPods[0]!);
    cache.finishBinding(updateTestPods[0]!);
    cache.cleanupAssumedPods(now + 2 * ttl);
    cache.addPod(updateTestPods[0]!);
    const podsToUpdate = [updateTestPods[0]!, updateTestPods[1]!, updateTestPods[0]!];
    for (let j = 1; j < podsToUpdate.length; j++) {
      cache.updatePod(podsToUpdate[j - 1]!, podsToUpdate[j]!);
      expectNodeInfo(internals(cache).nodes.get("node"), updateWants[j - 1]!);
    }
  });
});

describe("TestEphemeralStorageResource", () => {
  it("accounts ephemeral storage", () => {
    const podE = makePod()
      .name("pod-with-ephemeral-storage")
      .namespace("default-namespace")
      .uid("pod-with-ephemeral-storage")
      .req({ "ephemeral-storage": "500" })
      .node("node")
      .obj();
    const cache = newCache({ ttlMs: 1000 });
    cache.addPod(podE);
    expectNodeInfo(internals(cache).nodes.get("node"), {
      requested: { milliCPU: 0, memory: 0, ephemeralStorage: 500 },
      nonZero: { milliCPU: 100, memory: 200 * 1024 * 1024 },
      pods: [podE],
      ports: [],
    });
    cache.removePod(podE);
    expect(cache.getPod(podE)).toBeUndefined();
  });
});

describe("TestRemovePod", () => {
  const pod = makeBasePod("node-1", "test", "100m", "500", "", tcp80);
  const nodes: Node[] = [{ metadata: { name: "node-1" } }, { metadata: { name: "node-2" } }];
  const want: Expected = {
    requested: { milliCPU: 100, memory: 500 },
    nonZero: { milliCPU: 100, memory: 500 },
    pods: [pod],
    ports: [["TCP", "127.0.0.1", 80]],
  };
  for (const [name, assume] of [
    ["bound", false],
    ["assumed", true],
  ] as const) {
    it(name, () => {
      const cache = newCache({ ttlMs: 1000 });
      // Add/Assume pod succeeds even before adding the nodes.
      if (assume) cache.assumePod(pod);
      else cache.addPod(pod);
      expectNodeInfo(internals(cache).nodes.get("node-1"), want);
      for (const n of nodes) cache.addNode(n);
      cache.removePod(pod);
      expect(cache.getPod(pod)).toBeUndefined();
      // Removing a pod already removed is an error.
      expect(() => cache.removePod(pod)).toThrow(/is not found in scheduler cache/);
      // The node that owned the pod is at the head of the list.
      expect(internals(cache).head?.info.nodeName).toBe("node-1");
    });
  }
});

describe("TestForgetPod", () => {
  it("forgets assumed pods", () => {
    const basePod = makeBasePod("node", "test", "100m", "500", "", tcp80);
    const cache = newCache({ ttlMs: 10_000 });
    cache.assumePod(basePod);
    cache.finishBinding(basePod);
    expect(cache.isAssumedPod(basePod)).toBe(true);
    const assumed = cache.getPod(basePod)!;
    expect(assumed.metadata?.namespace).toBe(basePod.metadata?.namespace);
    expect(assumed.metadata?.name).toBe(basePod.metadata?.name);
    cache.forgetPod(basePod);
    isForgottenFromCache(basePod, cache);
    // Forgetting a pod already forgotten is an error.
    expect(() => cache.forgetPod(basePod)).toThrow(/wasn't assumed so cannot be forgotten/);
  });
});

describe("TestNodeOperators", () => {
  const mb = 1024 * 1024;
  const resourceList1 = { cpu: "1000m", memory: "100m", "example.com/foo": "1" };
  const resourceList2 = { cpu: "500m", memory: "50m", "example.com/foo": "2" };
  const taints = [{ key: "test-key", value: "test-value", effect: "PreferNoSchedule" }];
  const imageStatus1 = {
    "gcr.io/80:latest": 80 * mb,
    "gcr.io/80:v1": 80 * mb,
    "gcr.io/300:latest": 300 * mb,
    "gcr.io/300:v1": 300 * mb,
  };
  const imageStatus2 = {
    "gcr.io/600:latest": 600 * mb,
    "gcr.io/80:latest": 80 * mb,
    "gcr.io/900:latest": 900 * mb,
  };
  const mkNode = (name: string, res: ResourceList, images: Record<string, number>) =>
    makeNode().name(name).capacity(res).taints(taints).images(images).obj();
  const podOn = (name: string, ports?: ContainerPort[]): Pod => ({
    metadata: { name, uid: name },
    spec: {
      nodeName: "test-node-1",
      containers: [
        { name: "c", resources: { requests: { cpu: "500m", memory: "50m" } }, ...(ports ? { ports } : {}) },
      ],
    },
  });
  const tests: { name: string; nodes: Node[]; pods: Pod[] }[] = [
    {
      name: "operate the node with one pod",
      nodes: [
        mkNode("test-node-1", resourceList1, imageStatus1),
        mkNode("test-node-2", resourceList2, imageStatus2),
        mkNode("test-node-3", resourceList1, imageStatus1),
        mkNode("test-node-4", resourceList2, imageStatus2),
      ],
      pods: [podOn("pod1", [{ name: "http", hostPort: 80, containerPort: 80 }])],
    },
    {
      name: "operate the node with two pods",
      nodes: [
        mkNode("test-node-1", resourceList1, imageStatus1),
        mkNode("test-node-2", resourceList2, imageStatus2),
        mkNode("test-node-3", resourceList1, imageStatus1),
      ],
      pods: [podOn("pod1"), podOn("pod2")],
    },
  ];

  /** All NodeInfos having the image report the same summary. */
  function checkImageStateSummary(infos: NodeInfo[], ...imageNames: string[]): void {
    for (const imageName of imageNames) {
      const states = infos.flatMap((ni) => {
        const s = ni.imageStates.get(imageName);
        return s ? [{ size: s.size, numNodes: s.numNodes }] : [];
      });
      for (const s of states) expect(s).toEqual(states[0]);
    }
  }

  for (const tc of tests) {
    it(tc.name, () => {
      const node = tc.nodes[0]!;
      const name = node.metadata!.name!;
      const cache = newCache({ ttlMs: 1000 });
      for (const n of tc.nodes) cache.addNode(n);
      for (const p of tc.pods) cache.addPod(p);
      const { nodes, nodeTree } = internals(cache);
      const cacheInfos = () => [...nodes.values()].map((i) => i.info);

      // Step 1: the node was added into the cache successfully.
      const got = nodes.get(name)!;
      expect(got).toBeDefined();
      expect(nodeTree.numNodes).toBe(tc.nodes.length);
      expect(nodeTree.list().names.length).toBe(tc.nodes.length);
      const expected = new NodeInfo(...tc.pods);
      expected.setNode(node);
      expect(got.info.node).toBe(node);
      expect(got.info.allocatable).toEqual(expected.allocatable);
      expect(got.info.requested).toEqual(expected.requested);
      expect(got.info.nonZeroRequested).toEqual(expected.nonZeroRequested);
      expect(got.info.usedPorts).toEqual(expected.usedPorts);
      expect(got.info.pods.map((p) => p.pod)).toEqual(tc.pods);
      const n80 = tc.nodes.filter((n) =>
        n.status?.images?.some((i) => i.names?.includes("gcr.io/80:latest")),
      ).length;
      expect(got.info.imageStates.get("gcr.io/80:latest")).toMatchObject({ size: 80 * mb, numNodes: n80 });
      checkImageStateSummary(cacheInfos(), "gcr.io/80:latest", "gcr.io/300:latest");

      // Step 2: dump cached nodes successfully.
      const cachedNodes = new Snapshot();
      cache.updateSnapshot(cachedNodes);
      const newNode = cachedNodes.nodeInfoMap.get(name)!;
      expect(cachedNodes.nodeInfoMap.size).toBe(tc.nodes.length);
      expect(newNode.generation).toBe(got.info.generation);
      expect(newNode.requested).toEqual(got.info.requested);
      expect(newNode.pods).toEqual(got.info.pods);
      expect(newNode.imageStates.get("gcr.io/80:latest")).toEqual({ size: 80 * mb, numNodes: n80 });
      checkImageStateSummary([...cachedNodes.nodeInfoMap.values()], "gcr.io/80:latest", "gcr.io/300:latest");

      // Step 3: update node attribute successfully.
      const updated = structuredClone(node);
      updated.status!.allocatable!.memory = "50m";
      const genBefore = got.info.generation;
      cache.updateNode(null, updated);
      const got2 = nodes.get(name)!;
      expect(got2.info.generation).toBeGreaterThan(genBefore);
      // "50m" bytes is 1 byte once rounded up (Quantity.Value()), as upstream expects.
      expect(got2.info.allocatable.memory).toBe(1);
      checkImageStateSummary(cacheInfos(), "gcr.io/80:latest", "gcr.io/300:latest");
      expect(nodeTree.numNodes).toBe(tc.nodes.length);
      expect(nodeTree.list().names.length).toBe(tc.nodes.length);

      // Step 4: the node can be removed even if it still has pods.
      cache.removeNode(updated);
      expect(nodes.get(name)).toBeDefined();
      expect(nodes.get(name)!.info.node).toBeNull();
      // Removing a node already removed is an error.
      expect(() => cache.removeNode(updated)).toThrow();
      expect(nodeTree.numNodes).toBe(tc.nodes.length - 1);
      expect(nodeTree.list().names.length).toBe(tc.nodes.length - 1);
      checkImageStateSummary(cacheInfos(), "gcr.io/80:latest", "gcr.io/300:latest");
      expect(nodes.get("test-node-2")!.info.imageStates.get("gcr.io/80:latest")!.numNodes).toBe(n80 - 1);
      // Pods are still in the pods cache.
      for (const p of tc.pods) expect(cache.getPod(p)).toBeDefined();

      // Step 5: removing pods for the removed node still succeeds.
      for (const p of tc.pods) {
        cache.removePod(p);
        expect(cache.getPod(p)).toBeUndefined();
      }
      expect(nodes.has(name)).toBe(false);
    });
  }
});

describe("TestSchedulerCache_UpdateSnapshot", () => {
  const nodes: Node[] = [];
  for (let i = 0; i < 10; i++) {
    nodes.push({
      metadata: { name: `test-node${i}` },
      status: { allocatable: { cpu: "1000m", memory: "100m" } },
    });
  }
  const updatedNodes = nodes.map((n) => {
    const u = structuredClone(n);
    u.status!.allocatable = { cpu: "2000m", memory: "500m" };
    return u;
  });
  const pods: Pod[] = [];
  for (let i = 0; i < 20; i++) {
    pods.push(
      makePod()
        .name(`test-pod${i}`)
        .namespace("test-ns")
        .uid(`test-puid${i}`)
        .node(`test-node${i % 10}`)
        .obj(),
    );
  }
  const updatedPods = pods.map((p) => {
    const u = structuredClone(p);
    u.spec!.priority = 1000;
    return u;
  });
  const podsWithAffinity: Pod[] = [];
  for (let i = 0; i < 2; i++) {
    podsWithAffinity.push(
      makePod()
        .name(`p-affinity-${i}`)
        .namespace("test-ns")
        .uid(`puid-affinity-${i}`)
        .podAffinityExists("foo", "", PodAffinityWithRequiredReq)
        .node(`test-node${i}`)
        .obj(),
    );
  }
  const podsWithPVC: Pod[] = [];
  for (let i = 0; i < 8; i++) {
    podsWithPVC.push(
      makePod()
        .name(`p-pvc-${i}`)
        .namespace("test-ns")
        .uid(`puid-pvc-${i}`)
        .pvc(`test-pvc${i % 4}`)
        .node(`test-node${i % 2}`)
        .obj(),
    );
  }

  let cache: Cache;
  let snapshot: Snapshot;
  type Op = () => void;
  const addNode =
    (i: number): Op =>
    () =>
      void cache.addNode(nodes[i]!);
  const removeNode =
    (i: number): Op =>
    () =>
      cache.removeNode(nodes[i]!);
  const updateNode =
    (i: number): Op =>
    () =>
      void cache.updateNode(nodes[i]!, updatedNodes[i]!);
  const addPod =
    (i: number): Op =>
    () =>
      cache.addPod(pods[i]!);
  const addPodWithAffinity =
    (i: number): Op =>
    () =>
      cache.addPod(podsWithAffinity[i]!);
  const addPodWithPVC =
    (i: number): Op =>
    () =>
      cache.addPod(podsWithPVC[i]!);
  const removePod =
    (i: number): Op =>
    () =>
      cache.removePod(pods[i]!);
  const removePodWithAffinity =
    (i: number): Op =>
    () =>
      cache.removePod(podsWithAffinity[i]!);
  const removePodWithPVC =
    (i: number): Op =>
    () =>
      cache.removePod(podsWithPVC[i]!);
  const updatePod =
    (i: number): Op =>
    () =>
      cache.updatePod(pods[i]!, updatedPods[i]!);
  const updateSnapshot = (): Op => () => {
    cache.updateSnapshot(snapshot);
    compareCacheWithNodeInfoSnapshot(cache, snapshot);
  };

  const tests: {
    name: string;
    operations: Op[];
    expected: Node[];
    expectedHavePodsWithAffinity?: number;
    expectedUsedPVCSet: string[];
  }[] = [
    { name: "Empty cache", operations: [], expected: [], expectedUsedPVCSet: [] },
    { name: "Single node", operations: [addNode(1)], expected: [nodes[1]!], expectedUsedPVCSet: [] },
    {
      name: "Add node, remove it, add it again",
      operations: [addNode(1), updateSnapshot(), removeNode(1), addNode(1)],
      expected: [nodes[1]!],
      expectedUsedPVCSet: [],
    },
    {
      name: "Add node and remove it in the same cycle, add it again",
      operations: [addNode(1), updateSnapshot(), addNode(2), removeNode(1)],
      expected: [nodes[2]!],
      expectedUsedPVCSet: [],
    },
    {
      name: "Add a few nodes, and snapshot in the middle",
      operations: [
        addNode(0),
        updateSnapshot(),
        addNode(1),
        updateSnapshot(),
        addNode(2),
        updateSnapshot(),
        addNode(3),
      ],
      expected: [nodes[3]!, nodes[2]!, nodes[1]!, nodes[0]!],
      expectedUsedPVCSet: [],
    },
    {
      name: "Add a few nodes, and snapshot in the end",
      operations: [addNode(0), addNode(2), addNode(5), addNode(6)],
      expected: [nodes[6]!, nodes[5]!, nodes[2]!, nodes[0]!],
      expectedUsedPVCSet: [],
    },
    {
      name: "Update some nodes",
      operations: [addNode(0), addNode(1), addNode(5), updateSnapshot(), updateNode(1)],
      expected: [nodes[1]!, nodes[5]!, nodes[0]!],
      expectedUsedPVCSet: [],
    },
    {
      name: "Add a few nodes, and remove all of them",
      operations: [
        addNode(0),
        addNode(2),
        addNode(5),
        addNode(6),
        updateSnapshot(),
        removeNode(0),
        removeNode(2),
        removeNode(5),
        removeNode(6),
      ],
      expected: [],
      expectedUsedPVCSet: [],
    },
    {
      name: "Add a few nodes, and remove some of them",
      operations: [
        addNode(0),
        addNode(2),
        addNode(5),
        addNode(6),
        updateSnapshot(),
        removeNode(0),
        removeNode(6),
      ],
      expected: [nodes[5]!, nodes[2]!],
      expectedUsedPVCSet: [],
    },
    {
      name: "Add a few nodes, remove all of them, and add more",
      operations: [
        addNode(2),
        addNode(5),
        addNode(6),
        updateSnapshot(),
        removeNode(2),
        removeNode(5),
        removeNode(6),
        updateSnapshot(),
        addNode(7),
        addNode(9),
      ],
      expected: [nodes[9]!, nodes[7]!],
      expectedUsedPVCSet: [],
    },
    {
      name: "Update nodes in particular order",
      operations: [addNode(8), updateNode(2), updateNode(8), updateSnapshot(), addNode(1)],
      expected: [nodes[1]!, nodes[8]!, nodes[2]!],
      expectedUsedPVCSet: [],
    },
    {
      name: "Add some nodes and some pods",
      operations: [addNode(0), addNode(2), addNode(8), updateSnapshot(), addPod(8), addPod(2)],
      expected: [nodes[2]!, nodes[8]!, nodes[0]!],
      expectedUsedPVCSet: [],
    },
    {
      name: "Updating a pod moves its node to the head",
      operations: [addNode(0), addPod(0), addNode(2), addNode(4), updatePod(0)],
      expected: [nodes[0]!, nodes[4]!, nodes[2]!],
      expectedUsedPVCSet: [],
    },
    {
      name: "Add pod before its node",
      operations: [addNode(0), addPod(1), updatePod(1), addNode(1)],
      expected: [nodes[1]!, nodes[0]!],
      expectedUsedPVCSet: [],
    },
    {
      name: "Remove node before its pods",
      operations: [
        addNode(0),
        addNode(1),
        addPod(1),
        addPod(11),
        updateSnapshot(),
        removeNode(1),
        updateSnapshot(),
        updatePod(1),
        updatePod(11),
        removePod(1),
        removePod(11),
      ],
      expected: [nodes[0]!],
      expectedUsedPVCSet: [],
    },
    {
      name: "Add Pods with affinity",
      operations: [addNode(0), addPodWithAffinity(0), updateSnapshot(), addNode(1)],
      expected: [nodes[1]!, nodes[0]!],
      expectedHavePodsWithAffinity: 1,
      expectedUsedPVCSet: [],
    },
    {
      name: "Add Pods with PVC",
      operations: [addNode(0), addPodWithPVC(0), updateSnapshot(), addNode(1)],
      expected: [nodes[1]!, nodes[0]!],
      expectedUsedPVCSet: ["test-ns/test-pvc0"],
    },
    {
      name: "Add multiple nodes with pods with affinity",
      operations: [
        addNode(0),
        addPodWithAffinity(0),
        updateSnapshot(),
        addNode(1),
        addPodWithAffinity(1),
        updateSnapshot(),
      ],
      expected: [nodes[1]!, nodes[0]!],
      expectedHavePodsWithAffinity: 2,
      expectedUsedPVCSet: [],
    },
    {
      name: "Add multiple nodes with pods with PVC",
      operations: [
        addNode(0),
        addPodWithPVC(0),
        updateSnapshot(),
        addNode(1),
        addPodWithPVC(1),
        updateSnapshot(),
      ],
      expected: [nodes[1]!, nodes[0]!],
      expectedUsedPVCSet: ["test-ns/test-pvc0", "test-ns/test-pvc1"],
    },
    {
      name: "Add then Remove pods with affinity",
      operations: [
        addNode(0),
        addNode(1),
        addPodWithAffinity(0),
        updateSnapshot(),
        removePodWithAffinity(0),
        updateSnapshot(),
      ],
      expected: [nodes[0]!, nodes[1]!],
      expectedHavePodsWithAffinity: 0,
      expectedUsedPVCSet: [],
    },
    {
      name: "Add then Remove pod with PVC",
      operations: [
        addNode(0),
        addPodWithPVC(0),
        updateSnapshot(),
        removePodWithPVC(0),
        addPodWithPVC(2),
        updateSnapshot(),
      ],
      expected: [nodes[0]!],
      expectedUsedPVCSet: ["test-ns/test-pvc2"],
    },
    {
      name: "Add then Remove pod with PVC and add same pod again",
      operations: [
        addNode(0),
        addPodWithPVC(0),
        updateSnapshot(),
        removePodWithPVC(0),
        addPodWithPVC(0),
        updateSnapshot(),
      ],
      expected: [nodes[0]!],
      expectedUsedPVCSet: ["test-ns/test-pvc0"],
    },
    {
      name: "Add and Remove multiple pods with PVC with same ref count length different content",
      operations: [
        addNode(0),
        addNode(1),
        addPodWithPVC(0),
        addPodWithPVC(1),
        updateSnapshot(),
        removePodWithPVC(0),
        removePodWithPVC(1),
        addPodWithPVC(2),
        addPodWithPVC(3),
        updateSnapshot(),
      ],
      expected: [nodes[1]!, nodes[0]!],
      expectedUsedPVCSet: ["test-ns/test-pvc2", "test-ns/test-pvc3"],
    },
    {
      name: "Add and Remove multiple pods with PVC",
      operations: [
        addNode(0),
        addNode(1),
        addPodWithPVC(0),
        addPodWithPVC(1),
        addPodWithPVC(2),
        updateSnapshot(),
        removePodWithPVC(0),
        removePodWithPVC(1),
        updateSnapshot(),
        addPodWithPVC(0),
        updateSnapshot(),
        addPodWithPVC(3),
        addPodWithPVC(4),
        addPodWithPVC(5),
        updateSnapshot(),
        removePodWithPVC(0),
        removePodWithPVC(3),
        removePodWithPVC(4),
        updateSnapshot(),
      ],
      expected: [nodes[0]!, nodes[1]!],
      expectedUsedPVCSet: ["test-ns/test-pvc1", "test-ns/test-pvc2"],
    },
  ];

  for (const tc of tests) {
    it(tc.name, () => {
      cache = newCache({ ttlMs: 1000 });
      snapshot = new Snapshot();
      for (const op of tc.operations) op();
      const { nodes: cacheNodes } = internals(cache);
      expect(cacheNodes.size).toBe(tc.expected.length);
      // The cache's list is in the expected (most recently updated first) order.
      let i = 0;
      for (let item = internals(cache).head; item !== null; item = item.next) {
        if (item.info.node !== null) expect(item.info.nodeName).toBe(tc.expected[i]!.metadata!.name);
        i++;
      }
      // Every cached node was visited by following the list.
      expect(i).toBe(cacheNodes.size);
      expect(snapshot.havePodsWithAffinityNodeInfoList.length).toBe(tc.expectedHavePodsWithAffinity ?? 0);
      expect(snapshot.usedPVCSet).toEqual(new Set(tc.expectedUsedPVCSet));
      // Always update the snapshot at the end of operations and compare it.
      cache.updateSnapshot(snapshot);
      compareCacheWithNodeInfoSnapshot(cache, snapshot);
    });
  }
});

function compareCacheWithNodeInfoSnapshot(cache: Cache, snapshot: Snapshot): void {
  const { nodes, nodeTree } = internals(cache);
  expect(snapshot.nodeInfoMap.size).toBe(nodeTree.numNodes);
  for (const [name, ni] of nodes) {
    if (ni.info.node === null) expect(snapshot.nodeInfoMap.get(name)).toBeUndefined();
    else expect(snapshot.nodeInfoMap.get(name)).toEqual(ni.info);
  }
  expect(snapshot.nodeInfoList.length).toBe(nodeTree.numNodes);
  const expectedNodeInfoList: NodeInfo[] = [];
  const expectedHavePodsWithAffinity: NodeInfo[] = [];
  const expectedUsedPVCSet = new Set<string>();
  for (const name of nodeTree.list().names) {
    const n = snapshot.nodeInfoMap.get(name);
    expect(n, `node ${name} exists in nodeTree but not in NodeInfoMap`).toBeDefined();
    expectedNodeInfoList.push(n!);
    if (n!.podsWithAffinity.length > 0) expectedHavePodsWithAffinity.push(n!);
    for (const key of n!.pvcRefCounts.keys()) expectedUsedPVCSet.add(key);
  }
  expect(snapshot.nodeInfoList).toHaveLength(expectedNodeInfoList.length);
  for (const [i, want] of expectedNodeInfoList.entries()) expect(snapshot.nodeInfoList[i]).toBe(want);
  for (const [i, want] of expectedHavePodsWithAffinity.entries()) {
    expect(snapshot.havePodsWithAffinityNodeInfoList[i]).toBe(want);
  }
  for (const key of expectedUsedPVCSet) expect(snapshot.usedPVCSet.has(key)).toBe(true);
}

describe("TestSchedulerCache_updateNodeInfoSnapshotList", () => {
  // Number of nodes per zone: zone 0 → 2, zone 1 → 6.
  const nodes: Node[] = [];
  let i = 0;
  [2, 6].forEach((nb, zone) => {
    for (let j = 0; j < nb; j++) {
      nodes.push({
        metadata: {
          name: `node-${i}`,
          labels: {
            "topology.kubernetes.io/region": `region-${zone}`,
            "topology.kubernetes.io/zone": `zone-${zone}`,
          },
        },
      });
      i++;
    }
  });

  let cache: Cache;
  let snapshot: Snapshot;
  const addNode = (i: number): void => {
    cache.addNode(nodes[i]!);
    const name = nodes[i]!.metadata!.name!;
    if (!snapshot.nodeInfoMap.has(name))
      snapshot.nodeInfoMap.set(name, internals(cache).nodes.get(name)!.info);
  };
  const updateSnapshot = (): void => {
    (cache as unknown as CacheInternals).updateNodeInfoSnapshotList(snapshot, true);
    compareCacheWithNodeInfoSnapshot(cache, snapshot);
  };

  const tests: { name: string; operations: () => void; expected: string[] }[] = [
    { name: "Empty cache", operations: () => {}, expected: [] },
    { name: "Single node", operations: () => addNode(0), expected: ["node-0"] },
    {
      name: "Two nodes",
      operations: () => {
        addNode(0);
        updateSnapshot();
        addNode(1);
      },
      expected: ["node-0", "node-1"],
    },
    {
      name: "bug 91601, two nodes, update the snapshot and add two nodes in different zones",
      operations: () => {
        addNode(2);
        addNode(3);
        updateSnapshot();
        addNode(4);
        addNode(0);
      },
      expected: ["node-2", "node-0", "node-3", "node-4"],
    },
    {
      name: "bug 91601, 6 nodes, one in a different zone",
      operations: () => {
        addNode(2);
        addNode(3);
        addNode(4);
        addNode(5);
        updateSnapshot();
        addNode(6);
        addNode(0);
      },
      expected: ["node-2", "node-0", "node-3", "node-4", "node-5", "node-6"],
    },
    {
      name: "bug 91601, 7 nodes, two in a different zone",
      operations: () => {
        addNode(2);
        updateSnapshot();
        addNode(3);
        addNode(4);
        updateSnapshot();
        addNode(5);
        addNode(6);
        addNode(0);
        addNode(1);
      },
      expected: ["node-2", "node-0", "node-3", "node-1", "node-4", "node-5", "node-6"],
    },
    {
      name: "bug 91601, 7 nodes, two in a different zone, different zone order",
      operations: () => {
        addNode(2);
        addNode(1);
        updateSnapshot();
        addNode(3);
        addNode(4);
        updateSnapshot();
        addNode(5);
        addNode(6);
        addNode(0);
      },
      expected: ["node-2", "node-1", "node-3", "node-0", "node-4", "node-5", "node-6"],
    },
  ];
  for (const tc of tests) {
    it(tc.name, () => {
      cache = newCache({ ttlMs: 1000 });
      snapshot = new Snapshot();
      tc.operations();
      updateSnapshot();
      expect(snapshot.nodeInfoList.map((n) => n.nodeName)).toEqual(tc.expected);
    });
  }
});

describe("UpdateSnapshot image states", () => {
  it("snapshots freeze the number of nodes having an image, the cache keeps it current", () => {
    const cache = newCache();
    cache.addNode(makeNode().name("a").images({ img: 10 }).obj());
    const snapshot = new Snapshot();
    cache.updateSnapshot(snapshot);
    expect(snapshot.get("a")!.imageStates.get("img")).toEqual({ size: 10, numNodes: 1 });
    cache.addNode(makeNode().name("b").images({ img: 10 }).obj());
    cache.updateSnapshot(snapshot);
    // Node a did not change, so its snapshot copy keeps the count from when it was copied (upstream).
    expect(snapshot.get("a")!.imageStates.get("img")!.numNodes).toBe(1);
    expect(snapshot.get("b")!.imageStates.get("img")!.numNodes).toBe(2);
    expect(internals(cache).nodes.get("a")!.info.imageStates.get("img")!.numNodes).toBe(2);
  });
});
