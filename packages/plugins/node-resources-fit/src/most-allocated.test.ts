// upstream: pkg/scheduler/framework/plugins/noderesources/most_allocated_test.go
import { makeNode, makePod } from "@kubesched/testing";
import { describe } from "vitest";
import { defaultResources, extendedRes, extendedResourceSet, runStrategyCases } from "./test-util";

const node = (name: string, cpu: string, memory: string, extra: Record<string, string> = {}) =>
  makeNode()
    .name(name)
    .capacity({ cpu, memory, ...extra })
    .obj();
const req2 = () => makePod().req({ cpu: "1000", memory: "2000" }).req({ cpu: "2000", memory: "3000" });

describe("TestMostAllocatedScoringStrategy", () => {
  runStrategyCases("MostAllocated", [
    {
      name: "nothing scheduled, nothing requested",
      requestedPod: makePod().obj(),
      nodes: [node("node1", "4000", "10000"), node("node2", "4000", "10000")],
      expectedScores: [
        { name: "node1", score: 0 },
        { name: "node2", score: 0 },
      ],
      resources: defaultResources,
    },
    {
      name: "nothing scheduled, resources requested, differently sized nodes",
      requestedPod: req2().obj(),
      nodes: [node("node1", "4000", "10000"), node("node2", "6000", "10000")],
      expectedScores: [
        { name: "node1", score: 62 },
        { name: "node2", score: 50 },
      ],
      resources: defaultResources,
    },
    {
      name: "Resources not set, pods scheduled with error",
      requestedPod: req2().obj(),
      nodes: [node("node1", "4000", "10000"), node("node2", "6000", "10000")],
      expectedScores: [
        { name: "node1", score: 0 },
        { name: "node2", score: 0 },
      ],
      resources: [],
      wantStatusCode: "Error",
    },
    {
      name: "no resources requested, pods scheduled with resources",
      requestedPod: makePod().obj(),
      nodes: [node("node1", "10000", "20000"), node("node2", "10000", "20000")],
      existingPods: [
        makePod().node("node1").req({ cpu: "3000", memory: "0" }).obj(),
        makePod().node("node1").req({ cpu: "3000", memory: "0" }).obj(),
        makePod().node("node2").req({ cpu: "3000", memory: "0" }).obj(),
        makePod().node("node2").req({ cpu: "3000", memory: "5000" }).obj(),
      ],
      expectedScores: [
        { name: "node1", score: 30 },
        { name: "node2", score: 42 },
      ],
      resources: defaultResources,
    },
    {
      name: "resources requested, pods scheduled with resources",
      requestedPod: req2().obj(),
      nodes: [node("node1", "10000", "20000"), node("node2", "10000", "20000")],
      existingPods: [
        makePod().node("node1").req({ cpu: "3000", memory: "0" }).obj(),
        makePod().node("node2").req({ cpu: "3000", memory: "5000" }).obj(),
      ],
      expectedScores: [
        { name: "node1", score: 42 },
        { name: "node2", score: 55 },
      ],
      resources: defaultResources,
    },
    {
      name: "resources requested equal node capacity",
      requestedPod: makePod().req({ cpu: "2000", memory: "4000" }).req({ cpu: "3000", memory: "5000" }).obj(),
      nodes: [node("node1", "5000", "10000"), node("node2", "10000", "9000")],
      expectedScores: [
        { name: "node1", score: 95 },
        { name: "node2", score: 75 },
      ],
      resources: defaultResources,
    },
    {
      name: "nothing scheduled, resources requested, differently sized nodes",
      requestedPod: req2().obj(),
      nodes: [node("node1", "4000", "10000"), node("node2", "6000", "10000")],
      expectedScores: [
        { name: "node1", score: 58 },
        { name: "node2", score: 50 },
      ],
      resources: [
        { name: "memory", weight: 2 },
        { name: "cpu", weight: 1 },
      ],
    },
    {
      name: "no resources requested, pods scheduled, nonzero request for resource",
      requestedPod: makePod().container("container").obj(),
      nodes: [node("node1", "250m", "1000Mi"), node("node2", "250m", "1000Mi")],
      existingPods: [
        makePod().node("node1").container("container").obj(),
        makePod().node("node1").container("container").obj(),
      ],
      expectedScores: [
        { name: "node1", score: 80 },
        { name: "node2", score: 30 },
      ],
      resources: defaultResources,
    },
    {
      name: "resource with negative weight",
      requestedPod: req2().obj(),
      nodes: [node("node2", "4000", "10000")],
      resources: [
        { name: "memory", weight: -1 },
        { name: "cpu", weight: 1 },
      ],
      wantErrs: ["scoringStrategy.resources[0].weight"],
    },
    {
      name: "resource with zero weight",
      requestedPod: req2().obj(),
      nodes: [node("node2", "4000", "10000")],
      resources: [
        { name: "memory", weight: 1 },
        { name: "cpu", weight: 0 },
      ],
      wantErrs: ["scoringStrategy.resources[1].weight"],
    },
    {
      name: "resource weight larger than MaxNodeScore",
      requestedPod: req2().obj(),
      nodes: [node("node2", "4000", "10000")],
      resources: [{ name: "memory", weight: 101 }],
      wantErrs: ["scoringStrategy.resources[0].weight"],
    },
    {
      name: "bypass extended resource if the pod does not request",
      requestedPod: req2().obj(),
      nodes: [node("node1", "6000", "10000"), node("node2", "6000", "10000", { [extendedRes]: "4" })],
      expectedScores: [
        { name: "node1", score: 50 },
        { name: "node2", score: 50 },
      ],
      resources: extendedResourceSet,
    },
    {
      name: "honor extended resource if the pod request",
      requestedPod: makePod()
        .node("node1")
        .req({ cpu: "3000", memory: "5000", [extendedRes]: "2" })
        .obj(),
      nodes: [
        node("node1", "6000", "10000", { [extendedRes]: "4" }),
        node("node2", "6000", "10000", { [extendedRes]: "10" }),
      ],
      expectedScores: [
        { name: "node1", score: 50 },
        { name: "node2", score: 40 },
      ],
      resources: extendedResourceSet,
    },
    {
      name: "if the node doesn't have a resource",
      requestedPod: makePod().node("node1").req({ cpu: "3000", memory: "4000" }).obj(),
      nodes: [node("node1", "6000", "10000"), node("node2", "6000", "10000", { [extendedRes]: "4" })],
      expectedScores: [
        { name: "node1", score: 45 },
        { name: "node2", score: 45 },
      ],
      resources: [
        { name: extendedRes, weight: 2 },
        { name: "cpu", weight: 1 },
        { name: "memory", weight: 1 },
      ],
    },
  ]);
});
