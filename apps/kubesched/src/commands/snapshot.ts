// kubesched snapshot: what --kubeconfig reads from the API server, written as multi-document
// YAML, so a simulate/capacity/diff run can be repeated offline with --cluster.
import { writeFileSync } from "node:fs";
import { stringify } from "yaml";
import type { CommandSpec } from "../cli";
import { kubeconfigFlags, readClusterFlag, resolvePath } from "./common";

export const snapshotCommand: CommandSpec = {
  name: "snapshot",
  summary: "Read the objects the scheduler uses from a cluster once and write them as a snapshot (YAML).",
  flags: [
    ...kubeconfigFlags,
    { name: "out", value: "FILE", description: "Write to FILE instead of stdout." },
  ],
  async run(ctx) {
    if (typeof ctx.flags.kubeconfig !== "string") {
      ctx.io.stderr("error: --kubeconfig is required\n");
      return 2;
    }
    const objects = await readClusterFlag(ctx);
    if (objects === null) return 1;
    const text = objects.map((o) => `---\n${stringify(o, { lineWidth: 0 })}`).join("");
    const out = ctx.flags.out;
    if (typeof out === "string") writeFileSync(resolvePath(ctx, out), text);
    else ctx.io.stdout(text);
    ctx.io.stderr(`read ${objects.length} objects\n`);
    return 0;
  },
};
