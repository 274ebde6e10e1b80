// What an API server's /version answers (upstream: staging/src/k8s.io/apimachinery/pkg/version/
// types.go `Info`, v1.33+: with the emulation and minimum-compatibility versions).

/**
 * The body of `GET /version` (what `kubectl version` shows for the server); every field a string,
 * as upstream's JSON.
 * @public
 */
export interface VersionInfo {
  /** The major version of the binary (`1`). */
  major: string;
  /** The minor version of the binary; vendor builds may suffix it (`34+`). */
  minor: string;
  /** The major version the server emulates (its --emulated-version). */
  emulationMajor?: string;
  /** The minor version the server emulates. */
  emulationMinor?: string;
  /** The oldest major version the server stays compatible with. */
  minCompatibilityMajor?: string;
  /** The oldest minor version the server stays compatible with. */
  minCompatibilityMinor?: string;
  /** The release as built: `v1.35.2`, `v1.34.1-eks-abc1234`, `v1.33.5+k3s1`. */
  gitVersion: string;
  /** The commit built. */
  gitCommit?: string;
  /** `clean` or `dirty`. */
  gitTreeState?: string;
  /** When it was built (RFC 3339). */
  buildDate?: string;
  /** The Go version it was built with. */
  goVersion?: string;
  /** The Go compiler (`gc`). */
  compiler?: string;
  /** `os/arch` (`linux/amd64`). */
  platform?: string;
}

/**
 * The Kubernetes minor a server behaves as, `"1.35"`: its emulation version when it states one
 * (a server started with --emulated-version behaves as that release), else the major.minor of its
 * gitVersion (`major`/`minor` carry vendor suffixes such as `35+`); null when neither parses.
 * @public
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
