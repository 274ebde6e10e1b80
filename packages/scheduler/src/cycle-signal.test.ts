// The cycle's cancellation (upstream: the ctx each extension point receives): in live mode every
// cycle's CycleState carries the signal `Scheduler.run` was given, so a plugin with a long search
// (DynamicResources' Filter: `asked by caller to stop allocating devices`) can stop when the
// scheduler stops; a cycle driven by scheduleOne (simulate) has none.
import { defaultConfig } from "@kubesched/config";
import { type CycleState, definePlugin, type Registry, seededRandom } from "@kubesched/framework";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { fakeClock, makeNode, makePod, recordingLogger } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { FakeSource, profile } from "./fake-source.test-util";
import { Scheduler } from "./scheduler";

function recordingRegistry(seen: (AbortSignal | undefined)[]): Registry {
  const recorder = definePlugin({
    name: "SignalRecorder",
    factory: () => ({
      name: () => "SignalRecorder",
      preFilter: (state: CycleState) => {
        seen.push(state.signal);
        return null;
      },
    }),
  });
  return new Map([...inTreeRegistry, [recorder.name, recorder]]);
}

async function create(source: FakeSource, registry: Registry): Promise<Scheduler> {
  return Scheduler.create({
    config: {
      ...defaultConfig({ registry: new Map() }),
      profiles: [profile({ preFilter: ["SignalRecorder"] })],
    },
    registry,
    source,
    logger: recordingLogger(),
    clock: fakeClock(1_000_000),
    rand: seededRandom(1),
    metrics: false,
    queueTimers: false,
  });
}

describe("the cycle's signal", () => {
  it("is the signal Scheduler.run was given", async () => {
    const seen: (AbortSignal | undefined)[] = [];
    const source = new FakeSource(
      [makeNode().name("n1").capacity({ cpu: "4", memory: "8Gi", pods: "10" }).obj()],
      [makePod().name("p1").namespace("default").uid("p1").obj()],
    );
    const sched = await create(source, recordingRegistry(seen));
    const ac = new AbortController();
    const loop = sched.run(ac.signal);
    for (let i = 0; i < 100 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    ac.abort();
    await loop;
    await sched.waitForBindings();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]).toBe(ac.signal);
  });

  it("is undefined for cycles driven by scheduleOne", async () => {
    const seen: (AbortSignal | undefined)[] = [];
    const source = new FakeSource(
      [makeNode().name("n1").capacity({ cpu: "4", memory: "8Gi", pods: "10" }).obj()],
      [makePod().name("p1").namespace("default").uid("p1").obj()],
    );
    const sched = await create(source, recordingRegistry(seen));
    expect(await sched.scheduleOne()).toBe(true);
    await sched.waitForBindings();
    expect(seen).toEqual([undefined]);
  });
});
