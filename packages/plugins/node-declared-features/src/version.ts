// upstream: k8s.io/apimachinery/pkg/util/version (the semantic-version subset the node declared
// features library uses: parse "1.37.0" / "v1.37.0" and GreaterThan).

/** A Kubernetes version as major.minor.patch (pre-release and build metadata are not needed here). */
export interface Version {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

const semantic = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/** Parses "1.37.0" or "v1.37.0"; throws on anything else (versions here are constants). */
export function parseVersion(s: string): Version {
  const m = semantic.exec(s);
  if (!m) throw new Error(`could not parse "${s}" as version`);
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) };
}

/** a > b. */
export function versionGreaterThan(a: Version, b: Version): boolean {
  if (a.major !== b.major) return a.major > b.major;
  if (a.minor !== b.minor) return a.minor > b.minor;
  return a.patch > b.patch;
}

/** The Kubernetes version kubesched's scheduler reports (upstream: version.Get() of kube-scheduler). */
export const kubernetesVersion: Version = parseVersion("1.37.0");
