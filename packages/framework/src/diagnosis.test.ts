// upstream: pkg/scheduler/framework/types_test.go (TestFitError_Error) and the Diagnosis /
// NodeToStatus helpers of pkg/scheduler/framework/types.go.
import type { Pod } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { Diagnosis, FitError, NodeToStatus } from "./diagnosis";
import type { NodeInfo } from "./node-info";
import { seededRandom } from "./random";
import { Code, Status } from "./status";

const pod: Pod = { metadata: { name: "p", namespace: "default" }, spec: { containers: [] } };

function diagnosis(opts: {
  statuses?: Record<string, Status>;
  absent?: Status;
  preFilterMsg?: string;
  postFilterMsg?: string;
}): Diagnosis {
  const d = new Diagnosis();
  for (const [n, s] of Object.entries(opts.statuses ?? {})) d.nodeToStatus.set(n, s);
  if (opts.absent) d.nodeToStatus.absentNodesStatus = opts.absent;
  d.preFilterMsg = opts.preFilterMsg ?? "";
  d.postFilterMsg = opts.postFilterMsg ?? "";
  return d;
}

const unsched = (msg: string) => new Status(Code.Unschedulable, msg);

describe("TestFitError_Error", () => {
  const prefilterStatuses = {
    // Inserted by the framework; not repeated in the message.
    node1: unsched("Node(s) failed PreFilter plugin FalsePreFilter"),
    node2: unsched("Node(s) failed PreFilter plugin FalsePreFilter"),
    node3: unsched("Node(s) failed PreFilter plugin FalsePreFilter"),
  };
  const oneFilter = {
    node1: unsched("Node(s) failed Filter plugin FalseFilter-1"),
    node2: unsched("Node(s) failed Filter plugin FalseFilter-1"),
    node3: unsched("Node(s) failed Filter plugin FalseFilter-1"),
  };
  const twoFilters = {
    node1: unsched("Node(s) failed Filter plugin FalseFilter-1"),
    node2: unsched("Node(s) failed Filter plugin FalseFilter-1"),
    node3: unsched("Node(s) failed Filter plugin FalseFilter-2"),
  };
  const cases: {
    name: string;
    numAllNodes: number;
    diagnosis: Diagnosis;
    want: string;
  }[] = [
    {
      name: "nodes failed Prefilter plugin",
      numAllNodes: 3,
      diagnosis: diagnosis({
        preFilterMsg: "Node(s) failed PreFilter plugin FalsePreFilter",
        statuses: prefilterStatuses,
      }),
      want: "0/3 nodes are available: Node(s) failed PreFilter plugin FalsePreFilter.",
    },
    {
      name: "nodes failed Prefilter plugin and the preemption also failed",
      numAllNodes: 3,
      diagnosis: diagnosis({
        preFilterMsg: "Node(s) failed PreFilter plugin FalsePreFilter",
        statuses: prefilterStatuses,
        postFilterMsg: "Error running PostFilter plugin FailedPostFilter",
      }),
      want: "0/3 nodes are available: Node(s) failed PreFilter plugin FalsePreFilter. Error running PostFilter plugin FailedPostFilter",
    },
    {
      name: "nodes failed one Filter plugin with an empty PostFilterMsg",
      numAllNodes: 3,
      diagnosis: diagnosis({ statuses: oneFilter }),
      want: "0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1.",
    },
    {
      name: "nodes failed one Filter plugin with a non-empty PostFilterMsg",
      numAllNodes: 3,
      diagnosis: diagnosis({
        statuses: oneFilter,
        postFilterMsg: "Error running PostFilter plugin FailedPostFilter",
      }),
      want: "0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1. Error running PostFilter plugin FailedPostFilter",
    },
    {
      name: "nodes failed two Filter plugins with an empty PostFilterMsg",
      numAllNodes: 3,
      diagnosis: diagnosis({ statuses: twoFilters }),
      want: "0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-2, 2 Node(s) failed Filter plugin FalseFilter-1.",
    },
    {
      name: "nodes failed two Filter plugins with a non-empty PostFilterMsg",
      numAllNodes: 3,
      diagnosis: diagnosis({
        statuses: twoFilters,
        postFilterMsg: "Error running PostFilter plugin FailedPostFilter",
      }),
      want: "0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-2, 2 Node(s) failed Filter plugin FalseFilter-1. Error running PostFilter plugin FailedPostFilter",
    },
    {
      name: "failed to Permit on node",
      numAllNodes: 1,
      diagnosis: diagnosis({ statuses: { node1: unsched("Node failed Permit plugin Permit-1") } }),
      want: "0/1 nodes are available: 1 Node failed Permit plugin Permit-1.",
    },
    {
      name: "failed to Reserve on node",
      numAllNodes: 1,
      diagnosis: diagnosis({ statuses: { node1: unsched("Node failed Reserve plugin Reserve-1") } }),
      want: "0/1 nodes are available: 1 Node failed Reserve plugin Reserve-1.",
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const err = new FitError(pod, tc.numAllNodes, tc.diagnosis);
      expect(err.message).toBe(tc.want);
      expect(String(err)).toBe(`FitError: ${tc.want}`);
      expect(err).toBeInstanceOf(Error);
    });
  }
});

