// upstream: pkg/scheduler/framework/plugins/defaultbinder/default_binder.go
import { type Pod, podKey } from "@kubesched/api";
import { asStatus, type BindPlugin, type CycleState, type Handle, type Status } from "@kubesched/framework";

/** The plugin's registered name. */
export const name = "DefaultBinder";

/**
 * DefaultBinder: binds the pod through the API (POST pods/binding with target Node
 * `nodeName`); any error becomes an Error status.
 */
export class DefaultBinder implements BindPlugin {
  constructor(private readonly handle: Handle) {}

  name(): string {
    return name;
  }

  async bind(_state: CycleState, pod: Pod, nodeName: string): Promise<Status | null> {
    const logger = this.handle.logger();
    if (logger.v(3)) logger.debug(3, "Attempting to bind pod to node", { pod: podKey(pod), node: nodeName });
    try {
      await this.handle.client().bindPod(pod, nodeName);
    } catch (err) {
      return asStatus(err);
    }
    return null;
  }
}
