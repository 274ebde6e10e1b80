// The classic sample plugin of the scheduling framework's early docs and tutorials
// (cnych/sample-scheduler-framework, angao/scheduler-framework-sample): PreFilter and Filter let
// every pod through, PreBind checks that the chosen node is still in the snapshot.
import type { Pod } from "@kubesched/api";
import {
  Code,
  type CycleState,
  type FilterPlugin,
  type Handle,
  type NodeInfo,
  type PreBindPlugin,
  type PreFilterExtensions,
  type PreFilterPlugin,
  Status,
} from "@kubesched/framework";
import type { SampleArgs } from "./args";

/** The plugin's registered name, as in the classic sample. */
export const name = "sample-plugin";

export class Sample implements PreFilterPlugin, FilterPlugin, PreBindPlugin {
  constructor(
    /** The args from the profile's pluginConfig. */
    readonly args: SampleArgs,
    private readonly handle: Handle,
  ) {
    handle.logger().debug(3, "get plugin config args", { args });
  }

  name(): string {
    return name;
  }

  preFilter(_state: CycleState, pod: Pod): Status | null {
    this.handle.logger().debug(3, "prefilter pod", { pod: pod.metadata?.name });
    return null;
  }

  preFilterExtensions(): PreFilterExtensions | null {
    return null;
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | null {
    this.handle.logger().debug(3, "filter pod", { pod: pod.metadata?.name, node: nodeInfo.nodeName });
    return null;
  }

  preBindPreFlight(): Status | null {
    return null;
  }

  /** An Error when the node is no longer in the snapshot: "prebind get node info error: <node>". */
  async preBind(_state: CycleState, _pod: Pod, nodeName: string): Promise<Status | null> {
    if (!this.handle.snapshotSharedLister().nodeInfos().get(nodeName)) {
      return new Status(Code.Error, `prebind get node info error: ${nodeName}`);
    }
    this.handle.logger().debug(3, "prebind node info", { node: nodeName });
    return null;
  }
}
