// @kubesched/plugin-default-binder — upstream pkg/scheduler/framework/plugins/defaultbinder
import { definePlugin } from "@kubesched/framework";
import { DefaultBinder, name } from "./default-binder";

export { DefaultBinder, name } from "./default-binder";

/** The DefaultBinder bind plugin (no args). */
export const defaultBinderPlugin = definePlugin<undefined>({
  name,
  factory: (_args, handle) => new DefaultBinder(handle),
});