// Not upstream tables: the histogram rules of FitError.Error() stated in upstream.md §4.4.
describe("FitError message histogram", () => {
  it("counts absent nodes with the absent-node status' reasons", () => {
    const d = diagnosis({
      statuses: { node2: unsched("injecting failure") },
      absent: new Status(
        Code.UnschedulableAndUnresolvable,
        "node(s) didn't satisfy plugin(s) [FakePreFilter]",
      ),
    });
    expect(new FitError(pod, 3, d).message).toBe(
      "0/3 nodes are available: 1 injecting failure, 2 node(s) didn't satisfy plugin(s) [FakePreFilter].",
    );
  });

  it("absent status without reasons adds nothing", () => {
    const d = diagnosis({ statuses: { a: unsched("x") } });
    expect(new FitError(pod, 5, d).message).toBe("0/5 nodes are available: 1 x.");
  });

  it("sorts the counted reasons as plain strings (10 before 2)", () => {
    const statuses: Record<string, Status> = {};
    for (let i = 0; i < 10; i++) statuses[`a${i}`] = unsched("Insufficient cpu");
    statuses.b0 = unsched("node(s) had untolerated taint(s)");
    statuses.b1 = unsched("node(s) had untolerated taint(s)");
    expect(new FitError(pod, 12, diagnosis({ statuses })).message).toBe(
      "0/12 nodes are available: 10 Insufficient cpu, 2 node(s) had untolerated taint(s).",
    );
  });

  it("counts every reason of a status", () => {
    const s = new Status(Code.Unschedulable, "Insufficient cpu", "Insufficient memory");
    const d = diagnosis({ statuses: { a: s, b: s.clone() } });
    expect(new FitError(pod, 2, d).message).toBe(
      "0/2 nodes are available: 2 Insufficient cpu, 2 Insufficient memory.",
    );
  });

  it("an error status' message comes first among its reasons", () => {
    const s = new Status(Code.Unschedulable, "b").withError(new Error("a"));
    expect(new FitError(pod, 1, diagnosis({ statuses: { n: s } })).message).toBe(
      "0/1 nodes are available: 1 a, 1 b.",
    );
  });

  it("no reasons at all: only the header", () => {
    expect(new FitError(pod, 0, new Diagnosis()).message).toBe("0/0 nodes are available:");
  });

  it("a preemption message follows without an added period", () => {
    const d = diagnosis({
      statuses: { a: unsched("Insufficient cpu") },
      postFilterMsg: "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
    });
    expect(new FitError(pod, 1, d).message).toBe(
      "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
    );
  });
});

describe("Diagnosis.addPluginStatus", () => {
  it("records rejecting plugins and pending plugins; ignores statuses without a plugin", () => {
    const d = new Diagnosis();
    d.addPluginStatus(new Status(Code.Unschedulable).withPlugin("A"));
    d.addPluginStatus(new Status(Code.UnschedulableAndUnresolvable).withPlugin("B"));
    d.addPluginStatus(new Status(Code.Pending).withPlugin("C"));
    d.addPluginStatus(new Status(Code.Error).withPlugin("D"));
    d.addPluginStatus(new Status(Code.Unschedulable));
    expect([...d.unschedulablePlugins]).toEqual(["A", "B", "C"]);
    expect([...d.pendingPlugins]).toEqual(["C"]);
  });
});

