// What an API server's /version answers (upstream: staging/src/k8s.io/apimachinery/pkg/version/
// types.go `Info`, v1.33+: with the emulation and minimum-compatibility versions).

/** The body of `GET /version`; every field a string, as upstream's JSON. */
export interface VersionInfo {
  major: string;
  minor: string;
  /** The version the server emulates (its --emulated-version), 1.31+. */
  emulationMajor?: string;
  emulationMinor?: string;
  minCompatibilityMajor?: string;
  minCompatibilityMinor?: string;
  /** The release as built: `v1.35.2`, `v1.34.1-eks-abc1234`, `v1.33.5+k3s1`. */
  gitVersion: string;
  gitCommit?: string;
  gitTreeState?: string;
  buildDate?: string;
  goVersion?: string;
  compiler?: string;
  platform?: string;
}

/**
 * The Kubernetes minor a server behaves as, `"1.35"`: its emulation version when it states one
 * (a server started with --emulated-version behaves as that release), else the major.minor of its
 * gitVersion (`major`/`minor` carry vendor suffixes such as `35+`); null when neither parses.
 */
export function versionInfoMinor(info: Partial<VersionInfo>): string | null {
  const num = (s: unknown) => (typeof s === "string" && /^[0-9]+$/.test(s) ? Number(s) : null);
  const em = num(info.emulationMajor);
  const en = num(info.emulationMinor);
  if (em !== null && en !== null) return `${em}.${en}`;
  const m = typeof info.gitVersion === "string" ? /^v?([0-9]+)\.([0-9]+)/.exec(info.gitVersion) : null;
  if (m) return `${Number(m[1])}.${Number(m[2])}`;
  const major = num(info.major);
  const minor = typeof info.minor === "string" ? num(info.minor.replace(/\+$/, "")) : null;
  return major !== null && minor !== null ? `${major}.${minor}` : null;
}
