// Loading a cluster snapshot: Kubernetes YAML (multi-document) or JSON (an object, an array,
// a `kind: List` or a typed list such as PodList), as `kubectl get ... -o yaml` emits it.
// Malformed input is reported with file, document, object and field; never a stack trace.
import fs from "node:fs";
import path from "node:path";
import {
  convertResourceObjectToV1,
  isJsonObject,
  type Node,
  type Pod,
  ResourceAPIVersion,
  resourceKinds,
} from "@kubesched/api";
import { getCompiler } from "@kubesched/dynamic-resource-allocation/cel";
import type { CustomObject, CustomResource } from "@kubesched/framework";
import { admitCreatedPod, createdObjectAdmission } from "./admission";
import { isSupportedKind, type K8sObject, namespacedKinds, type SupportedKind } from "./in-memory-cluster";
import { defaultMaxInputBytes, InputBudget, InputSizeLimitError } from "./input-reader";
import {
  type AdmissionKind,
  admissionKinds,
  missingNamespaces,
  type Problems,
  validateAdmissionObject,
  validateCustomObject,
  validateObject,
  validWorkload,
} from "./object-validation";
import type { ParsedInputCache } from "./parsed-input-cache";
import { describeObject, type RawObject, readObjects, type SnapshotInput } from "./read-objects";
import {
  allocatedDevicesNotFound,
  duplicateDevicesInPools,
  missingDeviceClasses,
  type NamedObject,
  uncompilableSelectors,
} from "./resource-validation";
import { type RecordedServerVersion, recordedServerVersion } from "./server-version";
import { expandWorkload, scaleWorkload, type WorkloadKind, workloadKinds } from "./workloads";

/** A loaded object of a kind the scheduler reads, and where it came from. */
export interface BuiltinSourcedObject {
  kind: SupportedKind;
  obj: K8sObject;
  /** `file: document N` (1-based), for messages. */
  origin: string;
  resource?: undefined;
}

/** A loaded object of a custom resource a plugin declares. */
export interface CustomSourcedObject {
  kind: string;
  obj: CustomObject;
  origin: string;
  /** The declared resource the object belongs to. */
  resource: CustomResource;
}

/**
 * A loaded LimitRange or ResourceQuota: read by admission (LimitRanger, ResourceQuota) for the
 * pods kubesched creates, never given to the scheduler.
 */
export interface AdmissionSourcedObject {
  kind: AdmissionKind;
  obj: K8sObject;
  origin: string;
  resource?: undefined;
}

/** A loaded object and where it came from. */
export type SourcedObject = BuiltinSourcedObject | CustomSourcedObject | AdmissionSourcedObject;

/** A scheduler object of a kind the in-memory cluster stores (not custom, not admission-only). */
export function isClusterObject(o: SourcedObject): o is BuiltinSourcedObject {
  return !o.resource && !admissionKinds.has(o.kind);
}

export interface LoadOptions {
  /**
   * Custom resources the plugins declare (`customResourcesOf(registry)`): their objects are
   * loaded and validated; objects of other unknown kinds are skipped with a warning.
   */
  customResources?: readonly CustomResource[];
  /**
   * Bytes read over all inputs before reading stops with an error (default 1 GiB; none for
   * loadSnapshotTexts): the memory a load needs grows with what it reads. A FIFO or a device is
   * limited the same way.
   */
  maxInputBytes?: number;
  /**
   * Texts read after the inputs, as more files (`kubesched sweep`'s node pools): their objects
   * are checked like the others and the workloads' controllers see them (a DaemonSet's pod per
   * added node).
   */
  additionalInputs?: readonly { name: string; text: string }[];
  /**
   * Workloads' replicas multiplied by this, rounded up (`kubesched sweep`'s workload scales; see
   * scaleWorkload). Default 1.
   */
  replicaScale?: number;
  /**
   * Files parsed before, read again from memory (`kubesched sweep` loads one snapshot per cell):
   * the result is the same as reading them again.
   */
  parsedInputs?: ParsedInputCache;
}