describe("NodeToStatus", () => {
  const ni = (name: string) => ({ nodeName: name }) as NodeInfo;
  const lister = { list: () => [ni("a"), ni("b"), ni("c")] };

  it("get returns the absent-node status for nodes not recorded", () => {
    const m = new NodeToStatus();
    const s = unsched("x");
    m.set("a", s);
    expect(m.get("a")).toBe(s);
    expect(m.get("b").code).toBe(Code.UnschedulableAndUnresolvable);
    expect(m.has("b")).toBe(false);
    expect(m.size).toBe(1);
  });

  it("nodesForStatusCode includes absent nodes when the absent status has the code", () => {
    const m = new NodeToStatus();
    m.set("a", unsched("x"));
    m.set("b", new Status(Code.UnschedulableAndUnresolvable, "y"));
    expect(m.nodesForStatusCode(lister, Code.Unschedulable).map((n) => n.nodeName)).toEqual(["a"]);
    expect(m.nodesForStatusCode(lister, Code.UnschedulableAndUnresolvable).map((n) => n.nodeName)).toEqual([
      "b",
      "c",
    ]);
    m.absentNodesStatus = new Status(Code.Unschedulable);
    expect(m.nodesForStatusCode(lister, Code.Unschedulable).map((n) => n.nodeName)).toEqual(["a", "c"]);
  });

  it("setNew (each node once between reads) gives what set gives: entries in order, size, get", () => {
    const rnd = seededRandom(5);
    const names = Array.from({ length: 30 }, (_, i) => `n${i}`);
    for (let round = 0; round < 50; round++) {
      const m = new NodeToStatus();
      const ref = new Map<string, Status>();
      // Nodes recorded with setNew since the last read: each at most once.
      let fresh = new Set<string>();
      for (let op = 0; op < 60; op++) {
        const n = names[rnd.intn(names.length)]!;
        const s = unsched(`r${rnd.intn(3)}`);
        switch (rnd.intn(6)) {
          case 0:
            m.set(n, s);
            ref.set(n, s);
            fresh = new Set();
            break;
          case 1:
          case 2:
          case 3:
            if (!fresh.has(n)) {
              m.setNew(ni(n), s);
              ref.set(n, s);
              fresh.add(n);
            }
            break;
          case 4:
            expect(m.size).toBe(ref.size);
            break;
          default:
            expect(m.get(n)).toBe(ref.get(n) ?? m.absentNodesStatus);
            expect(m.has(n)).toBe(ref.has(n));
            fresh = new Set();
        }
      }
      expect(m.size).toBe(ref.size);
      const entries: [string, Status][] = [];
      m.forEachExplicitNode((n, s) => entries.push([n, s]));
      expect(entries).toEqual([...ref]);
    }
  });

  // A preemption after no node fit: the Filter pass recorded every node of the snapshot (from a
  // rotating start index) with setNew; reading the statuses back must not touch the nodes' names
  // (issue 27: the NodeInfos are cold, and a map of 5000 names was built per preemptor).
  describe("after a Filter pass over every node", () => {
    const codes = [Code.Unschedulable, Code.UnschedulableAndUnresolvable];
    const names = Array.from({ length: 12 }, (_, i) => `n${i}`);
    let nameReads = 0;
    const counted = (name: string) =>
      ({
        get nodeName() {
          nameReads++;
          return name;
        },
      }) as NodeInfo;

    function recorded(start: number, visit: readonly NodeInfo[], seed: number) {
      const rnd = seededRandom(seed);
      const m = new NodeToStatus();
      const ref = new NodeToStatus();
      for (let k = 0; k < visit.length; k++) {
        const node = visit[(start + k) % visit.length] as NodeInfo;
        const s = new Status(codes[rnd.intn(2)] as Code, `r${rnd.intn(3)}`);
        m.setNew(node, s);
        ref.set(names[nodes.indexOf(node)] as string, s);
      }
      return { m, ref };
    }
    const nodes = names.map(counted);
    const lister = { list: () => nodes };

    it("nodesForStatusCode equals the map's answer for every start index, reading no name", () => {
      for (let start = 0; start < nodes.length; start++) {
        const { m, ref } = recorded(start, nodes, start);
        for (const code of codes) {
          nameReads = 0;
          const got = m.nodesForStatusCode(lister, code);
          expect(nameReads).toBe(0);
          expect(got).toEqual(ref.nodesForStatusCode(lister, code));
        }
      }
    });

    it("a pass over part of the nodes, or one that recorded a node twice, is answered from the map", () => {
      const { m, ref } = recorded(3, nodes.slice(0, 7), 1);
      for (const code of codes)
        expect(m.nodesForStatusCode(lister, code)).toEqual(ref.nodesForStatusCode(lister, code));
      const twice = new NodeToStatus();
      for (let k = 0; k < nodes.length; k++) twice.setNew(nodes[k === 5 ? 4 : k] as NodeInfo, unsched("x"));
      expect(twice.nodesForStatusCode(lister, Code.Unschedulable).map((n) => n.nodeName)).toEqual(
        names.filter((n) => n !== "n5"),
      );
    });

    it("get of no node name and FitError's message read no name", () => {
      const { m } = recorded(5, nodes, 9);
      const d = new Diagnosis();
      d.nodeToStatus = m;
      nameReads = 0;
      expect(m.get("")).toBe(m.absentNodesStatus);
      const msg = new FitError(pod, nodes.length, d).message;
      expect(nameReads).toBe(0);
      const hist = new Map<string, number>();
      m.forEachExplicitNode((_n, s) => {
        hist.set(s.message(), (hist.get(s.message()) ?? 0) + 1);
      });
      const want = [...hist].map(([r, n]) => `${n} ${r}`).sort((a, b) => (a < b ? -1 : 1));
      expect(msg).toBe(`0/${nodes.length} nodes are available: ${want.join(", ")}.`);
    });
  });
});
