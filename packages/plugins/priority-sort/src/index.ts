// @kubesched/plugin-priority-sort — upstream pkg/scheduler/framework/plugins/queuesort
import { definePlugin } from "@kubesched/framework";
import { name, PrioritySort } from "./priority-sort";

export { name, PrioritySort } from "./priority-sort";

/** The PrioritySort queue-sort plugin (no args). */
export const prioritySortPlugin = definePlugin<undefined>({
  name,
  factory: () => new PrioritySort(),
});
