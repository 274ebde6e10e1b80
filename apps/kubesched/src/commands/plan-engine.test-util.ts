// A pools file and a snapshot loaded as `kubesched plan` loads them, and the counterfactual engine
// on the result (upstream's defaults, the newest release, seed 0): what the brute-force tests
// simulate every count vector with.
import { join } from "node:path";
import { Counterfactuals, loadSnapshotFiles } from "@kubesched/cluster";
import { defaultConfig } from "@kubesched/config";
import { inTreeRegistry } from "@kubesched/plugins-in-tree";
import { recordingLogger } from "@kubesched/testing";
import { planPools, poolProbeInputs, readNodePools } from "./node-pools";
import { readEmulation, schedulerEmulation } from "./shared-flags";

/** `snapshot` and `poolsFile` are relative to `cwd` (messages name them so). */
export async function openPlanEngine(cwd: string, snapshot: string, poolsFile: string) {
  const pools = readNodePools(join(cwd, poolsFile), poolsFile);
  const loaded = loadSnapshotFiles([snapshot], cwd, {
    additionalInputs: poolProbeInputs(poolsFile, pools),
  });
  const planned = planPools(loaded, poolsFile, pools);
  if ("errors" in planned) throw new Error(planned.errors.join("\n"));
  const emulation = readEmulation({ "emulated-version": [], "feature-gates": [] });
  const cf = await Counterfactuals.open({
    config: defaultConfig({ registry: inTreeRegistry, features: emulation.features }),
    registry: inTreeRegistry,
    objects: planned.objects,
    logger: recordingLogger(),
    ...schedulerEmulation(emulation),
    seed: 0,
  });
  return { planned, cf };
}
