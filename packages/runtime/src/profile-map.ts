// upstream: pkg/scheduler/profile/profile.go — NewMap builds every profile's framework with the
// same options. The scheduler (simulate and live) and the test harness all build through it, so
// tests exercise the production wiring. The one DRA manager every profile shares is made here
// (upstream scheduler.go New: NewDRAManager, handed to each framework with WithSharedDRAManager).
import { isDeepStrictEqual } from "node:util";
import type { ProfileConfig } from "@kubesched/config";
import { defaultFeatures, type Registry, type SharedDRAManager } from "@kubesched/framework";
import { DefaultDRAManager } from "@kubesched/plugin-helpers";
import type { Framework, FrameworkOptions } from "./framework";
import { newFramework } from "./observed-framework";
import { WaitingPodsMap } from "./waiting-pods-map";

/**
 * The options of every profile's framework (one observer for all: its events name the profile).
 * The waiting-pods map and the DRA manager are made by newProfileMap, one for all profiles.
 */
export type ProfileMapOptions = Omit<FrameworkOptions, "waitingPods" | "sharedDRAManager">;

/** The profiles' frameworks by schedulerName (upstream profile.Map), in configuration order. */
export type ProfileMap = Map<string, Framework>;

/**
 * Builds one framework per profile (upstream profile.NewMap). Every profile shares one
 * waiting-pods map (a victim waiting at Permit in any profile can be preempted), one DRA manager
 * (with DynamicResourceAllocation: a device one profile allocates, or has in flight, is taken for
 * all) and the snapshot, listers, client and logger of `opts`. Profiles must have distinct, non-empty scheduler names and
 * the same QueueSort plugin with the same args, as upstream checks.
 */
export async function newProfileMap(
  registry: Registry,
  profiles: readonly ProfileConfig[],
  opts: ProfileMapOptions,
): Promise<ProfileMap> {
  if (profiles.length === 0) throw new Error("at least one profile is required");
  const waitingPods = new WaitingPodsMap();
  const sharedDRAManager = newSharedDRAManager(opts);
  const m: ProfileMap = new Map();
  let first: { queueSort: string; args: unknown } | null = null;
  for (const cfg of profiles) {
    if (!cfg.plugins)
      throw new Error(`plugins required for profile with scheduler name "${cfg.schedulerName}"`);
    let fwk: Framework;
    try {
      fwk = await newFramework(registry, cfg, {
        ...opts,
        logger: opts.logger.child({ profile: cfg.schedulerName }),
        waitingPods,
        sharedDRAManager,
      });
    } catch (e) {
      throw new Error(`creating profile for scheduler name ${cfg.schedulerName}: ${(e as Error).message}`);
    }
    if (fwk.profileName() === "") throw new Error("scheduler name is needed");
    if (m.has(fwk.profileName())) {
      throw new Error(`duplicate profile with scheduler name "${fwk.profileName()}"`);
    }
    const queueSort = fwk.listPlugins().queueSort?.[0]?.name ?? "";
    const args = cfg.pluginConfig.find((c) => c.name === queueSort)?.args;
    if (first === null) {
      first = { queueSort, args };
    } else if (first.queueSort !== queueSort) {
      throw new Error(
        `different queue sort plugins for profile "${cfg.schedulerName}": "${queueSort}", first: "${first.queueSort}"`,
      );
    } else if (!isDeepStrictEqual(first.args, args)) {
      throw new Error(`different queue sort plugin args for profile "${cfg.schedulerName}"`);
    }
    m.set(fwk.profileName(), fwk);
  }
  return m;
}

/**
 * The scheduler's DRA manager (upstream: made when DynamicResourceAllocation is on), over the
 * informer caches of `opts`; null with the gate off.
 */
export function newSharedDRAManager(
  opts: Pick<ProfileMapOptions, "features" | "listers">,
): SharedDRAManager | null {
  const features = opts.features ?? defaultFeatures;
  if (!features.enableDynamicResourceAllocation) return null;
  return new DefaultDRAManager({
    listers: opts.listers,
    deviceTaintRules: features.enableDRADeviceTaintRules,
  });
}
