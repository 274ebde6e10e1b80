// Micro-benchmarks for @kubesched/api hot paths. Run: npx tsx bench/micro/api.bench.ts
import {
  doNotScheduleTaintsFilter,
  findMatchingUntoleratedTaint,
  labelSelectorAsSelector,
  type Node,
  newNodeSelector,
  Quantity,
  quantityMilliValue,
  type Taint,
  type Toleration,
  tolerationToleratesTaint,
} from "@kubesched/api";
import { Bench } from "tinybench";

const quantities = ["100m", "1.5Gi", "500Mi", "2", "1e3"];
let qi = 0;

const selector = labelSelectorAsSelector({
  matchLabels: { app: "web", tier: "frontend" },
  matchExpressions: [{ key: "zone", operator: "In", values: ["us-east-1a", "us-east-1b", "us-east-1c"] }],
});
const matchingPod = {
  app: "web",
  tier: "frontend",
  zone: "us-east-1b",
  "pod-template-hash": "7d4b9c",
  release: "stable",
  team: "payments",
};
const missingPod = { ...matchingPod, zone: "eu-west-1a" };

const nodeSelector = newNodeSelector({
  nodeSelectorTerms: [
    {
      matchExpressions: [
        { key: "kubernetes.io/arch", operator: "In", values: ["amd64", "arm64"] },
        { key: "node-role.kubernetes.io/control-plane", operator: "DoesNotExist" },
        { key: "topology.kubernetes.io/zone", operator: "In", values: ["us-east-1a", "us-east-1b"] },
      ],
    },
  ],
});
const node: Node = {
  metadata: {
    name: "node-1",
    labels: {
      "kubernetes.io/arch": "amd64",
      "kubernetes.io/os": "linux",
      "kubernetes.io/hostname": "node-1",
      "topology.kubernetes.io/zone": "us-east-1b",
      "node.kubernetes.io/instance-type": "m5.large",
    },
  },
};

const taints: Taint[] = [
  { key: "dedicated", value: "gpu", effect: "NoSchedule" },
  { key: "node.kubernetes.io/unreachable", effect: "NoExecute" },
];
const tolerations: Toleration[] = [
  { key: "node.kubernetes.io/not-ready", operator: "Exists", effect: "NoExecute", tolerationSeconds: 300 },
  { key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute", tolerationSeconds: 300 },
  { key: "dedicated", operator: "Equal", value: "gpu", effect: "NoSchedule" },
];

let sink = 0;
const bench = new Bench({ time: 500 });
bench
  .add("Quantity.parse (100m, 1.5Gi, 500Mi, 2, 1e3)", () => {
    sink += Quantity.parse(quantities[qi++ % 5]!).sign();
  })
  .add("quantityMilliValue, cached (same mix)", () => {
    sink += quantityMilliValue(quantities[qi++ % 5]!);
  })
  .add("Selector.matches: 2 matchLabels + In(3), match", () => {
    if (selector.matches(matchingPod)) sink++;
  })
  .add("Selector.matches: 2 matchLabels + In(3), miss", () => {
    if (selector.matches(missingPod)) sink++;
  })
  .add("NodeSelectorMatcher.match: 1 term, 3 expressions", () => {
    if (nodeSelector.match(node)) sink++;
  })
  .add("tolerationToleratesTaint", () => {
    if (tolerationToleratesTaint(tolerations[2]!, taints[0]!)) sink++;
  })
  .add("findMatchingUntoleratedTaint: 2 taints, 3 tolerations", () => {
    if (findMatchingUntoleratedTaint(taints, tolerations, doNotScheduleTaintsFilter) === undefined) sink++;
  });

await bench.run();
console.table(
  bench.tasks.map((t) => {
    const r = t.result as { throughput?: { mean: number }; hz?: number } | undefined;
    const hz = r?.throughput?.mean ?? r?.hz ?? 0;
    return { task: t.name, "ops/s": Math.round(hz).toLocaleString("en-US") };
  }),
);
if (sink === -1) console.log(sink);
