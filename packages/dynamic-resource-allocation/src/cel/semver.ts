// The Semver CEL type. upstream: staging/src/k8s.io/apiserver/pkg/cel/library/semverlib.go and
// semver.go (the type), parsing as github.com/blang/semver/v4 (strict; with `normalize`, the
// library's normalizeVersion first: "v" prefix dropped, missing minor/patch added, leading zeros
// removed).

const numeric = /^(0|[1-9][0-9]*)$/;
const identifier = /^[0-9A-Za-z-]+$/;

/** A parsed semantic version (the `kubernetes.Semver` CEL type). */
export class Semver {
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: readonly (string | bigint)[],
    readonly build: readonly string[],
  ) {}

  compare(other: Semver): -1 | 0 | 1 {
    for (const [a, b] of [
      [this.major, other.major],
      [this.minor, other.minor],
      [this.patch, other.patch],
    ] as const) {
      if (a !== b) return a < b ? -1 : 1;
    }
    // A version without pre-release identifiers has the higher precedence.
    if (this.pre.length === 0 || other.pre.length === 0) {
      if (this.pre.length === other.pre.length) return 0;
      return this.pre.length === 0 ? 1 : -1;
    }
    for (let i = 0; i < Math.min(this.pre.length, other.pre.length); i++) {
      const a = this.pre[i] as string | bigint;
      const b = other.pre[i] as string | bigint;
      if (a === b) continue;
      if (typeof a === "bigint" && typeof b === "bigint") return a < b ? -1 : 1;
      if (typeof a === "bigint") return -1;
      if (typeof b === "bigint") return 1;
      return a < b ? -1 : 1;
    }
    if (this.pre.length === other.pre.length) return 0;
    return this.pre.length < other.pre.length ? -1 : 1;
  }

  toString(): string {
    let s = `${this.major}.${this.minor}.${this.patch}`;
    if (this.pre.length > 0) s += `-${this.pre.join(".")}`;
    if (this.build.length > 0) s += `+${this.build.join(".")}`;
    return s;
  }
}

/** Parses a version as blang/semver's Parse does; throws with its error text. */
export function parseSemver(input: string): Semver {
  if (input.length === 0) throw new Error("Version string empty");
  const parts = input.split(".");
  if (parts.length < 3) throw new Error("No Major.Minor.Patch elements found");
  const [majorStr, minorStr] = parts as [string, string];
  let rest = parts.slice(2).join(".");
  let build: string[] = [];
  let pre: string[] = [];
  const plus = rest.indexOf("+");
  if (plus !== -1) {
    build = rest.slice(plus + 1).split(".");
    rest = rest.slice(0, plus);
  }
  const dash = rest.indexOf("-");
  if (dash !== -1) {
    pre = rest.slice(dash + 1).split(".");
    rest = rest.slice(0, dash);
  }
  const number = (s: string, what: string): bigint => {
    if (!/^[0-9]+$/.test(s)) throw new Error(`Invalid character(s) found in ${what} number "${s}"`);
    if (!numeric.test(s))
      throw new Error(
        `${what[0]?.toUpperCase()}${what.slice(1)} number must not contain leading zeroes "${s}"`,
      );
    return BigInt(s);
  };
  const major = number(majorStr, "major");
  const minor = number(minorStr, "minor");
  const patch = number(rest, "patch");
  const prerelease = pre.map((p) => {
    if (p.length === 0) throw new Error("Prerelease is empty");
    if (/^[0-9]+$/.test(p)) {
      if (!numeric.test(p))
        throw new Error(`Numeric PreRelease version must not contain leading zeroes "${p}"`);
      return BigInt(p);
    }
    if (!identifier.test(p)) throw new Error(`Invalid character(s) found in prerelease "${p}"`);
    return p;
  });
  for (const b of build) {
    if (b.length === 0 || !identifier.test(b))
      throw new Error(`Invalid character(s) found in build meta data "${b}"`);
  }
  return new Semver(major, minor, patch, prerelease, build);
}

/** upstream semverlib.go normalizeVersion: `v` prefix, missing minor/patch, leading zeros. */
export function normalizeSemver(input: string): string {
  let v = input.startsWith("v") ? input.slice(1) : input;
  let suffix = "";
  const cut = v.search(/[-+]/);
  if (cut !== -1) {
    suffix = v.slice(cut);
    v = v.slice(0, cut);
  }
  const parts = v.split(".");
  while (parts.length < 3) parts.push("0");
  return parts.map((p) => (/^[0-9]+$/.test(p) ? p.replace(/^0+(?=[0-9])/, "") : p)).join(".") + suffix;
}