export class SnapshotLoadError extends Error {
  constructor(
    readonly errors: string[],
    /** Set when reading stopped at the input size limit: the input being read and the limit. */
    readonly sizeLimit?: { input: string; limit: number },
  ) {
    super(errors.join("\n"));
    this.name = "SnapshotLoadError";
  }
}

/**
 * A workload's pod that admission refused (LimitRanger, ResourceQuota), so it was not created: the
 * controller's FailedCreate. A StatefulSet pod whose claim was refused is not created either.
 */
export interface RefusedPod {
  namespace: string;
  name: string;
  /** The workload that would have created it: `file: document N (Kind ns/name)`. */
  origin: string;
  /** The API server's refusal (`pods "NAME" is forbidden: exceeded quota: ...`). */
  message: string;
}

export interface LoadResult {
  objects: SourcedObject[];
  warnings: string[];
  /** The workloads' pods admission refused, in input order (each also a warning). */
  refusedPods: RefusedPod[];
  /** The API server version the snapshot records (`kubesched snapshot` writes it), if any. */
  serverVersion?: RecordedServerVersion;
}

type Json = Record<string, unknown>;

/** Parses one file's text into raw objects (YAML or JSON), trimmed of what the scheduler never reads. */
export function parseSnapshotText(
  text: string,
  filename: string,
  errors: string[],
): { obj: Json; origin: string }[] {
  return [
    ...readObjects({ name: filename, text }, errors, { budget: new InputBudget(Number.POSITIVE_INFINITY) }),
  ];
}

/**
 * The input an error is about: the file that starts it, whatever follows (`FILE: document 2
 * (Pod a): ...`, and JSON's `FILE, item 2 (Pod a): ...`), so that every format is capped alike.
 */
function inputOf(line: string): string {
  const m = /^(.*?)(?:, item \d+)*(?: \([^()]*\))?: /s.exec(line);
  return m ? (m[1] as string) : "";
}

/**
 * At most `max` messages per input (file), then "FILE: and N more like this": a snapshot of
 * 200,000 identical bad objects must not print 200,000 lines.
 */
export function capErrors(lines: readonly string[], max = 20): string[] {
  const counts = new Map<string, number>();
  const out: string[] = [];
  for (const line of lines) {
    const input = inputOf(line);
    const n = (counts.get(input) ?? 0) + 1;
    counts.set(input, n);
    if (n <= max) out.push(line);
  }
  for (const [input, n] of counts) {
    if (n > max) out.push(`${input ? `${input}: ` : ""}and ${n - max} more like this`);
  }
  return out;
}

/** Parses snapshot texts (file name → text) into supported objects, in input order. */
export function loadSnapshotTexts(
  files: readonly { name: string; text: string }[],
  opts: LoadOptions = {},
): LoadResult {
  // The texts are in memory already: no input size limit unless one is given.
  return loadInputs(files, { maxInputBytes: Number.POSITIVE_INFINITY, ...opts });
}

