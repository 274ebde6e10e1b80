// upstream: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go, suffix.go, amount.go
//
// A Quantity is held exactly as `unscaled × 10^exp` with a bigint mantissa (like inf.Dec), so
// parsing, comparison and arithmetic never go through floating point.

/** How a quantity prints: 12e6, 12Mi (12 × 2^20) or 12M (12 × 10^6). */
export type QuantityFormat = "DecimalExponent" | "BinarySI" | "DecimalSI";

const splitREString = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$";
const errFormatWrong = `quantities must match the regular expression '${splitREString}'`;
const errSuffix = "unable to parse quantity's suffix";

/** Thrown for a string Kubernetes would reject; `reason` is upstream's error text. */
export class QuantityParseError extends Error {
  readonly input: string;
  readonly reason: string;
  constructor(input: string, reason: string) {
    super(`cannot parse quantity ${JSON.stringify(input)}: ${reason}`);
    this.name = "QuantityParseError";
    this.input = input;
    this.reason = reason;
  }
}

const MAX_INT64 = (1n << 63n) - 1n;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MAX_INT32 = 2147483647;
/** Parsing rounds every non-zero value up (away from zero) to a multiple of 10^-9. */
const NANO = -9;

const decimalSuffixes: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  "": 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const binarySuffixes: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const decimalByExponent = new Map<number, string>(Object.entries(decimalSuffixes).map(([s, e]) => [e, s]));
const binaryByExponent = new Map<number, string>(Object.entries(binarySuffixes).map(([s, e]) => [e, s]));

const pow10Cache: bigint[] = [];
function pow10(n: number): bigint {
  if (n < 64) {
    let v = pow10Cache[n];
    if (v === undefined) {
      v = 10n ** BigInt(n);
      pow10Cache[n] = v;
    }
    return v;
  }
  return 10n ** BigInt(n);
}

function abs(v: bigint): bigint {
  return v < 0n ? -v : v;
}

/** Number of decimal digits of |v| (v != 0). */
function digits(v: bigint): number {
  return abs(v).toString().length;
}

