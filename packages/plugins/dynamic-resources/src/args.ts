// upstream: staging/src/k8s.io/kube-scheduler/config/v1/types_pluginargs.go (DynamicResourcesArgs),
// pkg/scheduler/apis/config/v1/defaults.go, validation_pluginargs.go (ValidateDynamicResourcesArgs)
import {
  type DecodeResult,
  defaultFeatures,
  defineArgs,
  type FieldError,
  fieldErrors,
  fieldPath,
  type StaticDecode,
  Type,
} from "@kubesched/framework";

export const DefaultFilterTimeoutMs = 10_000;
export const DefaultBindingTimeoutMs = 600_000;

const unitMs: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** A Go duration string ("10s", "1m30s", "-1s", "0") in milliseconds; undefined when malformed. */
export function parseGoDuration(s: string): number | undefined {
  if (s === "0") return 0;
  const m = /^([-+]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+$/.exec(s);
  if (!m) return undefined;
  let total = 0;
  for (const part of s.replace(/^[-+]/, "").matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)) {
    total += Number(part[1]) * (unitMs[part[2] as string] as number);
  }
  return m[1] === "-" ? -total : total;
}

/** Milliseconds as a Go duration string ("10s", "1m30s"). */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return "0s";
  const sign = ms < 0 ? "-" : "";
  let rest = Math.abs(ms);
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = rest / 1000;
  return `${sign}${h ? `${h}h` : ""}${h || m ? `${m}m` : ""}${s}s`;
}

/** A metav1.Duration field: a Go duration string in v1 JSON, milliseconds in the args. */
function duration(options: { default: string; description: string }) {
  return Type.Transform(Type.String(options))
    .Decode((s) => {
      const ms = parseGoDuration(s);
      if (ms === undefined) throw new Error("must be a duration such as 10s or 1m30s");
      return ms;
    })
    .Encode(formatGoDuration);
}

/**
 * The v1 DynamicResourcesArgs: type, defaults, decoding, validation and JSON Schema. The args
 * hold the durations in milliseconds (`filterTimeoutMs`, `bindingTimeoutMs`).
 */
const schema = Type.Transform(
  Type.Object({
    filterTimeout: duration({
      default: formatGoDuration(DefaultFilterTimeoutMs),
      description: "Go duration; 0 disables the Filter timeout",
    }),
    bindingTimeout: duration({
      default: formatGoDuration(DefaultBindingTimeoutMs),
      description: "Go duration, at least 1s",
    }),
  }),
)
  .Decode((v) => ({ filterTimeoutMs: v.filterTimeout, bindingTimeoutMs: v.bindingTimeout }))
  .Encode((a) => ({ filterTimeout: a.filterTimeoutMs, bindingTimeout: a.bindingTimeoutMs }));

/** DynamicResourcesArgs (kubescheduler.config.k8s.io/v1). Durations in milliseconds. */
export type DynamicResourcesArgs = StaticDecode<typeof schema>;

/**
 * The gates these fields depend on (DRASchedulerFilterTimeout, DRADeviceBindingConditions,
 * DRAResourceClaimDeviceStatus) are on by default in 1.37 and not modelled as switches here.
 */
export const dynamicResourcesArgsSpec = defineArgs({
  kind: "DynamicResourcesArgs",
  schema,
  validate: (args, path) => [
    ...(args.filterTimeoutMs < 0
      ? [
          fieldErrors.invalid(
            fieldPath.child(path, "filterTimeout"),
            formatGoDuration(args.filterTimeoutMs),
            "must be zero or positive",
          ),
        ]
      : []),
    ...(args.bindingTimeoutMs < 1000
      ? [
          fieldErrors.invalid(
            fieldPath.child(path, "bindingTimeout"),
            formatGoDuration(args.bindingTimeoutMs),
            "must be at least 1s",
          ),
        ]
      : []),
  ],
});

/** The defaults: Filter timeout 10s, binding timeout 10m. */
export function defaultDynamicResourcesArgs(): DynamicResourcesArgs {
  return decodeDynamicResourcesArgs(undefined, "").args;
}

/** Strictly decodes DynamicResourcesArgs and applies defaults; `raw` undefined gives the defaults. */
export function decodeDynamicResourcesArgs(raw: unknown, path: string): DecodeResult<DynamicResourcesArgs> {
  return dynamicResourcesArgsSpec.decode(raw, path, defaultFeatures);
}

/** Every problem of the args under `path`. */
export function validateDynamicResourcesArgs(args: DynamicResourcesArgs, path = ""): FieldError[] {
  return dynamicResourcesArgsSpec.validate(args, path, defaultFeatures);
}
