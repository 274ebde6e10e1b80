// A plugin package as `npm create kubesched-plugin` writes one, against the published .d.ts: the
// main entry for the contract (with args declared once and a signature), the columnar subpath
// for an optional fast path. tooling/type-tests compiles it with every supported TypeScript.
import type { Pod } from "@kubesched/api";
import {
  Code,
  type CycleState,
  defaultNormalizer,
  defineArgs,
  definePlugin,
  type FilterPlugin,
  type Handle,
  MaxNodeScore,
  type NodeInfo,
  type PluginDescriptor,
  type ScoreExtensions,
  type ScorePlugin,
  type SignPlugin,
  type SignPodResult,
  type StaticDecode,
  Status,
  Type,
} from "@kubesched/framework";
import type { ColumnarFilterPlugin, ColumnWindow } from "@kubesched/framework/columnar";

export const name = "PodSlots";

const schema = Type.Object({ reserved: Type.Integer({ minimum: 0, default: 0 }) });
export type PodSlotsArgs = StaticDecode<typeof schema>;
export const podSlotsArgs = defineArgs({ kind: "PodSlotsArgs", schema });

/** Keeps `reserved` pod slots free on every node and prefers emptier nodes. */
export class PodSlots implements FilterPlugin, ColumnarFilterPlugin, ScorePlugin, SignPlugin {
  private readonly normalizer = defaultNormalizer(MaxNodeScore, true);

  constructor(
    private readonly args: PodSlotsArgs,
    readonly handle: Handle,
  ) {}

  name(): string {
    return name;
  }

  filter(_state: CycleState, _pod: Pod, nodeInfo: NodeInfo): Status | null {
    return nodeInfo.podCount + 1 + this.args.reserved <= nodeInfo.allocatable.allowedPodNumber
      ? null
      : new Status(Code.Unschedulable, "node(s) had no free pod slot");
  }

  filterColumns(state: CycleState, pod: Pod, window: ColumnWindow, out: (Status | null)[]): void {
    const { columns, indices, count } = window;
    for (let k = 0; k < count; k++)
      out[k] = this.filter(state, pod, columns.nodeInfos[indices[k] ?? 0] as NodeInfo);
  }

  score(_state: CycleState, _pod: Pod, nodeInfo: NodeInfo): number | Status {
    return nodeInfo.podCount;
  }

  scoreExtensions(): ScoreExtensions {
    return this.normalizer;
  }

  signPod(_pod: Pod): SignPodResult {
    // Decisions depend on the node alone.
    return { fragments: [], status: null };
  }
}

export const podSlotsPlugin: PluginDescriptor<PodSlotsArgs> = definePlugin<PodSlotsArgs>({
  name,
  factory: (args, handle) => new PodSlots(args, handle),
  args: podSlotsArgs,
});
export default podSlotsPlugin;
