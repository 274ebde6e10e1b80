// kubesched snapshot: what --kubeconfig reads from the API server, written as multi-document
// YAML, so a simulate/capacity/diff run can be repeated offline with --cluster. What a ticket
// should not carry is redacted unless --no-redact (@kubesched/cluster's redactObject).
import { writeFileSync } from "node:fs";
import { redactObject } from "@kubesched/cluster";
import { stringify } from "yaml";
import { defineCommand } from "../cli";
import { boolFlag } from "../flags";
import { readClusterFlag, resolvePath } from "./inputs";
import { kubeconfigFlags, outFlag } from "./shared-flags";

export const snapshotCommand = defineCommand({
  name: "snapshot",
  summary: "Read the objects the scheduler uses from a cluster once and write them as a snapshot (YAML).",
  flags: [
    ...kubeconfigFlags,
    outFlag(),
    boolFlag({
      name: "no-redact",
      description:
        "Keep what the snapshot leaves out by default: managedFields, annotations the scheduler does not read (last-applied-configuration...), environment variable values.",
    }),
  ],
  async run(ctx) {
    const file = ctx.flags.kubeconfig;
    if (file === undefined) {
      ctx.io.stderr("error: --kubeconfig is required\n");
      return 2;
    }
    const objects = await readClusterFlag(ctx, file);
    if (objects === null) return 1;
    if (ctx.flags["no-redact"] !== true) for (const o of objects) redactObject(o);
    const text = objects.map((o) => `---\n${stringify(o, { lineWidth: 0 })}`).join("");
    const out = ctx.flags.out;
    if (out !== undefined) writeFileSync(resolvePath(ctx, out), text);
    else ctx.io.stdout(text);
    ctx.io.stderr(`read ${objects.length} objects\n`);
    return 0;
  },
});
