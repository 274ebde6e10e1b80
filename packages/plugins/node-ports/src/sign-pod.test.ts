// upstream: pkg/scheduler/framework/plugins/nodeports/node_ports.go (SignPod: HostPortsSigner,
// whose table is the framework's TestHostPortsSigner).
import { createPluginHarness, makePod, type StatusSummary, signPodSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { nodePortsPlugin } from "./index";

const ok: StatusSummary = { code: "Success", reasons: [] };

describe("SignPod", () => {
  it("signs the pod's host ports, unique and sorted", async () => {
    const { plugin } = await createPluginHarness({ plugin: nodePortsPlugin });
    const pod = makePod().name("p").hostPort(8080).hostPort(80).hostPort(8080).obj();
    expect(signPodSummary(plugin, pod)).toEqual({
      fragments: [{ key: "v1.Pod.Spec.HostPorts()", value: [80, 8080] }],
      status: ok,
    });
  });
});
