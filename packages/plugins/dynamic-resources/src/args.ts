// upstream: staging/src/k8s.io/kube-scheduler/config/v1/types_pluginargs.go (DynamicResourcesArgs),
// pkg/scheduler/apis/config/v1/defaults.go, validation_pluginargs.go (ValidateDynamicResourcesArgs)
import {
  type DecodeResult,
  type FieldError,
  fieldErrors,
  fieldPath,
  ObjectDecoder,
} from "@kubesched/framework";

/** DynamicResourcesArgs (kubescheduler.config.k8s.io/v1). Durations in milliseconds. */
export interface DynamicResourcesArgs {
  /** How long Filter may spend per node; 0 disables the limit. Default 10s. */
  filterTimeoutMs: number;
  /** How long PreBind waits for device binding conditions. Default 600s, at least 1s. */
  bindingTimeoutMs: number;
}

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

function decodeDuration(d: ObjectDecoder, name: string): number | undefined {
  const v = d.string(name);
  if (v === undefined) return undefined;
  const ms = parseGoDuration(v);
  if (ms === undefined) {
    d.errors.push(fieldErrors.invalid(d.child(name), v, "must be a duration such as 10s or 1m30s"));
  }
  return ms;
}

/** Strictly decodes DynamicResourcesArgs and applies defaults; `raw` undefined gives the defaults. */
export function decodeDynamicResourcesArgs(raw: unknown, path: string): DecodeResult<DynamicResourcesArgs> {
  const errors: FieldError[] = [];
  const d = ObjectDecoder.of(raw, path, errors, ["apiVersion", "kind"]);
  const args: DynamicResourcesArgs = {
    filterTimeoutMs: decodeDuration(d, "filterTimeout") ?? DefaultFilterTimeoutMs,
    bindingTimeoutMs: decodeDuration(d, "bindingTimeout") ?? DefaultBindingTimeoutMs,
  };
  d.finish();
  return { args, errors };
}

/**
 * Every problem of the args under `path`. The gates these fields depend on
 * (DRASchedulerFilterTimeout, DRADeviceBindingConditions, DRAResourceClaimDeviceStatus) are on by
 * default in 1.37 and not modelled as switches here.
 */
export function validateDynamicResourcesArgs(args: DynamicResourcesArgs, path = ""): FieldError[] {
  const errs: FieldError[] = [];
  if (args.filterTimeoutMs < 0) {
    errs.push(
      fieldErrors.invalid(
        fieldPath.child(path, "filterTimeout"),
        formatGoDuration(args.filterTimeoutMs),
        "must be zero or positive",
      ),
    );
  }
  if (args.bindingTimeoutMs < 1000) {
    errs.push(
      fieldErrors.invalid(
        fieldPath.child(path, "bindingTimeout"),
        formatGoDuration(args.bindingTimeoutMs),
        "must be at least 1s",
      ),
    );
  }
  return errs;
}

export function encodeDynamicResourcesArgs(args: DynamicResourcesArgs): Record<string, unknown> {
  return {
    filterTimeout: formatGoDuration(args.filterTimeoutMs),
    bindingTimeout: formatGoDuration(args.bindingTimeoutMs),
  };
}

export const dynamicResourcesArgsSchema: Record<string, unknown> = {
  type: "object",
  additionalProperties: false,
  properties: {
    apiVersion: { type: "string" },
    kind: { type: "string" },
    filterTimeout: {
      type: "string",
      default: "10s",
      description: "Go duration; 0 disables the Filter timeout",
    },
    bindingTimeout: { type: "string", default: "10m0s", description: "Go duration, at least 1s" },
  },
};
