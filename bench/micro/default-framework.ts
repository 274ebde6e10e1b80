// The default profile's runtime over fixed nodes and pods, with the testing package's fakes for
// the listers, client, events, logger and nominator: what the micro-benchmarks that run a whole
// cycle (cycle.bench.ts, preemption.bench.ts) run their plugins through.
import type { Node, Pod } from "@kubesched/api";
import { defaultConfig } from "@kubesched/config";
import type { Registry, SharedLister } from "@kubesched/framework";
import { type Framework, newProfileMap } from "@kubesched/runtime";
import {
  FakeListers,
  FakeNominator,
  RecordingClusterClient,
  recordingEventRecorder,
  recordingLogger,
} from "@kubesched/testing";

/** The default-scheduler profile of `registry`'s default configuration over `snapshot`. */
export async function defaultFramework(
  registry: Registry,
  nodes: readonly Node[],
  pods: readonly Pod[],
  snapshot: SharedLister,
): Promise<Framework> {
  const config = defaultConfig({ registry });
  const profiles = await newProfileMap(registry, config.profiles, {
    listers: new FakeListers({ nodes: [...nodes], pods: [...pods] }),
    client: new RecordingClusterClient(null),
    eventRecorder: recordingEventRecorder(null),
    snapshot,
    logger: recordingLogger(),
    nominator: new FakeNominator([]),
  });
  return profiles.get("default-scheduler") as Framework;
}
