// upstream: staging/src/k8s.io/kube-scheduler/config/v1/types_pluginargs.go (InterPodAffinityArgs),
// pkg/scheduler/apis/config/v1/defaults.go (SetDefaults_InterPodAffinityArgs) and
// validation/validation_pluginargs.go (ValidateInterPodAffinityArgs).
import {
  type DecodeResult,
  defaultFeatures,
  defineArgs,
  type FieldError,
  type Static,
  Type,
} from "@kubesched/framework";

export const DefaultHardPodAffinityWeight = 1;
export const MinHardPodAffinityWeight = 0;
export const MaxHardPodAffinityWeight = 100;

/** The v1 InterPodAffinityArgs: type, defaults, decoding, validation and JSON Schema in one declaration. */
const schema = Type.Object({
  hardPodAffinityWeight: Type.Integer({
    minimum: MinHardPodAffinityWeight,
    maximum: MaxHardPodAffinityWeight,
    default: DefaultHardPodAffinityWeight,
    description: "Scoring weight for existing pods with a required affinity term matching the incoming pod.",
  }),
  ignorePreferredTermsOfExistingPods: Type.Boolean({
    default: false,
    description:
      "Ignore existing pods' preferred (anti-)affinity terms when the incoming pod has no preferred terms.",
  }),
});

export type InterPodAffinityArgs = Static<typeof schema>;

export const interPodAffinityArgsSpec = defineArgs({ kind: "InterPodAffinityArgs", schema });

/** upstream ValidateInterPodAffinityArgs: every problem, with field paths under `path`. */
export function validateInterPodAffinityArgs(args: InterPodAffinityArgs, path = ""): FieldError[] {
  return interPodAffinityArgsSpec.validate(args, path, defaultFeatures);
}

/** Strictly decodes v1 InterPodAffinityArgs (undefined: no pluginConfig) and applies defaults. */
export function decodeInterPodAffinityArgs(raw: unknown, path: string): DecodeResult<InterPodAffinityArgs> {
  return interPodAffinityArgsSpec.decode(raw, path, defaultFeatures);
}

export function defaultInterPodAffinityArgs(): InterPodAffinityArgs {
  return decodeInterPodAffinityArgs(undefined, "").args;
}
