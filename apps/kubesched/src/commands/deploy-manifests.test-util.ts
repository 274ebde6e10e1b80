// deploy/kubesched.yaml as tests use it: its objects, the Deployment's container, and the command
// line the container runs with the ConfigMap mounted somewhere else.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";

export const deployFile = join(dirname(fileURLToPath(import.meta.url)), "../../../../deploy/kubesched.yaml");

// biome-ignore lint/suspicious/noExplicitAny: YAML manifests, which the tests check field by field
export type Manifest = any;

export const manifests: Manifest[] = parseAllDocuments(readFileSync(deployFile, "utf8")).map((d) => d.toJS());

/** The one object of a kind (throws when there is none or several). */
export function one(kind: string): Manifest {
  const found = manifests.filter((m) => m.kind === kind);
  if (found.length !== 1) throw new Error(`deploy/kubesched.yaml: ${found.length} ${kind} objects, want 1`);
  return found[0];
}

export const deployment = one("Deployment");
export const podSpec = deployment.spec.template.spec;
export const container = podSpec.containers[0];
export const serviceAccount: { namespace: string; name: string } = {
  namespace: deployment.metadata.namespace,
  name: podSpec.serviceAccountName,
};

/**
 * Writes the ConfigMap the Deployment mounts into `dir` and returns the container's arguments with
 * the mount path replaced by `dir`.
 */
export function containerArgs(dir: string): string[] {
  const volume = podSpec.volumes.find((v: Manifest) => v.configMap);
  const mount = container.volumeMounts.find((m: Manifest) => m.name === volume.name);
  const configMap = manifests.find(
    (m) => m.kind === "ConfigMap" && m.metadata.name === volume.configMap.name,
  );
  for (const [file, text] of Object.entries<string>(configMap.data)) writeFileSync(join(dir, file), text);
  return container.args.map((a: string) => a.replaceAll(mount.mountPath, dir));
}