/** Reads the inputs object by object (read-objects.ts), then checks and assembles them. */
function loadInputs(inputs: readonly SnapshotInput[], opts: LoadOptions): LoadResult {
  const customByKind = new Map<string, CustomResource>();
  for (const r of opts.customResources ?? []) customByKind.set(r.kind, r);
  const errors: string[] = [];
  const warnings: string[] = [];
  const problems: Problems = { errors, warnings };
  const objects: SourcedObject[] = [];
  const seen = new Map<string, string>();
  // Workloads, and where their pods go in the input order (right after the workload).
  const workloads: { at: number; kind: WorkloadKind; obj: Json; origin: string }[] = [];
  const budget = new InputBudget(opts.maxInputBytes ?? defaultMaxInputBytes);
  let serverVersion: RecordedServerVersion | undefined;
  const onListMetadata = (metadata: Json, origin: string) => {
    const found = recordedServerVersion(metadata, origin);
    if (found === undefined) return;
    if ("error" in found) errors.push(found.error);
    else if (serverVersion === undefined) serverVersion = found;
    else if (found.info.gitVersion !== serverVersion.info.gitVersion)
      warnings.push(
        `${origin}: records server version ${found.info.gitVersion}, ${serverVersion.origin} ${serverVersion.info.gitVersion}; using the first`,
      );
  };
  const scale = opts.replicaScale ?? 1;
  for (const input of [...inputs, ...(opts.additionalInputs ?? [])]) {
    // One input is read to its end before its objects are checked: its parse errors come first.
    let parsed: RawObject[];
    try {
      parsed = opts.parsedInputs
        ? opts.parsedInputs.read(input, errors, { budget, onListMetadata })
        : [...readObjects(input, errors, { budget, onListMetadata })];
    } catch (e) {
      if (!(e instanceof InputSizeLimitError)) throw e;
      throw new SnapshotLoadError([...errors, e.message], { input: e.input, limit: e.limit });
    }
    if (parsed.length === 0 && errors.length === 0)
      warnings.push(`${input.name}: no Kubernetes objects in this input`);
    for (const { obj: raw, origin } of parsed) {
      const where = `${origin} (${describeObject(raw)})`;
      let obj = raw;
      if ((resourceKinds as readonly unknown[]).includes(raw.kind)) {
        // resource.k8s.io objects of any served version are read as v1, as the API server does.
        const converted = convertResourceObjectToV1(
          raw.apiVersion === undefined ? { ...raw, apiVersion: ResourceAPIVersion } : raw,
        );
        if ("error" in converted) {
          errors.push(`${where}: ${converted.error}`);
          continue;
        }
        obj = converted.obj;
      }
      const kind = obj.kind;
      if (typeof kind !== "string" || kind === "") {
        errors.push(`${origin}: kind: Required value`);
        continue;
      }
      if (workloadKinds.has(kind) && kind !== "ReplicaSet" && kind !== "StatefulSet") {
        const md = isJsonObject(obj.metadata) ? obj.metadata : {};
        if (typeof md.name !== "string" || md.name === "") {
          errors.push(`${where}: metadata.name: Required value`);
          continue;
        }
        if (!validWorkload(obj, where, problems)) continue;
        workloads.push({
          at: objects.length,
          kind: kind as WorkloadKind,
          obj: scaleWorkload(kind as WorkloadKind, obj, scale),
          origin,
        });
        continue;
      }
      const admission = admissionKinds.has(kind);
      const custom = isSupportedKind(kind) || admission ? undefined : customByKind.get(kind);
      if (!custom && !admission && !isSupportedKind(kind)) {
        warnings.push(`${origin}: kind ${kind} is not used by the scheduler; skipped`);
        continue;
      }
      const before = errors.length;
      if (custom) validateCustomObject(custom, obj, where, errors);
      else if (admission) validateAdmissionObject(kind as AdmissionKind, obj, where, problems);
      else validateObject(kind as SupportedKind, obj, where, problems);
      if (errors.length > before) continue;
      const md = obj.metadata as Json;
      const namespaced = custom ? custom.namespaced : admission || namespacedKinds.has(kind);
      const ns = namespaced ? (typeof md.namespace === "string" && md.namespace) || "default" : undefined;
      const namespacedObj = ns !== undefined ? { ...obj, metadata: { ...md, namespace: ns } } : obj;
      const o = (
        kind === "ReplicaSet" || kind === "StatefulSet"
          ? scaleWorkload(kind, namespacedObj, scale)
          : namespacedObj
      ) as K8sObject;
      const key = `${kind}/${ns ?? ""}/${md.name as string}`;
      const first = seen.get(key);
      if (first) {
        errors.push(
          `${where}: duplicate ${kind} ${ns ? `${ns}/` : ""}${md.name as string} (first defined in ${first})`,
        );
        continue;
      }
      seen.set(key, origin);
      objects.push(
        custom
          ? { kind, obj: o, origin, resource: custom }
          : admission
            ? { kind: kind as AdmissionKind, obj: o, origin }
            : { kind: kind as SupportedKind, obj: o, origin },
      );
      if ((kind === "ReplicaSet" || kind === "StatefulSet") && validWorkload(obj, where, problems)) {
        workloads.push({ at: objects.length, kind, obj: o as Json, origin });
      }
    }
  }
  warnings.push(
    ...namespaceWarnings(objects, workloads),
    ...deviceClassWarnings(objects),
    ...draWarnings(objects),
  );
  if (errors.length) throw new SnapshotLoadError(errors);
  const refusedPods: RefusedPod[] = [];
  return {
    objects: expandWorkloads(objects, workloads, seen, errors, warnings, refusedPods),
    warnings,
    refusedPods,
    ...(serverVersion ? { serverVersion } : {}),
  };
}

