// upstream: staging/src/k8s.io/kube-scheduler/framework/signers_test.go (v0.37.0-beta.0)
import type { Pod, PodSpec, Toleration } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import {
  hostPortsSigner,
  nodeAffinitySigner,
  podResourcesSigner,
  tolerationsSigner,
  volumesSigner,
} from "./signers";

describe("TestHostPortsSigner", () => {
  const tests: { name: string; pod: Pod; want: number[] }[] = [
    { name: "no containers", pod: {}, want: [] },
    {
      name: "containers without host ports",
      pod: { spec: { containers: [{ name: "c", ports: [{ containerPort: 80 }] }] } },
      want: [],
    },
    {
      name: "single container with host port",
      pod: { spec: { containers: [{ name: "c", ports: [{ containerPort: 8080, hostPort: 8080 }] }] } },
      want: [8080],
    },
    {
      name: "multiple containers, unsorted host ports, duplicates",
      pod: {
        spec: {
          initContainers: [{ name: "i", ports: [{ containerPort: 9090, hostPort: 9090 }] }],
          containers: [
            { name: "a", ports: [{ containerPort: 80, hostPort: 80 }] },
            // duplicate 80
            {
              name: "b",
              ports: [
                { containerPort: 443, hostPort: 443 },
                { containerPort: 80, hostPort: 80 },
              ],
            },
          ],
        },
      },
      want: [80, 443, 9090],
    },
  ];
  for (const tt of tests) {
    it(tt.name, () => {
      expect(hostPortsSigner(tt.pod)).toEqual(tt.want);
    });
  }
});

describe("TestTolerationsSigner", () => {
  const tests: { name: string; pod: Pod; want: Toleration[] }[] = [
    { name: "no tolerations", pod: {}, want: [] },
    {
      name: "single toleration",
      pod: {
        spec: { containers: [], tolerations: [{ key: "key1", value: "value1", effect: "NoSchedule" }] },
      },
      want: [{ key: "key1", value: "value1", effect: "NoSchedule" }],
    },
    {
      name: "multiple tolerations, unsorted",
      pod: {
        spec: {
          containers: [],
          tolerations: [
            { key: "b", value: "2" },
            { key: "a", value: "1" },
            { key: "b", value: "1" },
          ],
        },
      },
      want: [
        { key: "a", value: "1" },
        { key: "b", value: "1" },
        { key: "b", value: "2" },
      ],
    },
  ];
  for (const tt of tests) {
    it(tt.name, () => {
      expect(tolerationsSigner(tt.pod)).toEqual(tt.want);
    });
  }
});

describe("TestVolumesSigner", () => {
  const hostPath = { hostPath: { path: "/tmp" } };
  const emptyDir = { emptyDir: {} };
  const configMap = { configMap: { name: "cm" } };
  const secret = { secret: { secretName: "secret" } };
  type Volume = NonNullable<PodSpec["volumes"]>[number];
  const volume = (name: string, source: object): Volume => ({ name, ...source });

  const tests: { name: string; pod: Pod; want: string[] }[] = [
    { name: "no volumes", pod: {}, want: [] },
    {
      name: "only ignored volumes (ConfigMap, Secret)",
      pod: { spec: { containers: [], volumes: [volume("v1", configMap), volume("v2", secret)] } },
      want: [],
    },
    {
      name: "mixed volumes, should be filtered and sorted",
      pod: {
        spec: {
          containers: [],
          // e.g. {"hostPath":{"path":"/tmp"}}, ignored, {"emptyDir":{}}
          volumes: [volume("v1", hostPath), volume("v2", configMap), volume("v3", emptyDir)],
        },
      },
      // {"emptyDir":{}} comes before {"hostPath":...} alphabetically.
      want: [JSON.stringify(emptyDir), JSON.stringify(hostPath)],
    },
  ];
  for (const tt of tests) {
    it(tt.name, () => {
      expect(volumesSigner(tt.pod)).toEqual(tt.want);
    });
  }

  it("equal sources give equal strings whatever their fields' order (kubesched)", () => {
    const a: Pod = { spec: { containers: [], volumes: [{ name: "a", nfs: { server: "s", path: "/p" } }] } };
    const b: Pod = { spec: { containers: [], volumes: [{ name: "b", nfs: { path: "/p", server: "s" } }] } };
    expect(volumesSigner(a)).toEqual(volumesSigner(b));
  });
});

