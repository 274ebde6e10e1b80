// @kubesched/plugin-taint-toleration — upstream pkg/scheduler/framework/plugins/tainttoleration
import { definePlugin } from "@kubesched/framework";
import { name, TaintToleration } from "./taint-toleration";

export { ErrReasonUntoleratedTaint, errReasonUntoleratedTaintNamed } from "./reasons";
export { name, TaintToleration } from "./taint-toleration";

/** The TaintToleration plugin (no args). */
export const taintTolerationPlugin = definePlugin<undefined>({
  name,
  factory: (_args, handle) => new TaintToleration(handle.features(), handle.kubernetesVersion()),
});
