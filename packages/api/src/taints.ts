// upstream: staging/src/k8s.io/api/core/v1/toleration.go (ToleratesTaint), taint.go (ToString),
// staging/src/k8s.io/component-helpers/scheduling/corev1/helpers.go (FindMatchingUntoleratedTaint).
import type { Taint, Toleration } from "kubernetes-types/core/v1.js";

export const TaintEffectNoSchedule = "NoSchedule";
export const TaintEffectPreferNoSchedule = "PreferNoSchedule";
export const TaintEffectNoExecute = "NoExecute";

export interface TolerationOptions {
  /**
   * TaintTolerationComparisonOperators (alpha in 1.35): let `Gt`/`Lt` tolerations compare
   * integer values. When off (the default) such tolerations match nothing.
   */
  enableComparisonOperators?: boolean;
}

const decimalIntegerRe = /^-?(0|[1-9][0-9]*)$/;
const MIN_INT64 = -(1n << 63n);
const MAX_INT64 = (1n << 63n) - 1n;

/** A decimal int64 without leading zeros or '+' (upstream content.IsDecimalInteger + ParseInt). */
function parseDecimalInt64(s: string | undefined): bigint | undefined {
  if (s === undefined || !decimalIntegerRe.test(s)) return undefined;
  const v = BigInt(s);
  return v < MIN_INT64 || v > MAX_INT64 ? undefined : v;
}

/** 1 tolerated, 0 not tolerated, -1 not tolerated because a Gt/Lt value is not an integer. */
function toleratesResult(t: Toleration, taint: Taint, comparison: boolean): 1 | 0 | -1 {
  if (t.effect && t.effect !== taint.effect) return 0;
  if (t.key && t.key !== taint.key) return 0;
  switch (t.operator) {
    case undefined:
    case "":
    case "Equal":
      return (t.value ?? "") === (taint.value ?? "") ? 1 : 0;
    case "Exists":
      return 1;
    case "Lt":
    case "Gt": {
      if (!comparison) return 0;
      const tv = parseDecimalInt64(t.value);
      const nv = parseDecimalInt64(taint.value);
      if (tv === undefined || nv === undefined) return -1;
      return (t.operator === "Lt" ? nv < tv : nv > tv) ? 1 : 0;
    }
    default:
      return 0;
  }
}

/**
 * Whether a toleration tolerates a taint (upstream Toleration.ToleratesTaint): an empty effect
 * matches every effect, an empty key with `Exists` matches every taint, operator defaults to
 * `Equal`.
 */
export function tolerationToleratesTaint(t: Toleration, taint: Taint, opts?: TolerationOptions): boolean {
  return toleratesResult(t, taint, opts?.enableComparisonOperators === true) === 1;
}

/** Whether any of the tolerations tolerates the taint. */
export function tolerationsTolerateTaint(
  tolerations: readonly Toleration[] | undefined,
  taint: Taint,
  opts?: TolerationOptions,
): boolean {
  if (tolerations === undefined) return false;
  const comparison = opts?.enableComparisonOperators === true;
  for (let i = 0; i < tolerations.length; i++) {
    if (toleratesResult(tolerations[i]!, taint, comparison) === 1) return true;
  }
  return false;
}

/**
 * The first taint passing `inclusionFilter` that no toleration tolerates, or undefined when all
 * are tolerated. With comparison operators on, a cleanly untolerated taint is preferred over
 * one whose only failure was a non-integer Gt/Lt value, as upstream.
 */
export function findMatchingUntoleratedTaint(
  taints: readonly Taint[] | undefined,
  tolerations: readonly Toleration[] | undefined,
  inclusionFilter?: ((t: Taint) => boolean) | null,
  opts?: TolerationOptions,
): Taint | undefined {
  if (taints === undefined) return undefined;
  const comparison = opts?.enableComparisonOperators === true;
  const tols = tolerations ?? [];
  let firstErrTaint: Taint | undefined;
  for (let i = 0; i < taints.length; i++) {
    const taint = taints[i]!;
    if (inclusionFilter != null && !inclusionFilter(taint)) continue;
    let tolerated = false;
    let sawError = false;
    for (let j = 0; j < tols.length; j++) {
      const r = toleratesResult(tols[j]!, taint, comparison);
      if (r === 1) {
        tolerated = true;
        break;
      }
      if (r === -1) sawError = true;
    }
    if (tolerated) continue;
    if (!sawError) return taint;
    firstErrTaint ??= taint;
  }
  return firstErrTaint;
}

/** Taints with effect NoSchedule or NoExecute (the TaintToleration filter's inclusion filter). */
export function doNotScheduleTaintsFilter(t: Taint): boolean {
  return t.effect === TaintEffectNoSchedule || t.effect === TaintEffectNoExecute;
}

/** upstream Taint.ToString: `key=value:effect`, or `key:effect` without a value. */
export function taintToString(taint: Taint): string {
  if (!taint.value) return `${taint.key}:${taint.effect}`;
  return `${taint.key}=${taint.value}:${taint.effect}`;
}

/** `{key: value}`, as the TaintToleration filter embeds a taint in its failure reason. */
export function formatTaintForMessage(taint: Taint): string {
  return `{${taint.key}: ${taint.value ?? ""}}`;
}
