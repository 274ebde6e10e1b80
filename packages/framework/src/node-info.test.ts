// NodeInfo.removePod on nodes with many pods (an index of positions instead of a walk): any
// sequence of additions and removals leaves the same pods and the same totals as a NodeInfo built
// from the pods that remain; copies keep their own positions.
import type { Pod } from "@kubesched/api";
import { describe, expect, it } from "vitest";
import { NodeInfo } from "./node-info";
import { seededRandom } from "./random";

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

// Copies (copyInto, snapshot, clone) share a long pod list and read it only when asked: whatever
// the source and the copies do afterwards, a copy's pods are the source's pods at the copy, in
// the same order.
describe("NodeInfo copies share long pod lists", () => {
  const uids = (n: NodeInfo) => n.pods.map((p) => p.pod.metadata?.uid ?? "");

  it("a copy sees the pods as they were at the copy, in order, through random changes", () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const rand = seededRandom(seed);
      let next = 0;
      const owner = new NodeInfo(...Array.from({ length: 70 }, () => pod(next++)));
      interface Tracked {
        info: NodeInfo;
        expected: string[];
        live: Map<string, Pod>;
      }
      const livePods = new Map<string, Pod>(owner.pods.map((p) => [p.pod.metadata!.uid!, p.pod]));
      const tracked: Tracked[] = [];
      const reusable = new NodeInfo();
      for (let step = 0; step < 4000; step++) {
        const r = rand.float();
        if (r < 0.35 || livePods.size < 66) {
          const p = pod(next++);
          owner.addPod(p);
          livePods.set(p.metadata!.uid!, p);
        } else if (r < 0.7) {
          const keys = [...livePods.keys()];
          const k = keys[rand.intn(keys.length)]!;
          owner.removePod(livePods.get(k)!);
          livePods.delete(k);
        } else if (r < 0.8) {
          // A copy, or a copy of a copy, or the one NodeInfo copyInto keeps refilling.
          const from = tracked.length > 0 && rand.float() < 0.3 ? tracked[rand.intn(tracked.length)]! : null;
          const source = from?.info ?? owner;
          const expected = from ? from.expected.slice() : uids(owner);
          const live = new Map(from ? from.live : livePods);
          let info: NodeInfo;
          if (rand.float() < 0.2) {
            source.copyInto(reusable);
            info = reusable;
            for (let t = tracked.length - 1; t >= 0; t--)
              if (tracked[t]!.info === reusable) tracked.splice(t, 1);
          } else {
            info = rand.float() < 0.5 ? source.snapshot() : source.clone();
          }
          expect(info.podCount).toBe(expected.length);
          tracked.push({ info, expected, live });
        } else if (r < 0.9 && tracked.length > 0) {
          // A copy changes its own pods (as preemption's dry runs do).
          const t = tracked[rand.intn(tracked.length)]!;
          if (rand.float() < 0.5) {
            const p = pod(next++);
            t.info.addPod(p);
            t.live.set(p.metadata!.uid!, p);
          } else if (t.live.size > 0) {
            const keys = [...t.live.keys()];
            const k = keys[rand.intn(keys.length)]!;
            t.info.removePod(t.live.get(k)!);
            t.live.delete(k);
          }
          t.expected = uids(t.info);
        } else if (tracked.length > 0) {
          const t = tracked[rand.intn(tracked.length)]!;
          expect(uids(t.info)).toEqual(t.expected);
        }
      }
      for (const t of tracked) {
        expect(t.info.podCount).toBe(t.expected.length);
        expect(uids(t.info)).toEqual(t.expected);
        expect(t.info.requested).toEqual(new NodeInfo(...t.live.values()).requested);
      }
      expect([...uids(owner)].sort()).toEqual([...livePods.keys()].sort());
    }
  });

  it("short lists are copied at once (copies compare equal field by field)", () => {
    const n = new NodeInfo(...Array.from({ length: 10 }, (_, i) => pod(i)));
    expect(n.snapshot()).toEqual(n.snapshot());
    expect(n.snapshot().pods).not.toBe(n.pods);
  });
});
