// upstream: pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go
import type { Pod } from "@kubesched/api";
import {
  type ClusterEventWithHint,
  Code,
  type EnqueueExtensions,
  type Features,
  type PreEnqueuePlugin,
  Status,
} from "@kubesched/framework";
import { eventsToRegister } from "./events";
import { waitingForSchedulingGatesReason } from "./reasons";

/** The plugin's registered name. */
export const name = "SchedulingGates";

/** SchedulingGates: keeps pods with `spec.schedulingGates` out of the active queue until the gates are removed. */
export class SchedulingGates implements PreEnqueuePlugin, EnqueueExtensions {
  private readonly enableSchedulingQueueHint: boolean;

  constructor(features: Pick<Features, "enableSchedulingQueueHint">) {
    this.enableSchedulingQueueHint = features.enableSchedulingQueueHint;
  }

  name(): string {
    return name;
  }

  preEnqueue(pod: Pod): Status | null {
    const gates = pod.spec?.schedulingGates;
    if (!gates || gates.length === 0) return null;
    return new Status(
      Code.UnschedulableAndUnresolvable,
      waitingForSchedulingGatesReason(gates.map((g) => g.name)),
    );
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return eventsToRegister(this.enableSchedulingQueueHint);
  }
}
