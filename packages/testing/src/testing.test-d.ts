// What plugin tests use from @kubesched/testing: the builders, the harness over the real runtime,
// the comparison helpers. Imports the package by name, as tooling/type-tests compiles it against
// the built .d.ts.
import type { Node, Pod } from "@kubesched/api";
import type { Plugin, PluginDescriptor, Registry, SignFragment, Status } from "@kubesched/framework";
import {
  createPluginHarness,
  type FakeClock,
  fakeClock,
  makeNode,
  makePod,
  type PluginHarness,
  type SignPodSummary,
  type StatusSummary,
  signPodSummary,
  statusSummary,
  withoutColumnar,
} from "@kubesched/testing";
import { describe, expectTypeOf, it } from "vitest";

describe("@kubesched/testing", () => {
  it("builders build API objects", () => {
    expectTypeOf(makePod().name("p").req({ cpu: "1" }).node("n1").obj()).toEqualTypeOf<Pod>();
    expectTypeOf(makeNode().name("n1").obj()).toEqualTypeOf<Node>();
  });

  it("the harness runs a descriptor through the real runtime", () => {
    const plugin = {} as PluginDescriptor<{ limit: number }>;
    expectTypeOf(createPluginHarness({ plugin, args: { limit: 1 }, nodes: [], pods: [] })).toEqualTypeOf<
      Promise<PluginHarness>
    >();
    expectTypeOf<PluginHarness["plugin"]>().toEqualTypeOf<Plugin>();
    expectTypeOf<ReturnType<PluginHarness["runFilter"]>>().toEqualTypeOf<Status | null>();
  });

  it("comparison helpers summarize statuses and signatures", () => {
    expectTypeOf(statusSummary).returns.toEqualTypeOf<StatusSummary>();
    expectTypeOf(signPodSummary).returns.toEqualTypeOf<SignPodSummary>();
    expectTypeOf<SignPodSummary["fragments"]>().toEqualTypeOf<SignFragment[]>();
    expectTypeOf(withoutColumnar).returns.toEqualTypeOf<Registry>();
  });

  it("the fake clock moves when told to", () => {
    const clock: FakeClock = fakeClock(5);
    expectTypeOf(clock.now()).toEqualTypeOf<number>();
    expectTypeOf(clock.advance).parameters.toEqualTypeOf<[ms: number]>();
  });
});