/** Objects in namespaces a snapshot with Namespace objects lacks (object-validation.ts). */
function namespaceWarnings(
  objects: readonly SourcedObject[],
  workloads: readonly { kind: WorkloadKind; obj: Json; origin: string }[],
): string[] {
  const namespaces = new Set<string>();
  for (const o of objects) if (o.kind === "Namespace") namespaces.add(o.obj.metadata?.name ?? "");
  if (namespaces.size === 0) return [];
  const namespaced = [
    ...objects.filter((o) => (o.resource ? o.resource.namespaced : namespacedKinds.has(o.kind))),
    // ReplicaSets and StatefulSets are among the objects, the other workloads are not.
    ...workloads.filter((w) => w.kind !== "ReplicaSet" && w.kind !== "StatefulSet"),
  ];
  return missingNamespaces(
    namespaces,
    namespaced.map((o) => ({ obj: o.obj, where: `${o.origin} (${describeObject(o.obj as Json)})` })),
  );
}

/** Requests of claims and templates naming a DeviceClass the snapshot lacks (resource-validation.ts). */
function deviceClassWarnings(objects: readonly SourcedObject[]): string[] {
  const classes = new Set<string>();
  for (const o of objects) if (o.kind === "DeviceClass") classes.add(o.obj.metadata?.name ?? "");
  return missingDeviceClasses(
    classes,
    objects
      .filter((o) => o.kind === "ResourceClaim" || o.kind === "ResourceClaimTemplate")
      .map((o) => ({
        obj: o.obj as { spec?: unknown },
        kind: o.kind,
        where: `${o.origin} (${describeObject(o.obj as Json)})`,
      })),
  );
}

/**
 * What the API server takes but the allocator cannot use (resource-validation.ts): CEL selectors
 * that do not compile, device names published twice in one pool, allocations naming devices no
 * slice publishes.
 */
function draWarnings(objects: readonly SourcedObject[]): string[] {
  const named = (kinds: readonly string[]): NamedObject[] =>
    objects
      .filter((o) => kinds.includes(o.kind))
      .map((o) => ({
        obj: o.obj as NamedObject["obj"],
        kind: o.kind,
        where: `${o.origin} (${describeObject(o.obj as Json)})`,
      }));
  const slices = named(["ResourceSlice"]);
  if (
    slices.length === 0 &&
    !objects.some(
      (o) => o.kind === "DeviceClass" || o.kind === "ResourceClaim" || o.kind === "ResourceClaimTemplate",
    )
  )
    return [];
  // Expressions stored in objects compile in the newest environment (StoredExpressions).
  const compiler = getCompiler({ enableConsumableCapacity: true, enableListTypeAttributes: true });
  const compiled = new Map<string, string | null>();
  const compile = (expression: string): string | null => {
    let error = compiled.get(expression);
    if (error === undefined) {
      error =
        compiler.compileCELExpression(expression, { disableCostEstimation: true }).error?.detail ?? null;
      compiled.set(expression, error);
    }
    return error;
  };
  return [
    ...uncompilableSelectors(named(["DeviceClass", "ResourceClaim", "ResourceClaimTemplate"]), compile),
    ...duplicateDevicesInPools(slices),
    ...allocatedDevicesNotFound(named(["ResourceClaim"]), slices),
  ];
}

/**
 * Inserts the objects each workload's controller would create after the workload, in input
 * order: pods (and a Deployment's ReplicaSet, a StatefulSet's claims) that are missing.
 */
