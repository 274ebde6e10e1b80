// @kubesched/plugin-coscheduling — kubernetes-sigs/scheduler-plugins pkg/coscheduling
import { definePlugin } from "@kubesched/framework";
import { type CoschedulingArgs, coschedulingArgsSpec } from "./args";
import { Coscheduling, name } from "./coscheduling";
import { podGroupResource } from "./pod-group";

export { type CoschedulingArgs, defaultCoschedulingArgs, validateCoschedulingArgs } from "./args";
export { checkClusterResource, PermitStatus, PodGroupManager } from "./core";
export { Coscheduling, defaultWaitTimeMs, name } from "./coscheduling";
export { type PodGroup, PodGroupLabel, podGroupFullName, podGroupLabel, podGroupResource } from "./pod-group";

/** The Coscheduling plugin with its CoschedulingArgs; it reads PodGroups. */
export const coschedulingPlugin = definePlugin<CoschedulingArgs>({
  name,
  factory: (args, handle) => new Coscheduling(args, handle),
  args: coschedulingArgsSpec,
  customResources: [podGroupResource],
});

/** The package's default export: what `kubesched --plugin @kubesched/plugin-coscheduling` loads. */
export default coschedulingPlugin;
