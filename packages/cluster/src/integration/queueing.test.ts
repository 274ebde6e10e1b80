// upstream: test/integration/scheduler/filters/filters_test.go TestUnschedulablePodBecomesSchedulable
// (kubernetes/kubernetes at 0e7298d5, v1.37 line): a pod the default profile cannot place stays
// unschedulable until a cluster event its plugins' queueing hints accept, then it is scheduled —
// on the assembled scheduler of the simulate path (openSimulation), with the cluster changed
// between cycles as the upstream test changes it through the API server.
import type { Pod } from "@kubesched/api";
import { defaultConfig } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { makeNode, makePersistentVolume, makePersistentVolumeClaim, makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import type { SimulationSession } from "../simulate";
import { addPods, boundNode, openSession } from "./integration-cluster.test-util";

const config = defaultConfig({ registry: inTreeRegistry });
const ns = "ns";
const pause = "registry.k8s.io/pause:3.10";
const pausePod = (name: string) => makePod().name(name).namespace(ns).container(pause);
const withAffinityLabel = { "pod-with-affinity": "true" };
const affinityPod = () =>
  pausePod("pod-1").podAffinity("region", { matchLabels: withAffinityLabel }, "required").obj();

const taint = { key: "test", value: "test", effect: "NoSchedule" as const };
const rwopClaim = "pvc-with-read-write-once-pod";
const claimVolume = (claimName: string) => ({ name: "volume", persistentVolumeClaim: { claimName } });

describe("TestUnschedulablePodBecomesSchedulable", () => {
  const cases: {
    name: string;
    init?: (s: SimulationSession) => Promise<void> | void;
    pod: Pod;
    update: (s: SimulationSession) => void;
  }[] = [
    {
      name: "node gets added",
      pod: pausePod("pod-1").obj(),
      update: (s) => s.cluster.apply("Node", makeNode().name("node-added").obj()),
    },
    {
      name: "node gets taint removed",
      init: (s) => s.cluster.apply("Node", makeNode().name("node-tainted").taints([taint]).obj()),
      pod: pausePod("pod-1").obj(),
      update: (s) => s.cluster.apply("Node", makeNode().name("node-tainted").obj()),
    },
    {
      name: "other pod gets deleted",
      init: async (s) => {
        s.cluster.apply(
          "Node",
          makeNode().name("node-scheduler-integration-test").capacity({ pods: "1" }).obj(),
        );
        addPods(s, pausePod("pod-to-be-deleted").obj());
        await s.drain();
      },
      pod: pausePod("pod-1").obj(),
      update: (s) => {
        const victim = s.cluster.pods.get(ns, "pod-to-be-deleted");
        if (!victim) throw new Error("pod-to-be-deleted was not created");
        s.cluster.delete("Pod", victim);
      },
    },
    {
      name: "pod with pod-affinity gets added",
      init: (s) => s.cluster.apply("Node", makeNode().name("node-1").label("region", "test").obj()),
      pod: affinityPod(),
      update: (s) => addPods(s, pausePod("pod-with-affinity").labels(withAffinityLabel).obj()),
    },
    {
      name: "scheduled pod gets updated to match affinity",
      init: async (s) => {
        s.cluster.apply("Node", makeNode().name("node-1").label("region", "test").obj());
        addPods(s, pausePod("pod-to-be-updated").obj());
        await s.drain();
      },
      pod: affinityPod(),
      update: (s) => {
        const pod = s.cluster.pods.get(ns, "pod-to-be-updated");
        if (!pod) throw new Error("pod-to-be-updated was not created");
        s.cluster.apply("Pod", { ...pod, metadata: { ...pod.metadata, labels: withAffinityLabel } });
      },
    },
    {
      name: "scheduled pod uses read-write-once-pod pvc",
      init: async (s) => {
        s.cluster.apply("Node", makeNode().name("node").obj());
        s.cluster.apply(
          "PersistentVolume",
          makePersistentVolume()
            .name("pv-with-read-write-once-pod")
            .accessModes(["ReadWriteOncePod"])
            .capacity({ storage: "1Mi" })
            .hostPathVolumeSource({ path: "/mnt", type: "DirectoryOrCreate" })
            .obj(),
        );
        s.cluster.apply(
          "PersistentVolumeClaim",
          makePersistentVolumeClaim()
            .name(rwopClaim)
            .namespace(ns)
            .annotation("pv.kubernetes.io/bind-completed", "true")
            .volumeName("pv-with-read-write-once-pod")
            .accessModes(["ReadWriteOncePod"])
            .resources({ requests: { storage: "1Mi" } })
            .obj(),
        );
        addPods(s, pausePod("pod-to-be-deleted").volume(claimVolume(rwopClaim)).obj());
        await s.drain();
      },
      pod: pausePod("pod-to-take-over-pvc").volume(claimVolume(rwopClaim)).obj(),
      update: (s) => {
        const holder = s.cluster.pods.get(ns, "pod-to-be-deleted");
        if (!holder) throw new Error("pod-to-be-deleted was not created");
        s.cluster.delete("Pod", holder);
      },
    },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const s = await openSession(config, { namespaces: { [ns]: {} } });
      await tc.init?.(s);
      const name = tc.pod.metadata?.name ?? "";
      addPods(s, tc.pod);
      await s.drain();
      // upstream waitForPodUnschedulable: the pod is pending with a failure recorded.
      expect(boundNode(s, name, ns)).toBeUndefined();
      expect(s.lastFailure.get(`${ns}/${name}`)?.reason).toBe("Unschedulable");
      tc.update(s);
      await s.drain();
      expect(boundNode(s, name, ns), "scheduled after the update").toBeDefined();
    });
  }
});