/** Divides by 10^n, rounding away from zero (upstream's inf.RoundUp). */
function divPow10AwayFromZero(v: bigint, n: number): bigint {
  if (v === 0n) return 0n;
  if (n > digits(v)) return v < 0n ? -1n : 1n;
  const d = pow10(n);
  const q = v / d;
  if (q * d === v) return q;
  return v < 0n ? q - 1n : q + 1n;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isSuffixLetter(c: number): boolean {
  // eEinumkKMGTP
  switch (c) {
    case 101:
    case 69:
    case 105:
    case 110:
    case 117:
    case 109:
    case 107:
    case 75:
    case 77:
    case 71:
    case 84:
    case 80:
      return true;
    default:
      return false;
  }
}

interface Suffix {
  base: 2 | 10;
  exponent: number;
  format: QuantityFormat;
}

// upstream: suffix.go quantitySuffixer.interpret
function interpretSuffix(s: string): Suffix | undefined {
  const dec = decimalSuffixes[s];
  if (dec !== undefined) return { base: 10, exponent: dec, format: "DecimalSI" };
  const bin = binarySuffixes[s];
  if (bin !== undefined) return { base: 2, exponent: bin, format: "BinarySI" };
  if (s.length > 1 && (s[0] === "e" || s[0] === "E")) {
    // strconv.ParseInt(s[1:], 10, 64), then bounded to ±MaxInt32 so the scale can be negated.
    if (!/^[+-]?[0-9]+$/.test(s.slice(1))) return undefined;
    const exp = Number(s.slice(1));
    if (!Number.isFinite(exp) || exp > MAX_INT32 || exp < -MAX_INT32) return undefined;
    return { base: 10, exponent: exp, format: "DecimalExponent" };
  }
  return undefined;
}

/**
 * Kubernetes resource.Quantity: a fixed-point number with a suffix format. Immutable; `add`
 * and `sub` return new quantities.
 */
export class Quantity {
  /** The value is `unscaled × 10^exp`. */
  private readonly unscaled: bigint;
  private readonly exp: number;
  readonly format: QuantityFormat;

  private constructor(unscaled: bigint, exp: number, format: QuantityFormat) {
    this.unscaled = unscaled;
    this.exp = unscaled === 0n ? 0 : exp;
    this.format = format;
  }

  /** `value × 10^scale` in the given format (upstream NewScaledQuantity / NewQuantity). */
  static of(value: number | bigint, scale = 0, format: QuantityFormat = "DecimalSI"): Quantity {
    return new Quantity(BigInt(value), scale, format);
  }

  /** Parses a quantity exactly as upstream ParseQuantity; throws QuantityParseError. */
  static parse(str: string): Quantity {
    if (str.length === 0) throw new QuantityParseError(str, errFormatWrong);
    if (str === "0") return ZERO;

    // upstream: parseQuantityString
    const end = str.length;
    let pos = 0;
    let positive = true;
    const c0 = str.charCodeAt(0);
    if (c0 === 45) {
      positive = false;
      pos++;
    } else if (c0 === 43) {
      pos++;
    }
    while (pos < end && str.charCodeAt(pos) === 48) pos++;
    if (pos >= end) return ZERO;
    const numStart = pos;
    while (pos < end && isDigit(str.charCodeAt(pos))) pos++;
    const num = str.slice(numStart, pos);
    let denom = "";
    if (pos < end && str.charCodeAt(pos) === 46) {
      pos++;
      const denomStart = pos;
      while (pos < end && isDigit(str.charCodeAt(pos))) pos++;
      denom = str.slice(denomStart, pos);
    }
    const suffixStart = pos;
    while (pos < end && isSuffixLetter(str.charCodeAt(pos))) pos++;
    if (pos < end && (str.charCodeAt(pos) === 45 || str.charCodeAt(pos) === 43)) pos++;
    while (pos < end && isDigit(str.charCodeAt(pos))) pos++;
    if (pos < end) throw new QuantityParseError(str, errFormatWrong);

    const suffix = interpretSuffix(str.slice(suffixStart));
    if (suffix === undefined) throw new QuantityParseError(str, errSuffix);

    const digitsStr = num + denom;
    let unscaled = digitsStr.length === 0 ? 0n : BigInt(digitsStr);
    let exp = -denom.length;
    let format = suffix.format;
    if (suffix.base === 10) {
      exp += suffix.exponent;
    } else {
      unscaled <<= BigInt(suffix.exponent);
    }
    if (unscaled === 0n) return new Quantity(0n, 0, format);

    // Round non-zero values up to the nano scale: asking for a tiny amount gets some.
    if (exp < NANO) {
      unscaled = divPow10AwayFromZero(unscaled, NANO - exp);
      exp = NANO;
    }
    // The max is a simple cap, for BinarySI only.
    if (format === "BinarySI" && exp <= 0 && unscaled > MAX_INT64 * pow10(-exp)) {
      unscaled = MAX_INT64;
      exp = 0;
    }
    if (format === "BinarySI" && exp < 0 && unscaled < pow10(-exp)) {
      // A non-zero value below 1 cannot print as BinarySI without rounding.
      format = "DecimalSI";
    }
    return new Quantity(positive ? unscaled : -unscaled, exp, format);
  }

  /** -1, 0 or 1. */
  sign(): -1 | 0 | 1 {
    return this.unscaled === 0n ? 0 : this.unscaled < 0n ? -1 : 1;
  }

  isZero(): boolean {
    return this.unscaled === 0n;
  }

  /** Compares exactly; -1 if this < other, 0 if equal, 1 if greater. */
  cmp(other: Quantity): -1 | 0 | 1 {
    const sa = this.sign();
    const sb = other.sign();
    if (sa !== sb) return sa < sb ? -1 : 1;
    if (sa === 0) return 0;
    // Same sign: compare orders of magnitude first so huge exponents never get expanded.
    const ma = digits(this.unscaled) + this.exp;
    const mb = digits(other.unscaled) + other.exp;
    if (ma !== mb) return (ma > mb ? sa : -sa) as -1 | 1;
    const [a, b] = align(this, other);
    return a === b ? 0 : a < b ? -1 : 1;
  }

  /** this + other. A zero receiver takes the other's format, as upstream's Add. */
  add(other: Quantity): Quantity {
    const format = this.isZero() ? other.format : this.format;
    if (other.isZero()) return new Quantity(this.unscaled, this.exp, format);
    const [a, b, exp] = align(this, other);
    return new Quantity(a + b, exp, format);
  }

  /** this - other. A zero receiver takes the other's format, as upstream's Sub. */
  sub(other: Quantity): Quantity {
    const format = this.isZero() ? other.format : this.format;
    if (other.isZero()) return new Quantity(this.unscaled, this.exp, format);
    const [a, b, exp] = align(this, other);
    return new Quantity(a - b, exp, format);
  }

  neg(): Quantity {
    return new Quantity(-this.unscaled, this.exp, this.format);
  }

  /**
   * this × other, exactly, in this quantity's format (upstream: `AsDec().Mul` then
   * `NewDecimalQuantity(…, q.Format)`, and `Quantity.Mul(int64)` for an integer other).
   */
  mul(other: Quantity | number): Quantity {
    if (typeof other === "number") {
      if (!Number.isInteger(other)) throw new RangeError(`Quantity.mul: ${other} is not an integer`);
      return new Quantity(this.unscaled * BigInt(other), this.exp, this.format);
    }
    return new Quantity(this.unscaled * other.unscaled, this.exp + other.exp, this.format);
  }

  /**
   * ceil(q × 1000) rounded away from zero, as upstream MilliValue. Saturates at
   * ±Number.MAX_SAFE_INTEGER (upstream's int64 silently overflows past ±9.2e18).
   */
  milliValue(): number {
    return this.scaledValue(-3);
  }

  /** q rounded away from zero to an integer, as upstream Value; saturates like milliValue. */
  value(): number {
    return this.scaledValue(0);
  }

  /** q / 10^scale rounded away from zero (upstream ScaledValue), saturated to safe integers. */
  scaledValue(scale: number): number {
    const v = this.scaledValueBig(scale);
    if (v > MAX_SAFE) return Number.MAX_SAFE_INTEGER;
    if (v < -MAX_SAFE) return Number.MIN_SAFE_INTEGER;
    return Number(v);
  }

  /** milliValue(), exactly: an integer beyond 2^53 keeps every digit (as upstream's int64 up to 2^63). */
  milliValueBig(): bigint {
    return this.scaledValueBig(-3);
  }

  /** value(), exactly (see milliValueBig). */
  valueBig(): bigint {
    return this.scaledValueBig(0);
  }

  /**
   * scaledValue(scale), exactly. Magnitudes beyond 10^40 (far past int64, where upstream's result
   * is undefined) saturate at ±2^128 rather than build huge numbers.
   */
  scaledValueBig(scale: number): bigint {
    if (this.unscaled === 0n) return 0n;
    const shift = this.exp - scale;
    if (shift >= 0) {
      // Anything with more than ~20 digits saturates anyway; avoid building 10^huge.
      if (shift + digits(this.unscaled) > 40) return this.unscaled < 0n ? -(1n << 128n) : 1n << 128n;
      return this.unscaled * pow10(shift);
    }
    return divPow10AwayFromZero(this.unscaled, -shift);
  }

  /** The canonical string, as upstream's String()/CanonicalizeBytes. */
  toString(): string {
    if (this.unscaled === 0n) return "0";
    const sign = this.unscaled < 0n ? "-" : "";
    let format = this.format;
    if (format === "BinarySI") {
      const small = this.cmp(Q_NEG_1024) > 0 && this.cmp(Q_1024) < 0;
      if (small || !this.isIntegral()) {
        // Avoid rounding: show as DecimalSI.
        format = "DecimalSI";
      } else {
        let mag = abs(this.unscaled) * pow10(this.exp);
        let k = 0;
        while (mag >= 1024n && (mag & 1023n) === 0n) {
          mag >>= 10n;
          k++;
        }
        const suffix = k === 0 ? "" : binaryByExponent.get(k * 10);
        if (suffix !== undefined) return sign + mag.toString() + suffix;
        // Past Ei there is no binary suffix: fall back to exact decimal exponent notation.
        format = "DecimalExponent";
      }
    }
    const [mantissa, exponent] = canonicalBase10(abs(this.unscaled), this.exp);
    let suffix: string;
    if (exponent === 0) {
      suffix = "";
    } else if (format === "DecimalSI") {
      suffix = decimalByExponent.get(exponent) ?? `e${exponent}`;
    } else {
      suffix = `e${exponent}`;
    }
    return sign + mantissa + suffix;
  }

  toJSON(): string {
    return this.toString();
  }

  private isIntegral(): boolean {
    if (this.exp >= 0) return true;
    return this.unscaled % pow10(-this.exp) === 0n;
  }
}

/** Moves factors of 10 into the exponent, then lowers the exponent to a multiple of 3. */
function canonicalBase10(mag: bigint, exp: number): [string, number] {
  let m = mag;
  let e = exp;
  while (m >= 10n && m % 10n === 0n) {
    m /= 10n;
    e++;
  }
  const r = ((e % 3) + 3) % 3;
  if (r !== 0) {
    m *= pow10(r);
    e -= r;
  }
  return [m.toString(), e];
}

const MAX_ALIGN = 100_000;

function align(a: Quantity, b: Quantity): [bigint, bigint, number] {
  // Reads the private fields through a structural view; both are Quantities.
  const av = a as unknown as { unscaled: bigint; exp: number };
  const bv = b as unknown as { unscaled: bigint; exp: number };
  if (av.exp === bv.exp) return [av.unscaled, bv.unscaled, av.exp];
  const diff = Math.abs(av.exp - bv.exp);
  if (diff > MAX_ALIGN) throw new RangeError(`quantities ${a} and ${b} differ by more than 10^${MAX_ALIGN}`);
  if (av.exp > bv.exp) return [av.unscaled * pow10(diff), bv.unscaled, bv.exp];
  return [av.unscaled, bv.unscaled * pow10(diff), av.exp];
}

const ZERO = Quantity.of(0);
const Q_1024 = Quantity.of(1024);
const Q_NEG_1024 = Quantity.of(-1024);

/** Same as Quantity.parse. */
export function parseQuantity(s: string): Quantity {
  return Quantity.parse(s);
}

/**
 * Quantity.parse, or null when `s` is missing, empty or not a quantity: for summaries and displays
 * of values validated elsewhere (or not at all), where a bad value counts as none
 * (`tryParseQuantity(s)?.milliValue() ?? 0`). Errors other than QuantityParseError propagate.
 */
export function tryParseQuantity(s: string | undefined): Quantity | null {
  if (!s) return null;
  try {
    return Quantity.parse(s);
  } catch (e) {
    if (e instanceof QuantityParseError) return null;
    throw e;
  }
}

// Resource lists repeat the same few strings ("100m", "1Gi") across thousands of pods; a small
// cache makes the per-pod conversion a map lookup. Cleared wholesale when full.
const CACHE_LIMIT = 4096;
const milliCache = new Map<string, number>();
const valueCache = new Map<string, number>();

/** Quantity.parse(s).milliValue(), cached. Throws QuantityParseError. */
export function quantityMilliValue(s: string): number {
  let v = milliCache.get(s);
  if (v === undefined) {
    v = Quantity.parse(s).milliValue();
    if (milliCache.size >= CACHE_LIMIT) milliCache.clear();
    milliCache.set(s, v);
  }
  return v;
}

/** Quantity.parse(s).value(), cached. Throws QuantityParseError. */
export function quantityValue(s: string): number {
  let v = valueCache.get(s);
  if (v === undefined) {
    v = Quantity.parse(s).value();
    if (valueCache.size >= CACHE_LIMIT) valueCache.clear();
    valueCache.set(s, v);
  }
  return v;
}
