// Pod signatures (upstream SignPlugin, KEP-5598) as a test compares them.
import type { Pod } from "@kubesched/api";
import { isSignPlugin, type Plugin, type SignFragment } from "@kubesched/framework";
import { type StatusSummary, statusSummary } from "./status-summary";

/** What {@link signPodSummary} returns: the fragments and the summarized status. */
export interface SignPodSummary {
  fragments: SignFragment[];
  status: StatusSummary;
}

/**
 * `plugin.signPod(pod)` with its status summarized (`{ code: "Success", reasons: [] }` for null),
 * for `toEqual` in tables. Throws when the plugin does not implement SignPlugin.
 */
export function signPodSummary(plugin: Plugin, pod: Pod): SignPodSummary {
  if (!isSignPlugin(plugin))
    throw new Error(`plugin ${plugin.name()} does not implement SignPlugin (signPod)`);
  const { fragments, status } = plugin.signPod(pod);
  return { fragments, status: statusSummary(status) };
}
