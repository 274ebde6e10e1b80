// The classic sample's Args (cnych/sample-scheduler-framework pkg/plugins/sample.go): three
// free-form values the plugin receives from its pluginConfig entry, with the classic's JSON names.
import { type DecodeResult, type FieldError, ObjectDecoder } from "@kubesched/framework";

/** SampleArgs, as decoded from pluginConfig (absent fields are empty). */
export interface SampleArgs {
  favoriteColor: string;
  favoriteNumber: number;
  thanksTo: string;
}

export function defaultSampleArgs(): SampleArgs {
  return { favoriteColor: "", favoriteNumber: 0, thanksTo: "" };
}

/** Strictly decodes `{favorite_color, favorite_number, thanks_to}`. */
export function decodeSampleArgs(raw: unknown, path: string): DecodeResult<SampleArgs> {
  const errors: FieldError[] = [];
  const d = ObjectDecoder.of(raw, path, errors, ["apiVersion", "kind"]);
  const args: SampleArgs = {
    favoriteColor: d.string("favorite_color") ?? "",
    favoriteNumber: d.int("favorite_number") ?? 0,
    thanksTo: d.string("thanks_to") ?? "",
  };
  d.finish();
  return { args, errors };
}

export function encodeSampleArgs(args: SampleArgs): Record<string, unknown> {
  return {
    favorite_color: args.favoriteColor,
    favorite_number: args.favoriteNumber,
    thanks_to: args.thanksTo,
  };
}

/** Any values are valid (the classic validates nothing). */
export function validateSampleArgs(): FieldError[] {
  return [];
}

/** JSON Schema of SampleArgs. */
export const sampleArgsSchema: Record<string, unknown> = {
  type: "object",
  additionalProperties: false,
  properties: {
    apiVersion: { type: "string" },
    kind: { const: "SampleArgs" },
    favorite_color: { type: "string" },
    favorite_number: { type: "integer" },
    thanks_to: { type: "string" },
  },
};
