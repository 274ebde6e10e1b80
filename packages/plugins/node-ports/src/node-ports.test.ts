// upstream: pkg/scheduler/framework/plugins/nodeports/node_ports_test.go (TestNodePorts, TestPreFilterDisabled)
import type { ContainerPort, Pod } from "@kubesched/api";
import {
  createPluginHarness,
  makeNode,
  makePod,
  type StatusSummary,
  statusSummary,
} from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { name, nodePortsPlugin } from "./index";
import { ErrReason } from "./reasons";

/** `PROTOCOL/hostIP/hostPort` strings → a pod with those ports in one container, on `host`. */
function newPod(host: string, ...hostPortInfos: string[]): Pod {
  const networkPorts: ContainerPort[] = hostPortInfos.map((info) => {
    const [protocol, hostIP, hostPort] = info.split("/");
    return { hostIP: hostIP!, hostPort: Number(hostPort), protocol: protocol!, containerPort: 0 };
  });
  return makePod().node(host).containerPort(networkPorts).obj();
}

const conflict: StatusSummary = { code: "Unschedulable", reasons: [ErrReason] };
const success: StatusSummary = { code: "Success", reasons: [] };

describe("TestNodePorts", () => {
  const tests: {
    pod: Pod;
    existing: Pod[];
    name: string;
    wantPreFilterStatus?: StatusSummary;
    wantFilterStatus?: StatusSummary;
  }[] = [
    {
      pod: makePod().obj(),
      existing: [],
      name: "skip filter",
      wantPreFilterStatus: { code: "Skip", reasons: [] },
    },
    {
      pod: newPod("m1", "UDP/127.0.0.1/8080"),
      existing: [newPod("m1", "UDP/127.0.0.1/9090")],
      name: "other port",
    },
    {
      pod: newPod("m1", "UDP/127.0.0.1/8080"),
      existing: [newPod("m1", "UDP/127.0.0.1/8080")],
      name: "same udp port",
      wantFilterStatus: conflict,
    },
    {
      pod: newPod("m1", "TCP/127.0.0.1/8080"),
      existing: [newPod("m1", "TCP/127.0.0.1/8080")],
      name: "same tcp port",
      wantFilterStatus: conflict,
    },
    {
      pod: newPod("m1", "TCP/127.0.0.1/8080"),
      existing: [newPod("m1", "TCP/127.0.0.2/8080")],
      name: "different host ip",
    },
    {
      pod: newPod("m1", "UDP/127.0.0.1/8080"),
      existing: [newPod("m1", "TCP/127.0.0.1/8080")],
      name: "different protocol",
    },
    {
      pod: newPod("m1", "UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"),
      existing: [newPod("m1", "UDP/127.0.0.1/8080")],
      name: "second udp port conflict",
      wantFilterStatus: conflict,
    },
    {
      pod: newPod("m1", "TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"),
      existing: [newPod("m1", "TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081")],
      name: "first tcp port conflict",
      wantFilterStatus: conflict,
    },
    {
      pod: newPod("m1", "TCP/0.0.0.0/8001"),
      existing: [newPod("m1", "TCP/127.0.0.1/8001")],
      name: "first tcp port conflict due to 0.0.0.0 hostIP",
      wantFilterStatus: conflict,
    },
    {
      pod: newPod("m1", "TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"),
      existing: [newPod("m1", "TCP/127.0.0.1/8001")],
      name: "TCP hostPort conflict due to 0.0.0.0 hostIP",
      wantFilterStatus: conflict,
    },
    {
      pod: newPod("m1", "TCP/127.0.0.1/8001"),
      existing: [newPod("m1", "TCP/0.0.0.0/8001")],
      name: "second tcp port conflict to 0.0.0.0 hostIP",
      wantFilterStatus: conflict,
    },
    {
      pod: newPod("m1", "UDP/127.0.0.1/8001"),
      existing: [newPod("m1", "TCP/0.0.0.0/8001")],
      name: "second different protocol",
    },
    {
      pod: newPod("m1", "UDP/127.0.0.1/8001"),
      existing: [newPod("m1", "TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001")],
      name: "UDP hostPort conflict due to 0.0.0.0 hostIP",
      wantFilterStatus: conflict,
    },
    {
      pod: makePod()
        .initContainerPort(false /* sidecar */, [{ containerPort: 8001, hostPort: 8001, protocol: "TCP" }])
        .obj(),
      existing: [newPod("m1", "TCP/0.0.0.0/8001")],
      name: "non-sidecar initContainer using hostPort",
      wantPreFilterStatus: { code: "Skip", reasons: [] },
    },
    {
      pod: makePod()
        .initContainerPort(true /* sidecar */, [{ containerPort: 8001, hostPort: 8001, protocol: "TCP" }])
        .obj(),
      existing: [newPod("m1", "TCP/0.0.0.0/8001")],
      name: "TCP hostPort conflict from sidecar initContainer",
      wantFilterStatus: conflict,
    },
  ];
  for (const tc of tests) {
    it(tc.name, async () => {
      // The existing pods all run on node m1.
      const h = await createPluginHarness({
        plugin: nodePortsPlugin,
        nodes: [makeNode().name("m1").obj()],
        pods: tc.existing,
      });
      const got = h.filter(tc.pod);
      // The runtime records a PreFilter Skip in the cycle state (the plugin's Filter is skipped).
      const preFilterStatus = got.state.skipFilterPlugins.has(name)
        ? { code: "Skip", reasons: [] }
        : statusSummary(got.preFilter.status);
      expect(preFilterStatus).toEqual(tc.wantPreFilterStatus ?? success);
      expect(statusSummary(got.statuses.get("m1"))).toEqual(tc.wantFilterStatus ?? success);
    });
  }
});

describe("TestPreFilterDisabled", () => {
  it("Filter without PreFilter state is an error", async () => {
    const h = await createPluginHarness({ plugin: nodePortsPlugin, nodes: [makeNode().obj()] });
    // The runtime wraps a Filter error with the plugin's name.
    expect(statusSummary(h.runFilter(h.newCycleState(), makePod().obj(), ""))).toEqual({
      code: "Error",
      reasons: ['running "NodePorts" filter plugin: reading "PreFilterNodePorts" from cycleState: not found'],
    });
  });
});
