// The classic sample's Args (cnych/sample-scheduler-framework pkg/plugins/sample.go): three
// free-form values the plugin receives from its pluginConfig entry, with the classic's JSON names.
import {
  type DecodeResult,
  defaultFeatures,
  defineArgs,
  type FieldError,
  type StaticDecode,
  Type,
} from "@kubesched/framework";

/** `{favorite_color, favorite_number, thanks_to}` in JSON; camelCase in the args. Any values are valid. */
const schema = Type.Transform(
  Type.Object({
    favorite_color: Type.String({ default: "" }),
    favorite_number: Type.Integer({ default: 0 }),
    thanks_to: Type.String({ default: "" }),
  }),
)
  .Decode((v) => ({
    favoriteColor: v.favorite_color,
    favoriteNumber: v.favorite_number,
    thanksTo: v.thanks_to,
  }))
  .Encode((a) => ({
    favorite_color: a.favoriteColor,
    favorite_number: a.favoriteNumber,
    thanks_to: a.thanksTo,
  }));

/** SampleArgs, as decoded from pluginConfig (absent fields are empty). */
export type SampleArgs = StaticDecode<typeof schema>;

export const sampleArgsSpec = defineArgs({ kind: "SampleArgs", schema });

export function defaultSampleArgs(): SampleArgs {
  return decodeSampleArgs(undefined, "").args;
}

/** Strictly decodes `{favorite_color, favorite_number, thanks_to}`. */
export function decodeSampleArgs(raw: unknown, path: string): DecodeResult<SampleArgs> {
  return sampleArgsSpec.decode(raw, path, defaultFeatures);
}

/** Any values are valid (the classic validates nothing). */
export function validateSampleArgs(args: SampleArgs, path: string): FieldError[] {
  return sampleArgsSpec.validate(args, path, defaultFeatures);
}
