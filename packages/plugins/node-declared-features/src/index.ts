// @kubesched/plugin-node-declared-features — upstream pkg/scheduler/framework/plugins/nodedeclaredfeatures
import { definePlugin } from "@kubesched/framework";
import { NodeDeclaredFeatures, name } from "./node-declared-features";

export { allFeatures, type DeclaredFeature, inferForPodScheduling } from "./features";
export { NodeDeclaredFeatures, type NodeDeclaredFeaturesOptions, name } from "./node-declared-features";
export { ErrReasonUnsatisfiedRequirements } from "./reasons";
export { kubernetesVersion, parseVersion, type Version } from "./version";

/** The NodeDeclaredFeatures plugin (no args); does nothing with the NodeDeclaredFeatures gate off. */
export const nodeDeclaredFeaturesPlugin = definePlugin<undefined>({
  name,
  factory: (_args, handle) =>
    new NodeDeclaredFeatures({ enabled: handle.features().enableNodeDeclaredFeatures }),
});
