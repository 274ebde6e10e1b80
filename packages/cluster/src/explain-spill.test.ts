// simulate() with its explanations spilled to a file (what `simulate --explain` runs): the same
// result as kept in memory, none of it held by the result, and the file gone once closed.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { podKey } from "@kubesched/api";
import { defaultConfig } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import type { AttemptExplanation, ExplanationStore } from "@kubesched/scheduler";
import { recordingLogger } from "@kubesched/testing";
import { afterAll, describe, expect, it } from "vitest";
import { SpillExplanationStore } from "./explain-spill";
import { loadSnapshotFiles } from "./load";
import { type SimulateOptions, simulate } from "./simulate";

const examples = fileURLToPath(new URL("../../../examples/", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "kubesched-explain-spill-test-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function options(file: string, extra: Partial<SimulateOptions> = {}): SimulateOptions {
  return {
    config: defaultConfig({ registry: inTreeRegistry }),
    registry: inTreeRegistry,
    objects: loadSnapshotFiles([join(examples, file)]).objects,
    logger: recordingLogger(),
    explain: true,
    ...extra,
  };
}

describe("SpillExplanationStore", () => {
  it.each(["cluster.yaml", "preemption.yaml"])(
    "%s: the result is the one kept in memory, byte for byte",
    async (file) => {
      const inMemory = await simulate(options(file));
      const store = new SpillExplanationStore(tmp);
      try {
        const spilled = await simulate(options(file, { explainStore: store }));
        expect(store.bytes).toBeGreaterThan(0);
        expect(JSON.stringify(spilled, null, 2)).toBe(JSON.stringify(inMemory, null, 2));
        expect(spilled.pods.filter((p) => p.explain).length).toBeGreaterThan(0);
      } finally {
        store.close();
      }
    },
  );

  it("the result holds no explanation: each is read from the store when asked for", async () => {
    const store = new SpillExplanationStore(tmp);
    try {
      const r = await simulate(options("cluster.yaml", { explainStore: store }));
      const explained = r.pods.filter((p) => "explain" in p);
      expect(explained.length).toBeGreaterThan(0);
      for (const p of explained) {
        const d = Object.getOwnPropertyDescriptor(p, "explain");
        expect(d?.get).toBeTypeOf("function");
        expect(d?.enumerable).toBe(true);
        // A fresh object on each read: nothing is kept between reads.
        expect(p.explain).not.toBe(p.explain);
        expect(p.explain).toEqual(p.explain);
      }
    } finally {
      store.close();
    }
  });

  it("each attempt goes to the store as its cycle ends, not when the run is over", async () => {
    const map = new Map<string, AttemptExplanation>();
    const store: ExplanationStore = {
      set: (key, e) => map.set(key, e),
      get: (key) => map.get(key),
      has: (key) => map.has(key),
    };
    // The recorder is the first observer: the others hear of a cycle's end after it stored it.
    const storedAtCycleEnd: boolean[] = [];
    const r = await simulate(
      options("cluster.yaml", {
        explainStore: store,
        observer: {
          onSchedulingCycleDone: (pod) => storedAtCycleEnd.push(map.get(podKey(pod)) !== undefined),
        },
      }),
    );
    expect(storedAtCycleEnd.length).toBeGreaterThan(r.pods.length / 2);
    expect(storedAtCycleEnd.every(Boolean)).toBe(true);
  });

  it("--pod: only the named pods' attempts are stored", async () => {
    const store = new SpillExplanationStore(tmp);
    try {
      const r = await simulate(options("cluster.yaml", { explainStore: store, explainPods: ["shop/web-1"] }));
      expect(r.pods.filter((p) => p.explain).map((p) => p.name)).toEqual(["web-1"]);
      expect(r.pods.filter((p) => store.has(`${p.namespace}/${p.name}`)).map((p) => p.name)).toEqual([
        "web-1",
      ]);
    } finally {
      store.close();
    }
  });

  it("close() removes the file and its directory", () => {
    const store = new SpillExplanationStore(tmp);
    store.set("default/p", { preFilter: {}, filter: {}, selectedNode: "n" });
    expect(store.get("default/p")).toEqual({ preFilter: {}, filter: {}, selectedNode: "n" });
    expect(store.get("default/other")).toBeUndefined();
    expect(readdirSync(tmp).length).toBe(1);
    store.close();
    expect(readdirSync(tmp)).toEqual([]);
    expect(existsSync(tmp)).toBe(true);
  });

  it("a later attempt of a pod replaces the earlier one", () => {
    const store = new SpillExplanationStore(tmp);
    try {
      store.set("default/p", { preFilter: {}, filter: {}, selectedNode: null });
      store.set("default/q", {
        preFilter: {},
        filter: { n: { NodeName: { code: "Success" } } },
        selectedNode: "n",
      });
      store.set("default/p", { preFilter: {}, filter: {}, selectedNode: "m" });
      expect(store.get("default/p")?.selectedNode).toBe("m");
      expect(store.get("default/q")?.filter).toEqual({ n: { NodeName: { code: "Success" } } });
    } finally {
      store.close();
    }
  });
});
