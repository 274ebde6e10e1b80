// Scheduler.create's cache and queue options (upstream tests build a Scheduler around their own
// cache and queue): an injected cache and queue factory are the ones the engine uses; without
// them the engine builds the real PriorityQueue and cache.
import { newCache } from "@kubesched/cache";
import { defaultConfig, type KubeSchedulerConfiguration } from "@kubesched/config";
import { seededRandom } from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { PriorityQueue, type QueueOptions } from "@kubesched/queue";
import { fakeClock, makeNode, makePod, recordingLogger } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { FakeSource, profile } from "./fake-source.test-util";
import { Scheduler, type SchedulerOptions } from "./scheduler";

/** `target` with every method call recorded by name (then forwarded unchanged). */
function recording<T extends object>(target: T, calls: string[]): T {
  return new Proxy(target, {
    get(t, prop, receiver) {
      const v: unknown = Reflect.get(t, prop, receiver);
      if (typeof v !== "function") return v;
      return (...args: unknown[]) => {
        calls.push(String(prop));
        return (v as (...a: unknown[]) => unknown).apply(t, args);
      };
    },
  });
}

function config(): KubeSchedulerConfiguration {
  return {
    ...defaultConfig({ registry: new Map() }),
    podInitialBackoffSeconds: 2,
    podMaxBackoffSeconds: 20,
    profiles: [profile({})],
  };
}

async function create(opts: Partial<SchedulerOptions>, source: FakeSource): Promise<Scheduler> {
  return Scheduler.create({
    config: config(),
    registry: inTreeRegistry,
    source,
    logger: recordingLogger(),
    clock: fakeClock(1_000_000),
    rand: seededRandom(1),
    metrics: false,
    queueTimers: false,
    ...opts,
  });
}

describe("Scheduler.create", () => {
  it("uses the injected cache and the queue its factory builds", async () => {
    const cacheCalls: string[] = [];
    const queueCalls: string[] = [];
    const cache = recording(newCache(), cacheCalls);
    const factoryOpts: QueueOptions[] = [];
    const source = new FakeSource([makeNode().name("n1").obj()]);
    const sched = await create(
      {
        cache,
        queue: (opts) => {
          factoryOpts.push(opts);
          return recording(new PriorityQueue(opts), queueCalls);
        },
      },
      source,
    );
    expect(sched.cache).toBe(cache);
    expect(factoryOpts).toHaveLength(1);
    const [opts] = factoryOpts as [QueueOptions];
    expect(opts.podInitialBackoffMs).toBe(2000);
    expect(opts.podMaxBackoffMs).toBe(20_000);
    expect([...(opts.preEnqueuePluginMap?.keys() ?? [])]).toEqual(["default-scheduler"]);
    // The node reached the injected cache through the event handlers.
    expect(cacheCalls).toEqual(["addNode"]);

    source.addPod(makePod().name("p").uid("p").obj());
    expect(await sched.scheduleOne()).toBe(true);
    await sched.waitForBindings();
    expect(source.bindings()).toEqual({ p: "n1" });
    // The cycle snapshotted the injected cache, assumed the pod there and finished its binding.
    expect(cacheCalls).toEqual(expect.arrayContaining(["updateSnapshot", "assumePod", "finishBinding"]));
    expect(cacheCalls.indexOf("updateSnapshot")).toBeLessThan(cacheCalls.indexOf("assumePod"));
    expect(cacheCalls.indexOf("assumePod")).toBeLessThan(cacheCalls.indexOf("finishBinding"));
    expect(queueCalls).toEqual(expect.arrayContaining(["add", "pop", "done"]));
    expect(sched.cache.isAssumedPod(makePod().name("p").uid("p").obj())).toBe(true);
  });

  it("without them, builds the real PriorityQueue and cache", async () => {
    const source = new FakeSource([makeNode().name("n1").obj()]);
    const sched = await create({}, source);
    expect(sched.queue).toBeInstanceOf(PriorityQueue);
    expect(sched.cache.nodeCount()).toBe(1);
  });
});
