// @kubesched/plugin-pod-topology-spread — the PodTopologySpread plugin (upstream
// pkg/scheduler/framework/plugins/podtopologyspread).
import { definePlugin, formatFieldErrors, type PluginDescriptor } from "@kubesched/framework";
import {
  decodePodTopologySpreadArgs,
  encodePodTopologySpreadArgs,
  type PodTopologySpreadArgs,
  podTopologySpreadArgsSchema,
  validatePodTopologySpreadArgs,
} from "./args";
import { name, PodTopologySpread } from "./pod-topology-spread";

export {
  defaultPodTopologySpreadArgs,
  ListDefaulting,
  type PodTopologySpreadArgs,
  type PodTopologySpreadConstraintsDefaulting,
  SystemDefaulting,
  validatePodTopologySpreadArgs,
} from "./args";
export { defaultSelector, getPodServices } from "./default-selector";
export { name, PodTopologySpread } from "./pod-topology-spread";
export { ErrReasonConstraintsNotMatch, ErrReasonNodeLabelNotMatch } from "./reasons";

/** The PodTopologySpread plugin descriptor (args kind `PodTopologySpreadArgs`). */
export const podTopologySpreadPlugin: PluginDescriptor<PodTopologySpreadArgs> =
  definePlugin<PodTopologySpreadArgs>({
    name,
    factory: (args, handle) => {
      const errs = validatePodTopologySpreadArgs(args);
      if (errs.length > 0) throw new Error(formatFieldErrors(errs));
      return new PodTopologySpread(args, handle);
    },
    args: {
      kind: "PodTopologySpreadArgs",
      decode: (raw, path) => decodePodTopologySpreadArgs(raw, path),
      validate: (args, path) => validatePodTopologySpreadArgs(args, path),
      encode: encodePodTopologySpreadArgs,
      schema: podTopologySpreadArgsSchema,
    },
  });
