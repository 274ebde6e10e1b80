// Before `run` starts its informers: does the API server serve every collection they watch? An
// informer over a collection the server does not serve lists 404 forever, so its cache never
// syncs and the scheduler never starts. kube-scheduler does the same (its reflectors retry and log
// "failed to list", WaitForCacheSync waits forever, /readyz stays unready); kubesched asks
// discovery first and stops with what is missing, the versions the server has it in, and the
// flags that make this release's scheduler not watch it. A collection of a plugin's custom
// resource is only a warning: its CRD may be installed later, and the informer picks it up then.
import { type VersionInfo, versionInfoMinor } from "@kubesched/api";
import { supportedReleases } from "@kubesched/config";
import { type Logger, minorOf } from "@kubesched/framework";
import type { RawClient, ResourceSpec, UnservedResource } from "@kubesched/kube";

/** How long discovery may take before `run` goes on without its answer. */
export const discoveryTimeoutMs = 10_000;

/**
 * The server's release ("1.36") from GET /version, when it answers: `versionInfoMinor`, as a
 * snapshot's recorded version is read (its emulated version, else its gitVersion's major.minor).
 */
async function serverRelease(client: RawClient, signal: AbortSignal): Promise<string | undefined> {
  try {
    return (
      versionInfoMinor(await client.request<Partial<VersionInfo>>("GET", "/version", { signal })) ?? undefined
    );
  } catch {
    return undefined;
  }
}

/** Why the collection is missing, as the server's discovery shows it. */
function whereServed(u: UnservedResource): string {
  if (u.servedIn.length > 0) return `it serves ${u.resource} in ${u.servedIn.join(", ")}`;
  if (u.group === "") return `its core API has no ${u.resource}`;
  if (u.groupVersions.length === 0) return `it does not serve the API group ${u.group} at all`;
  const versions = u.groupVersions.map((gv) => gv.slice(u.group.length + 1));
  return `${u.group} serves ${versions.join(", ")}, none of them with ${u.resource}`;
}

/**
 * The flags that make this release's scheduler not watch the collection, or null when none do.
 * `dra`: the collection is one of the kinds watched only with DynamicResourceAllocation on.
 */
function wayOut(
  u: UnservedResource,
  release: string,
  server: string | undefined,
  dra: boolean,
): string | null {
  const older =
    server !== undefined &&
    (supportedReleases as readonly string[]).includes(server) &&
    minorOf(server) < minorOf(release)
      ? `--emulated-version ${server} (the server's release)`
      : null;
  if (u.spec.kind === "DeviceTaintRule") {
    return [older, "--feature-gates DRADeviceTaintRules=false (DeviceTaintRules are then not applied)"]
      .filter(Boolean)
      .join(", or ");
  }
  if (dra) {
    // DynamicResourceAllocation is GA and locked on from 1.35; off by default in 1.33.
    const off =
      minorOf(release) <= 34
        ? "--feature-gates DynamicResourceAllocation=false"
        : "--emulated-version 1.34 --feature-gates DynamicResourceAllocation=false";
    return [older, `${off} (DRA off: pods with resource claims stay pending)`].filter(Boolean).join(", or ");
  }
  return older;
}

/** One line per collection, for the error. */
export function unservedMessage(
  u: UnservedResource,
  release: string,
  gates: string,
  server: string | undefined,
  dra: boolean,
): string {
  const out = wayOut(u, release, server, dra);
  return (
    `the API server${server ? ` (${server})` : ""} does not serve ${u.resource} in ${u.spec.apiVersion} (${whereServed(u)}); ` +
    `kubesched at release ${release}${gates} watches ${u.spec.kind}s there, as kube-scheduler ${release} does, ` +
    `and its cache would never sync.${out ? ` Run with ${out}.` : " Use an API server that serves it."}`
  );
}

/**
 * Checks discovery for `specs`; the error lines when a collection the scheduler needs is not
 * served ([] when all are, or when discovery could not answer: the informers then retry as
 * upstream's do). Custom resources not served are logged as warnings.
 */
export async function checkServedResources(opts: {
  client: RawClient;
  specs: readonly ResourceSpec[];
  customKinds: ReadonlySet<string>;
  release: string;
  logger: Logger;
  signal: AbortSignal;
}): Promise<string[]> {
  // The kube package is loaded only when `run` starts (the CLI's other commands never need it).
  const { findUnservedResources, draKinds } = await import("@kubesched/kube");
  const signal = AbortSignal.any([opts.signal, AbortSignal.timeout(discoveryTimeoutMs)]);
  let unserved: UnservedResource[];
  try {
    unserved = await findUnservedResources(opts.client, opts.specs, signal);
  } catch (e) {
    if (opts.signal.aborted) return [];
    opts.logger.warn(
      "Could not check which resources the API server serves; the informers retry until it answers",
      {
        err: e instanceof Error ? e.message : String(e),
      },
    );
    return [];
  }
  if (unserved.length === 0) return [];
  const server = await serverRelease(opts.client, signal);
  const errors: string[] = [];
  for (const u of unserved) {
    if (opts.customKinds.has(u.spec.kind)) {
      opts.logger.warn(
        "The API server does not serve a custom resource a plugin watches: install its CustomResourceDefinition; the scheduler starts once its informer has listed it",
        { resource: `${u.resource}.${u.spec.apiVersion}`, kind: u.spec.kind, served: whereServed(u) },
      );
      continue;
    }
    const dra = (draKinds as readonly string[]).includes(u.spec.kind);
    const gates =
      u.spec.kind === "DeviceTaintRule"
        ? " with DRADeviceTaintRules on"
        : dra
          ? " with DynamicResourceAllocation on"
          : "";
    errors.push(unservedMessage(u, opts.release, gates, server, dra));
  }
  return errors;
}