function expandWorkloads(
  objects: SourcedObject[],
  workloads: readonly { at: number; kind: WorkloadKind; obj: Json; origin: string }[],
  seen: Map<string, string>,
  errors: string[],
  warnings: string[],
  refusedPods: RefusedPod[],
): SourcedObject[] {
  if (workloads.length === 0) return objects;
  const pods = objects.filter((o) => o.kind === "Pod").map((o) => o.obj as Pod);
  const nodes = objects.filter((o) => o.kind === "Node").map((o) => o.obj as Node);
  const replicaSets = objects.filter((o) => o.kind === "ReplicaSet").map((o) => o.obj as Json);
  const claims = new Set(
    objects
      .filter((o) => o.kind === "PersistentVolumeClaim")
      .map((o) => `${o.obj.metadata?.namespace ?? "default"}/${o.obj.metadata?.name ?? ""}`),
  );
  const out: SourcedObject[] = [];
  const admission = createdObjectAdmission(objects, pods);
  let next = 0;
  for (const w of workloads) {
    while (next < w.at) out.push(objects[next++] as SourcedObject);
    const md = w.obj.metadata as Json;
    const ns = (typeof md.namespace === "string" && md.namespace) || "default";
    const workload = { ...w.obj, metadata: { ...md, namespace: ns } };
    let claimRefused: string | null = null;
    for (const e of expandWorkload(w.kind, workload, { pods, replicaSets, nodes, claims })) {
      const emd = e.obj.metadata as Json;
      const key = `${e.kind}/${ns}/${String(emd.name)}`;
      const origin = `${w.origin} (${w.kind} ${ns}/${String(md.name)})`;
      const first = seen.get(key);
      if (first) {
        errors.push(
          `${origin}: would create ${e.kind} ${ns}/${String(emd.name)}, already defined in ${first}`,
        );
        continue;
      }
      // The API server's admission of what the controller creates: a refused object is not
      // created (the controller's FailedCreate), nor is a StatefulSet pod whose claim was refused.
      let obj = e.obj as K8sObject;
      if (e.kind === "PersistentVolumeClaim") {
        const refused = admission.limitRanges.admitClaim(obj);
        if (refused) {
          warnings.push(`${origin}: ${refused}`);
          claimRefused = refused;
          continue;
        }
      } else if (e.kind === "Pod") {
        const refuse = (message: string) =>
          refusedPods.push({ namespace: ns, name: String(emd.name), origin, message });
        if (claimRefused !== null) {
          refuse(claimRefused);
          claimRefused = null;
          continue;
        }
        const admitted = admitCreatedPod(admission, obj as Pod);
        if ("error" in admitted) {
          warnings.push(`${origin}: ${admitted.error}`);
          refuse(admitted.error);
          continue;
        }
        obj = admitted.pod as K8sObject;
      }
      seen.set(key, origin);
      out.push({ kind: e.kind, obj, origin });
    }
  }
  while (next < objects.length) out.push(objects[next++] as SourcedObject);
  if (errors.length) throw new SnapshotLoadError(errors);
  return out;
}

/**
 * Reads files and directories (every *.yaml, *.yml, *.json in it, sorted) and loads them. A file
 * is read in chunks (a FIFO or a device too), up to `maxInputBytes` over all of them.
 */
export function loadSnapshotFiles(
  paths: readonly string[],
  cwd = process.cwd(),
  opts: LoadOptions = {},
): LoadResult {
  const files: SnapshotInput[] = [];
  const errors: string[] = [];
  for (const p of paths) {
    const abs = path.resolve(cwd, p);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(abs);
    } catch {
      errors.push(`${p}: no such file or directory`);
      continue;
    }
    const names = stat.isDirectory()
      ? fs
          .readdirSync(abs)
          .filter((n) => /\.(ya?ml|json)$/.test(n))
          .sort()
          .map((n) => path.join(p, n))
      : [p];
    for (const n of names) files.push({ name: n, path: path.resolve(cwd, n) });
  }
  if (errors.length) throw new SnapshotLoadError(errors);
  // The texts are in memory already: no input size limit unless one is given.
  return loadInputs(files, { maxInputBytes: Number.POSITIVE_INFINITY, ...opts });
}
