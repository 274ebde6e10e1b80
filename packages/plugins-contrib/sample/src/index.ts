// @kubesched/plugin-sample — the classic sample plugin of the scheduling framework
import { definePlugin } from "@kubesched/framework";
import { type SampleArgs, sampleArgsSpec } from "./args";
import { name, Sample } from "./sample";

export { defaultSampleArgs, type SampleArgs, validateSampleArgs } from "./args";
export { name, Sample } from "./sample";

/** The sample plugin with its SampleArgs. */
export const samplePlugin = definePlugin<SampleArgs>({
  name,
  factory: (args, handle) => new Sample(args, handle),
  args: sampleArgsSpec,
});

/** The package's default export: what `kubesched --plugin @kubesched/plugin-sample` loads. */
export default samplePlugin;
