// upstream: pkg/scheduler/framework/plugins/imagelocality/image_locality_test.go
import { createHash } from "node:crypto";
import type { Node, Pod, PodSpec } from "@kubesched/api";
import type { NodeScore } from "@kubesched/framework";
import { createPluginHarness, statusSummary } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { normalizedImageName } from "./image-locality";
import { imageLocalityPlugin } from "./index";

const mb = 1024 * 1024;

type Image = { names: string[]; sizeBytes: number };
const makeImageNode = (name: string, images: Image[]): Node => ({ metadata: { name }, status: { images } });
const spec = (images: string[], init: string[] = []): PodSpec => ({
  containers: images.map((image, i) => ({ name: `c${i}`, image })),
  ...(init.length ? { initContainers: init.map((image, i) => ({ name: `i${i}`, image })) } : {}),
});

describe("TestImageLocalityPriority", () => {
  const test40250 = spec(["gcr.io/40", "gcr.io/250"]);
  const test40300 = spec(["gcr.io/40", "gcr.io/300"]);
  const testMinMax = spec(["gcr.io/10", "gcr.io/4000"]);
  const test300600900 = spec(["gcr.io/300", "gcr.io/600", "gcr.io/900"]);
  const test3040 = spec(["gcr.io/30", "gcr.io/40"]);
  const test30Init300 = spec(["gcr.io/30"], ["gcr.io/300"]);

  const node403002000: Image[] = [
    { names: ["gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1"], sizeBytes: 40 * mb },
    { names: ["gcr.io/300:latest", "gcr.io/300:v1"], sizeBytes: 300 * mb },
    { names: ["gcr.io/2000:latest"], sizeBytes: 2000 * mb },
  ];
  const node25010: Image[] = [
    { names: ["gcr.io/250:latest"], sizeBytes: 250 * mb },
    { names: ["gcr.io/10:latest", "gcr.io/10:v1"], sizeBytes: 10 * mb },
  ];
  const node60040900: Image[] = [
    { names: ["gcr.io/600:latest"], sizeBytes: 600 * mb },
    { names: ["gcr.io/40:latest"], sizeBytes: 40 * mb },
    { names: ["gcr.io/900:latest"], sizeBytes: 900 * mb },
  ];
  const node300600900: Image[] = [
    { names: ["gcr.io/300:latest"], sizeBytes: 300 * mb },
    { names: ["gcr.io/600:latest"], sizeBytes: 600 * mb },
    { names: ["gcr.io/900:latest"], sizeBytes: 900 * mb },
  ];
  const node400030: Image[] = [
    { names: ["gcr.io/4000:latest"], sizeBytes: 4000 * mb },
    { names: ["gcr.io/30:latest"], sizeBytes: 30 * mb },
  ];
  const node203040: Image[] = [
    { names: ["gcr.io/20:latest"], sizeBytes: 20 * mb },
    { names: ["gcr.io/30:latest"], sizeBytes: 30 * mb },
    { names: ["gcr.io/40:latest"], sizeBytes: 40 * mb },
  ];
  const nodeWithNoImages: Image[] = [];

  const cases: { name: string; pod: Pod; nodes: Node[]; expectedList: NodeScore[] }[] = [
    {
      // node1: gcr.io/40 40MB → 0 (40M/2 < 23M); node2: gcr.io/250 → 100 * (250M/2 − 23M) / (1000M * 2 − 23M) = 5
      name: "two images spread on two nodes, prefer the larger image one",
      pod: { spec: test40250 },
      nodes: [makeImageNode("node1", node403002000), makeImageNode("node2", node25010)],
      expectedList: [
        { name: "node1", score: 0 },
        { name: "node2", score: 5 },
      ],
    },
    {
      // node1: 100 * ((40M + 300M)/2 − 23M) / (1000M * 2 − 23M) = 7; node2: 0
      name: "two images on one node, prefer this node",
      pod: { spec: test40300 },
      nodes: [makeImageNode("node1", node403002000), makeImageNode("node2", node25010)],
      expectedList: [
        { name: "node1", score: 7 },
        { name: "node2", score: 0 },
      ],
    },
    {
      // node1: 4000M/2 ≥ 1000M * 2 → 100; node2: 10M/2 < 23M → 0
      name: "if exceed limit, use limit",
      pod: { spec: testMinMax },
      nodes: [makeImageNode("node1", node400030), makeImageNode("node2", node25010)],
      expectedList: [
        { name: "node1", score: 100 },
        { name: "node2", score: 0 },
      ],
    },
    {
      // node1: 100 * (4000M/3 − 23M) / (1000M * 2 − 23M) = 66; node2, node3: 0
      name: "if exceed limit, use limit (with node which has no images present)",
      pod: { spec: testMinMax },
      nodes: [
        makeImageNode("node1", node400030),
        makeImageNode("node2", node25010),
        makeImageNode("node3", nodeWithNoImages),
      ],
      expectedList: [
        { name: "node1", score: 66 },
        { name: "node2", score: 0 },
        { name: "node3", score: 0 },
      ],
    },
    {
      // node1: 100 * (600M * 2/3 + 900M * 2/3 − 23M) / (1000M * 3 − 23M) = 32
      // node2: 100 * (300M * 1/3 + 600M * 2/3 + 900M * 2/3 − 23M) / (1000M * 3 − 23M) = 36
      name: "pod with multiple large images, node2 is preferred",
      pod: { spec: test300600900 },
      nodes: [
        makeImageNode("node1", node60040900),
        makeImageNode("node2", node300600900),
        makeImageNode("node3", nodeWithNoImages),
      ],
      expectedList: [
        { name: "node1", score: 32 },
        { name: "node2", score: 36 },
        { name: "node3", score: 0 },
      ],
    },
    {
      // node1: 100 * (30M + 40M * 1/2 − 23M) / (1000M * 2 − 23M) = 1; node2: 0
      name: "pod with multiple small images",
      pod: { spec: test3040 },
      nodes: [makeImageNode("node1", node203040), makeImageNode("node2", node400030)],
      expectedList: [
        { name: "node1", score: 1 },
        { name: "node2", score: 0 },
      ],
    },
    {
      // node1: 100 * (300M * 1/2 − 23M) / (1000M * 2 − 23M) = 6; node2: 0
      name: "include InitContainers: two images spread on two nodes, prefer the larger image one",
      pod: { spec: test30Init300 },
      nodes: [makeImageNode("node1", node403002000), makeImageNode("node2", node203040)],
      expectedList: [
        { name: "node1", score: 6 },
        { name: "node2", score: 0 },
      ],
    },
  ];

  it.each(cases)("$name", async (tc) => {
    const h = await createPluginHarness({ plugin: imageLocalityPlugin, nodes: tc.nodes });
    const got = h.score(tc.pod);
    expect(statusSummary(got.status)).toEqual({ code: "Success", reasons: [] });
    expect(got.scores).toEqual(tc.expectedList);
  });
});

describe("TestNormalizedImageName", () => {
  const digest = `sha256:${createHash("sha256").update("root").digest("hex")}`;
  const cases = [
    { name: "add :latest postfix 1", input: "root", output: "root:latest" },
    { name: "add :latest postfix 2", input: "gcr.io:5000/root", output: "gcr.io:5000/root:latest" },
    { name: "keep it as is 1", input: "root:tag", output: "root:tag" },
    { name: "keep it as is 2", input: `root@${digest}`, output: `root@${digest}` },
  ];
  it.each(cases)("$name", (tc) => {
    expect(normalizedImageName(tc.input)).toBe(tc.output);
  });
});