describe("TestNodeAffinitySigner", () => {
  const tests: { name: string; input: Pod; expected: unknown }[] = [
    { name: "nil affinity", input: {}, expected: null },
    {
      name: "empty affinity",
      input: {
        spec: {
          containers: [],
          affinity: {
            nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } },
          },
        },
      },
      expected: { Required: [], Preferred: [] },
    },
    {
      name: "affinity unsorted",
      input: {
        spec: {
          containers: [],
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  {
                    matchExpressions: [
                      { key: "kk3", operator: "In", values: ["v3", "kv4"] },
                      { key: "kk2", operator: "In", values: ["kv1", "v2"] },
                    ],
                    matchFields: [{ key: "kk1", operator: "In", values: ["kv3", "v4"] }],
                  },
                  {
                    matchExpressions: [{ key: "k2", operator: "In", values: ["v1", "v2"] }],
                    matchFields: [{ key: "k1", operator: "In", values: ["v3", "v4"] }],
                  },
                ],
              },
              preferredDuringSchedulingIgnoredDuringExecution: [
                {
                  weight: 3,
                  preference: {
                    matchExpressions: [{ key: "ppk2", operator: "In", values: ["ppv1", "v2"] }],
                    matchFields: [{ key: "ppk1", operator: "In", values: ["ppv3", "v4"] }],
                  },
                },
                {
                  weight: 1,
                  preference: {
                    matchExpressions: [{ key: "pk2", operator: "In", values: ["pv1", "v2"] }],
                    matchFields: [{ key: "pk1", operator: "In", values: ["pv3", "v4"] }],
                  },
                },
              ],
            },
          },
        },
      },
      expected: {
        Required: [
          `{"MatchExpressions":["{\\"key\\":\\"k2\\",\\"operator\\":\\"In\\",\\"values\\":[\\"v1\\",\\"v2\\"]}"],"MatchFields":["{\\"key\\":\\"k1\\",\\"operator\\":\\"In\\",\\"values\\":[\\"v3\\",\\"v4\\"]}"]}`,
          `{"MatchExpressions":["{\\"key\\":\\"kk2\\",\\"operator\\":\\"In\\",\\"values\\":[\\"kv1\\",\\"v2\\"]}","{\\"key\\":\\"kk3\\",\\"operator\\":\\"In\\",\\"values\\":[\\"kv4\\",\\"v3\\"]}"],"MatchFields":["{\\"key\\":\\"kk1\\",\\"operator\\":\\"In\\",\\"values\\":[\\"kv3\\",\\"v4\\"]}"]}`,
        ],
        Preferred: [
          `{"Weight":1,"Preference":{"MatchExpressions":["{\\"key\\":\\"pk2\\",\\"operator\\":\\"In\\",\\"values\\":[\\"pv1\\",\\"v2\\"]}"],"MatchFields":["{\\"key\\":\\"pk1\\",\\"operator\\":\\"In\\",\\"values\\":[\\"pv3\\",\\"v4\\"]}"]}}`,
          `{"Weight":3,"Preference":{"MatchExpressions":["{\\"key\\":\\"ppk2\\",\\"operator\\":\\"In\\",\\"values\\":[\\"ppv1\\",\\"v2\\"]}"],"MatchFields":["{\\"key\\":\\"ppk1\\",\\"operator\\":\\"In\\",\\"values\\":[\\"ppv3\\",\\"v4\\"]}"]}}`,
        ],
      },
    },
  ];
  for (const tt of tests) {
    it(tt.name, () => {
      expect(nodeAffinitySigner(tt.input)).toEqual(tt.expected);
    });
  }
});

// kubesched: the ResourcesSignerName value NodeResourcesFit and NodeResourcesBalancedAllocation share.
describe("podResourcesSigner", () => {
  it("is the max of the containers' sum and each init container, plus overhead, with Go's field names", () => {
    const pod: Pod = {
      spec: {
        initContainers: [{ name: "i", resources: { requests: { cpu: "2", "example.com/foo": "3" } } }],
        containers: [
          { name: "a", resources: { requests: { cpu: "500m", memory: "1Gi" } } },
          { name: "b", resources: { requests: { cpu: "1", "nvidia.com/gpu": "1" } } },
        ],
        overhead: { cpu: "100m" },
      },
    };
    expect(podResourcesSigner(pod, true)).toEqual({
      MilliCPU: 2100,
      Memory: 1024 ** 3,
      EphemeralStorage: 0,
      AllowedPodNumber: 0,
      ScalarResources: { "example.com/foo": 3, "nvidia.com/gpu": 1 },
    });
  });

  it("pod-level requests count only with PodLevelResources", () => {
    const pod: Pod = {
      spec: {
        resources: { requests: { cpu: "4" } },
        containers: [{ name: "a", resources: { requests: { cpu: "1" } } }],
      },
    };
    expect(podResourcesSigner(pod, true).MilliCPU).toBe(4000);
    expect(podResourcesSigner(pod, false).MilliCPU).toBe(1000);
  });

  it("a best-effort pod has no requests and no scalar resources", () => {
    expect(podResourcesSigner({ spec: { containers: [{ name: "a" }] } }, true)).toEqual({
      MilliCPU: 0,
      Memory: 0,
      EphemeralStorage: 0,
      AllowedPodNumber: 0,
      ScalarResources: null,
    });
  });
});
