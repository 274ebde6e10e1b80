// kubesched snapshot: what --kubeconfig reads from the API server, written as one `kind: List`
// (YAML) recording the server's /version, so a simulate/capacity/diff run can be repeated offline
// with --cluster at the cluster's release. What a ticket should not carry is redacted unless
// --no-redact (@kubesched/cluster's redactObject).
import { redactObject, snapshotList } from "@kubesched/cluster";
import { defineCommand } from "../cli";
import { boolFlag } from "../flags";
import { readClusterFlag } from "./inputs";
import { toYAML, writeOutput } from "./outputs";
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
    const read = await readClusterFlag(ctx);
    if (read === null) return 1;
    const { objects } = read;
    if (ctx.flags["no-redact"] !== true) for (const o of objects) redactObject(o);
    // One List, as `kubectl get -o yaml` writes, whose metadata records the server's /version.
    const text = toYAML(snapshotList(objects, read.serverVersion));
    if (!writeOutput(ctx, ctx.flags.out, text)) return 1;
    ctx.io.stderr(`read ${objects.length} objects\n`);
    return 0;
  },
});
