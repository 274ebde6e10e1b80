// Not an upstream table: what each registered feature's InferForScheduling (upstream
// component-helpers/nodedeclaredfeatures/features/*) reads, end to end through the plugin with
// the default registry, on a node that declares nothing and one that declares the feature.
import type { Pod } from "@kubesched/api";
import { createPluginHarness, makeNode, makePod, statusSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { allFeatures, inferForPodScheduling, nodeDeclaredFeaturesPlugin } from "./index";
import { ErrReasonUnsatisfiedRequirements } from "./reasons";
import { kubernetesVersion } from "./version";

/** A pod whose spec has the given (possibly post-1.30) fields merged in. */
function podWithSpec(extra: Record<string, unknown>): Pod {
  const p = makePod().name("p").container("img").obj();
  return { ...p, spec: { ...p.spec, ...extra } as Pod["spec"] } as Pod;
}

function container(extra: Record<string, unknown>): Record<string, unknown> {
  return { name: "c", image: "img", ...extra };
}

describe("inference of the 1.37 declared features", () => {
  const tests: { name: string; pod: Pod; want: string[] }[] = [
    { name: "a plain pod requires nothing", pod: makePod().name("p").container("img").obj(), want: [] },
    {
      name: "cgroupOptions.mountMode on a container",
      pod: podWithSpec({
        containers: [container({ securityContext: { cgroupOptions: { mountMode: "Writable" } } })],
      }),
      want: ["CgroupOptions"],
    },
    {
      name: "ulimits on an ephemeral container",
      pod: podWithSpec({
        ephemeralContainers: [
          container({ securityContext: { ulimits: [{ name: "nofile", soft: 1, hard: 2 }] } }),
        ],
      }),
      want: ["ContainerUlimits"],
    },
    {
      name: "assigned.cpuset through a projected downward API volume",
      pod: podWithSpec({
        volumes: [
          {
            name: "v",
            projected: {
              sources: [
                {
                  downwardAPI: { items: [{ path: "c", resourceFieldRef: { resource: "assigned.cpuset" } }] },
                },
              ],
            },
          },
        ],
      }),
      want: ["DownwardAPIAssignedResources"],
    },
    {
      name: "a pod-level pid limit",
      pod: podWithSpec({ resources: { limits: { pid: "100" } } }),
      want: ["PerPodPIDLimit"],
    },
    {
      name: "a podCertificate with an ML-DSA key",
      pod: podWithSpec({
        volumes: [{ name: "v", projected: { sources: [{ podCertificate: { keyType: "MLDSA65" } }] } }],
      }),
      want: ["PodCertificateMLDSA"],
    },
    {
      name: "a podCertificate with an ECDSA key requires nothing",
      pod: podWithSpec({
        volumes: [{ name: "v", projected: { sources: [{ podCertificate: { keyType: "ECDSAP256" } }] } }],
      }),
      want: [],
    },
    {
      name: "defaultNetwork None",
      pod: podWithSpec({ defaultNetwork: "None" }),
      want: ["PodDefaultNetworkNone"],
    },
    {
      name: "a RestartAllContainers restart rule on an init container",
      pod: podWithSpec({
        initContainers: [
          container({
            restartPolicyRules: [
              { action: "RestartAllContainers", exitCodes: { operator: "In", values: [42] } },
            ],
          }),
        ],
      }),
      want: ["RestartAllContainersOnContainerExits"],
    },
    {
      name: "a Restart restart rule requires nothing",
      pod: podWithSpec({
        containers: [
          container({
            restartPolicyRules: [{ action: "Restart", exitCodes: { operator: "In", values: [1] } }],
          }),
        ],
      }),
      want: [],
    },
    {
      name: "a pod-level OCI seccomp profile",
      pod: podWithSpec({ securityContext: { seccompProfile: { type: "OCI" } } }),
      want: ["SecurityProfileOCI"],
    },
    {
      name: "host network with a user namespace",
      pod: podWithSpec({ hostNetwork: true, hostUsers: false }),
      want: ["UserNamespacesHostNetworkSupport"],
    },
    {
      name: "host network with host users requires nothing",
      pod: podWithSpec({ hostNetwork: true, hostUsers: true }),
      want: [],
    },
    {
      name: "bindMountOptions and ulimits together, sorted",
      pod: podWithSpec({
        containers: [
          container({
            volumeMounts: [{ name: "v", mountPath: "/v", bindMountOptions: ["noexec"] }],
            securityContext: { ulimits: [{ name: "nofile", soft: 1, hard: 2 }] },
          }),
        ],
      }),
      want: ["ContainerUlimits", "VolumeBindMountOptions"],
    },
  ];
  for (const tc of tests) {
    it(tc.name, async () => {
      expect(inferForPodScheduling(allFeatures, tc.pod.spec, kubernetesVersion)).toEqual(tc.want);
      const bare = makeNode().name("bare").obj();
      const node = makeNode().name("declaring").obj();
      const declaring = { ...node, status: { ...node.status, declaredFeatures: ["Unrelated", ...tc.want] } };
      const h = await createPluginHarness({ plugin: nodeDeclaredFeaturesPlugin, nodes: [bare, declaring] });
      const out = h.filter(tc.pod);
      expect(statusSummary(out.statuses.get("declaring"))).toEqual({ code: "Success", reasons: [] });
      expect(statusSummary(out.statuses.get("bare"))).toEqual(
        tc.want.length === 0
          ? { code: "Success", reasons: [] }
          : { code: "UnschedulableAndUnresolvable", reasons: [ErrReasonUnsatisfiedRequirements] },
      );
    });
  }
});
