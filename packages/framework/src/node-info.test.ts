// NodeInfo.removePod on nodes with many pods (an index of positions instead of a walk): any
// sequence of additions and removals leaves the same pods and the same totals as a NodeInfo built
// from the pods that remain; copies keep their own positions.
import type { Pod } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { seededRandom } from "./cluster";
import { NodeInfo } from "./node-info";

function pod(i: number, uid = `uid-${i}`): Pod {
  return {
    metadata: { name: `p${i}`, namespace: "ns", uid },
    spec: {
      nodeName: "n",
      containers: [{ name: "c", resources: { requests: { cpu: `${(i % 7) + 1}m`, memory: `${i + 1}Ki` } } }],
    },
  };
}

function view(n: NodeInfo): { uids: string[]; cpu: number; memory: number } {
  return {
    uids: n.pods.map((p) => p.pod.metadata?.uid ?? "").sort(),
    cpu: n.requested.milliCPU,
    memory: n.requested.memory,
  };
}

describe("NodeInfo.removePod", () => {
  it("keeps the pods and totals of a fresh NodeInfo through random additions and removals", () => {
    const rand = seededRandom(7);
    const n = new NodeInfo();
    const live = new Map<number, Pod>();
    let next = 0;
    for (let step = 0; step < 3000; step++) {
      if (live.size < 20 || rand.float() < 0.55) {
        const p = pod(next);
        live.set(next++, p);
        n.addPod(p);
      } else {
        const keys = [...live.keys()];
        const k = keys[rand.intn(keys.length)]!;
        n.removePod(live.get(k)!);
        live.delete(k);
      }
      if (step % 250 === 0) expect(view(n)).toEqual(view(new NodeInfo(...live.values())));
    }
    expect(n.pods.length).toBeGreaterThan(64);
    expect(view(n)).toEqual(view(new NodeInfo(...live.values())));
    expect(() => n.removePod(pod(next + 1))).toThrow(/no corresponding pod p\d+ in pods of node/);
  });

  it("a copy removes on its own list; the original keeps its pods", () => {
    const pods = Array.from({ length: 100 }, (_, i) => pod(i));
    const n = new NodeInfo(...pods);
    n.removePod(pods[5]!); // the original's positions are built
    const c = n.snapshot();
    for (const p of pods.slice(10, 60)) c.removePod(p);
    n.removePod(pods[99]!);
    expect(view(c)).toEqual(view(new NodeInfo(...pods.filter((_, i) => i !== 5 && (i < 10 || i >= 60)))));
    expect(view(n)).toEqual(view(new NodeInfo(...pods.filter((_, i) => i !== 5 && i !== 99))));
  });

  it("pods sharing a UID are each found", () => {
    const pods = Array.from({ length: 80 }, (_, i) => pod(i, i < 2 ? "same" : `uid-${i}`));
    const n = new NodeInfo(...pods);
    n.removePod(pods[0]!);
    n.removePod(pods[1]!);
    expect(n.pods.length).toBe(78);
    expect(n.pods.some((p) => p.pod.metadata?.uid === "same")).toBe(false);
  });
});
