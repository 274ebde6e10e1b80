// PodInfo.hostPorts: getContainerPorts of the pod, computed once; NodeInfo's used ports follow it.
import { getContainerPorts, type Pod } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { NodeInfo } from "./node-info";
import { PodInfo } from "./pod-info";

const pods: Pod[] = [
  { metadata: { name: "none", uid: "none" }, spec: { containers: [{ name: "c" }] } },
  {
    metadata: { name: "container-port-only", uid: "cpo" },
    spec: { containers: [{ name: "c", ports: [{ containerPort: 80 }] }] },
  },
  {
    metadata: { name: "host-ports", uid: "hp" },
    spec: {
      initContainers: [
        { name: "sidecar", restartPolicy: "Always", ports: [{ containerPort: 9, hostPort: 9000 }] },
        { name: "init", ports: [{ containerPort: 8, hostPort: 8000 }] },
      ],
      containers: [
        { name: "a", ports: [{ containerPort: 80, hostPort: 8080, protocol: "UDP", hostIP: "1.2.3.4" }] },
        { name: "b", ports: [{ containerPort: 81 }, { containerPort: 82, hostPort: 8082 }] },
      ],
    },
  },
  { metadata: { name: "no-spec", uid: "ns" } },
];

describe("PodInfo.hostPorts", () => {
  it("equals getContainerPorts of the pod, the same array on every call", () => {
    for (const pod of pods) {
      const pi = new PodInfo(pod);
      expect(pi.hostPorts()).toEqual(getContainerPorts(pod));
      expect(pi.hostPorts()).toBe(pi.hostPorts());
    }
  });

  it("NodeInfo's used ports after additions and removals are those of the pods left", () => {
    const ni = new NodeInfo();
    for (const pod of pods) ni.addPod(pod);
    expect(ni.usedPorts.checkConflict("1.2.3.4", "UDP", 8080)).toBe(true);
    expect(ni.usedPorts.checkConflict("0.0.0.0", "TCP", 9000)).toBe(true);
    expect(ni.usedPorts.checkConflict("0.0.0.0", "TCP", 8000)).toBe(false);
    ni.removePod(pods[2] as Pod);
    expect(ni.usedPorts.checkConflict("1.2.3.4", "UDP", 8080)).toBe(false);
    expect(ni.usedPorts.checkConflict("0.0.0.0", "TCP", 8082)).toBe(false);
    ni.addPodInfo(new PodInfo(pods[2] as Pod));
    expect(ni.usedPorts.checkConflict("0.0.0.0", "TCP", 8082)).toBe(true);
  });
});
