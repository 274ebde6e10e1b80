import type { Pod } from "kubernetes-types/core/v1.js";
import { describe, expect, it } from "vitest";
import { getContainerPorts, HostPortInfo } from "./ports";

// upstream: pkg/scheduler/framework/types_test.go
type Param = [protocol: string, ip: string, port: number];

describe("TestHostPortInfo_AddRemove", () => {
  const added8: Param[] = [
    ["TCP", "127.0.0.1", 79],
    ["UDP", "127.0.0.1", 80],
    ["TCP", "127.0.0.1", 81],
    ["TCP", "127.0.0.1", 82],
    ["TCP", "0.0.0.0", 79],
    ["UDP", "0.0.0.0", 80],
    ["TCP", "0.0.0.0", 81],
    ["TCP", "0.0.0.0", 82],
  ];
  const cases: { name: string; added: Param[]; removed?: Param[]; length: number }[] = [
    { name: "normal add case", added: [...added8, ["TCP", "0.0.0.0", 0], ["TCP", "0.0.0.0", -1]], length: 8 },
    {
      name: "empty ip and protocol add should work",
      added: [
        ["", "127.0.0.1", 79],
        ["UDP", "127.0.0.1", 80],
        ["", "127.0.0.1", 81],
        ["", "127.0.0.1", 82],
        ["", "", 79],
        ["UDP", "", 80],
        ["", "", 81],
        ["", "", 82],
        ["", "", 0],
        ["", "", -1],
      ],
      length: 8,
    },
    { name: "normal remove case", added: added8, removed: added8, length: 0 },
    {
      name: "empty ip and protocol remove should work",
      added: added8,
      removed: [
        ["", "127.0.0.1", 79],
        ["", "127.0.0.1", 81],
        ["", "127.0.0.1", 82],
        ["UDP", "127.0.0.1", 80],
        ["", "", 79],
        ["", "", 81],
        ["", "", 82],
        ["UDP", "", 80],
      ],
      length: 0,
    },
  ];
  it.each(cases)("$name", ({ added, removed, length }) => {
    const hp = new HostPortInfo();
    for (const [protocol, ip, port] of added) hp.add(ip, protocol, port);
    for (const [protocol, ip, port] of removed ?? []) hp.remove(ip, protocol, port);
    expect(hp.len()).toBe(length);
  });
});

describe("TestHostPortInfo_Check", () => {
  const cases: { name: string; added: Param[]; check: Param; expect: boolean }[] = [
    {
      name: "empty check should check 0.0.0.0 and TCP",
      added: [["TCP", "127.0.0.1", 80]],
      check: ["", "", 81],
      expect: false,
    },
    {
      name: "empty check should check 0.0.0.0 and TCP (conflicted)",
      added: [["TCP", "127.0.0.1", 80]],
      check: ["", "", 80],
      expect: true,
    },
    {
      name: "empty port check should pass",
      added: [["TCP", "127.0.0.1", 80]],
      check: ["", "", 0],
      expect: false,
    },
    {
      name: "0.0.0.0 should check all registered IPs",
      added: [["TCP", "127.0.0.1", 80]],
      check: ["TCP", "0.0.0.0", 80],
      expect: true,
    },
    {
      name: "0.0.0.0 with different protocol should be allowed",
      added: [["UDP", "127.0.0.1", 80]],
      check: ["TCP", "0.0.0.0", 80],
      expect: false,
    },
    {
      name: "0.0.0.0 with different port should be allowed",
      added: [
        ["TCP", "127.0.0.1", 79],
        ["TCP", "127.0.0.1", 81],
        ["TCP", "127.0.0.1", 82],
      ],
      check: ["TCP", "0.0.0.0", 80],
      expect: false,
    },
    {
      name: "normal ip should check all registered 0.0.0.0",
      added: [["TCP", "0.0.0.0", 80]],
      check: ["TCP", "127.0.0.1", 80],
      expect: true,
    },
    {
      name: "normal ip with different port/protocol should be allowed (0.0.0.0)",
      added: [
        ["TCP", "0.0.0.0", 79],
        ["UDP", "0.0.0.0", 80],
        ["TCP", "0.0.0.0", 81],
        ["TCP", "0.0.0.0", 82],
      ],
      check: ["TCP", "127.0.0.1", 80],
      expect: false,
    },
    {
      name: "normal ip with different port/protocol should be allowed",
      added: [
        ["TCP", "127.0.0.1", 79],
        ["UDP", "127.0.0.1", 80],
        ["TCP", "127.0.0.1", 81],
        ["TCP", "127.0.0.1", 82],
      ],
      check: ["TCP", "127.0.0.1", 80],
      expect: false,
    },
  ];
  it.each(cases)("$name", ({ added, check, expect: want }) => {
    const hp = new HostPortInfo();
    for (const [protocol, ip, port] of added) hp.add(ip, protocol, port);
    expect(hp.checkConflict(check[1], check[0], check[2])).toBe(want);
  });

  it("clone is independent", () => {
    const hp = new HostPortInfo();
    hp.add("", "", 80);
    const c = hp.clone();
    c.remove("", "", 80);
    expect(hp.len()).toBe(1);
    expect(c.len()).toBe(0);
  });
});

describe("getContainerPorts", () => {
  it("returns host ports of sidecars then containers, skipping regular init containers", () => {
    const pod: Pod = {
      spec: {
        initContainers: [
          { name: "init", ports: [{ containerPort: 1, hostPort: 1001 }] },
          { name: "sidecar", restartPolicy: "Always", ports: [{ containerPort: 2, hostPort: 1002 }] },
        ],
        containers: [
          {
            name: "app",
            ports: [
              { containerPort: 3, hostPort: 1003 },
              { containerPort: 4 },
              { containerPort: 5, hostPort: 0 },
            ],
          },
        ],
      },
    };
    expect(getContainerPorts(pod).map((p) => p.hostPort)).toEqual([1002, 1003]);
    expect(getContainerPorts(pod, pod)).toHaveLength(4);
    expect(getContainerPorts()).toEqual([]);
  });
});
