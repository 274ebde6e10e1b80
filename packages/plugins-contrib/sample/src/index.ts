// @kubesched/plugin-sample — the classic sample plugin of the scheduling framework
import { definePlugin } from "@kubesched/framework";
import {
  decodeSampleArgs,
  encodeSampleArgs,
  type SampleArgs,
  sampleArgsSchema,
  validateSampleArgs,
} from "./args";
import { name, Sample } from "./sample";

export {
  decodeSampleArgs,
  defaultSampleArgs,
  encodeSampleArgs,
  type SampleArgs,
  sampleArgsSchema,
  validateSampleArgs,
} from "./args";
export { name, Sample } from "./sample";

/** The sample plugin with its SampleArgs. */
export const samplePlugin = definePlugin<SampleArgs>({
  name,
  factory: (args, handle) => new Sample(args, handle),
  args: {
    kind: "SampleArgs",
    decode: (raw, path) => decodeSampleArgs(raw, path),
    validate: () => validateSampleArgs(),
    encode: encodeSampleArgs,
    schema: sampleArgsSchema,
  },
});

/** The package's default export: what `kubesched --plugin @kubesched/plugin-sample` loads. */
export default samplePlugin;
