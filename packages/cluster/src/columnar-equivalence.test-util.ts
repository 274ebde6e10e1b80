// Runs one simulate() input twice, with the in-tree plugins as they are (columnar Filter/Score
// over the snapshot's columns) and with their columnar methods hidden (node by node), for the
// columnar-equivalence tests to compare byte for byte.
import type { KubeSchedulerConfiguration } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger, withoutColumnar } from "@kubesched/testing";
import type { SourcedObject } from "./load";
import { simulate } from "./simulate";

const perNodeRegistry = withoutColumnar(inTreeRegistry);

/** The JSON results of simulate() with columnar methods (`batch`) and without (`perNode`), explain on. */
export async function simulateBothWays(input: {
  config: KubeSchedulerConfiguration;
  objects: () => SourcedObject[];
  seed: number;
}): Promise<{ batch: string; perNode: string }> {
  const run = async (registry: typeof inTreeRegistry): Promise<string> =>
    JSON.stringify(
      await simulate({
        config: input.config,
        registry,
        objects: input.objects(),
        logger: recordingLogger(),
        seed: input.seed,
        explain: true,
      }),
    );
  const [batch, perNode] = await Promise.all([run(inTreeRegistry), run(perNodeRegistry)]);
  return { batch, perNode };
}
