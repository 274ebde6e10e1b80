// The classic sample has no test table of its own; these pin its behaviour through the real runtime.
import { CycleState, formatFieldErrors } from "@kubesched/framework";
import { createPluginHarness, makeNode, makePod } from "@kubesched/testing";
import { describe, expect, it } from "vitest";
import { decodeSampleArgs } from "./args";
import { type Sample, samplePlugin } from "./index";

describe("Sample", () => {
  const nodes = [makeNode().name("node-a").obj(), makeNode().name("node-b").obj()];

  it("lets every pod through PreFilter and Filter", async () => {
    const h = await createPluginHarness({ plugin: samplePlugin, nodes });
    const { preFilter, statuses } = h.filter(makePod().name("p").req({ cpu: "1" }).obj());
    expect(preFilter.status).toBeNull();
    expect([...statuses.values()]).toEqual([null, null]);
  });

  it("PreBind fails with an Error when the node is not in the snapshot", async () => {
    const h = await createPluginHarness({ plugin: samplePlugin, nodes });
    const pl = h.plugin as Sample;
    expect(await pl.preBind(new CycleState(), makePod().name("p").obj(), "node-a")).toBeNull();
    const st = await pl.preBind(new CycleState(), makePod().name("p").obj(), "gone");
    expect(st?.isError()).toBe(true);
    expect(st?.getReasons()).toEqual(["prebind get node info error: gone"]);
  });

  it("gets its SampleArgs from pluginConfig", async () => {
    const h = await createPluginHarness({
      plugin: samplePlugin,
      args: { favorite_color: "#326CE5", favorite_number: 7, thanks_to: "thockin" },
    });
    expect((h.plugin as Sample).args).toEqual({
      favoriteColor: "#326CE5",
      favoriteNumber: 7,
      thanksTo: "thockin",
    });
  });

  it("decodes SampleArgs strictly", () => {
    expect(decodeSampleArgs(undefined, "args").args).toEqual({
      favoriteColor: "",
      favoriteNumber: 0,
      thanksTo: "",
    });
    const { errors } = decodeSampleArgs({ favorite_number: "7", favourite_color: "red" }, "args");
    expect(formatFieldErrors(errors)).toBe(
      'args.favorite_number: Invalid value: "7": must be an integer, got string\nargs.favourite_color: unknown field',
    );
  });
});
