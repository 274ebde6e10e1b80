// What a snapshot shared in a ticket should not carry (`kubesched snapshot` redacts by default,
// `--no-redact` keeps everything): what the scheduler never reads and may hold secrets or the
// history of an object.
// - metadata.managedFields;
// - annotations, except those the scheduler reads (the storage annotations of volume binding and
//   CSI migration: `pv.kubernetes.io/`, `volume.kubernetes.io/`, `volume.beta.kubernetes.io/`,
//   `storage.alpha.kubernetes.io/`, and `scheduler.alpha.kubernetes.io/`) — among them
//   `kubectl.kubernetes.io/last-applied-configuration`, a second copy of the object;
// - the `value` of every environment variable of a pod's containers (init and ephemeral too, and
//   in a workload's pod template): it is replaced with "REDACTED"; `valueFrom` references stay.
// Secrets are never read (no command lists them).
import { isJsonObject } from "@kubesched/api";

/** What a redacted environment variable's value becomes. */
export const redactedValue = "REDACTED";

/** Annotation key prefixes the scheduler reads; every other annotation is redacted. */
export const schedulerAnnotationPrefixes = [
  "pv.kubernetes.io/",
  "volume.kubernetes.io/",
  "volume.beta.kubernetes.io/",
  "storage.alpha.kubernetes.io/",
  "scheduler.alpha.kubernetes.io/",
] as const;

function redactMetadata(md: unknown): void {
  if (!isJsonObject(md)) return;
  delete md.managedFields;
  const ann = md.annotations;
  if (!isJsonObject(ann)) return;
  for (const key of Object.keys(ann)) {
    if (!schedulerAnnotationPrefixes.some((p) => key.startsWith(p))) delete ann[key];
  }
  if (Object.keys(ann).length === 0) delete md.annotations;
}

function redactPodSpec(spec: unknown): void {
  if (!isJsonObject(spec)) return;
  for (const list of [spec.containers, spec.initContainers, spec.ephemeralContainers]) {
    if (!Array.isArray(list)) continue;
    for (const c of list) {
      if (!isJsonObject(c) || !Array.isArray(c.env)) continue;
      for (const e of c.env) if (isJsonObject(e) && e.value !== undefined) e.value = redactedValue;
    }
  }
}

/** A pod template (`spec.template` of a workload): its metadata and pod spec. */
function redactTemplate(template: unknown): void {
  if (!isJsonObject(template)) return;
  redactMetadata(template.metadata);
  redactPodSpec(template.spec);
}

/** Redacts `object` in place (see the file header) and returns it. */
export function redactObject<T>(object: T): T {
  if (!isJsonObject(object)) return object;
  redactMetadata(object.metadata);
  const spec = object.spec;
  if (!isJsonObject(spec)) return object;
  if (object.kind === "Pod") redactPodSpec(spec);
  redactTemplate(spec.template);
  const jobTemplate = spec.jobTemplate;
  if (isJsonObject(jobTemplate) && isJsonObject(jobTemplate.spec)) {
    redactMetadata(jobTemplate.metadata);
    redactTemplate(jobTemplate.spec.template);
  }
  return object;
}
