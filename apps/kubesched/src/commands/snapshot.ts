// kubesched snapshot: what --kubeconfig reads from the API server, written as multi-document
// YAML, so a simulate/capacity/diff run can be repeated offline with --cluster.
import { defineCommand } from "../cli";
import { readClusterFlag } from "./inputs";
import { toYAML, writeOutput } from "./outputs";
import { kubeconfigFlags, outFlag } from "./shared-flags";

export const snapshotCommand = defineCommand({
  name: "snapshot",
  summary: "Read the objects the scheduler uses from a cluster once and write them as a snapshot (YAML).",
  flags: [...kubeconfigFlags, outFlag()],
  async run(ctx) {
    const read = await readClusterFlag(ctx);
    if (read === null) return 1;
    const { objects } = read;
    const text = objects.map((o) => `---\n${toYAML(o)}`).join("");
    if (!writeOutput(ctx, ctx.flags.out, text)) return 1;
    ctx.io.stderr(`read ${objects.length} objects\n`);
    return 0;
  },
});
