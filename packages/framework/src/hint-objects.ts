// upstream: pkg/scheduler/util/utils.go (As) — typing the objects a queueing hint receives.
import type { CSINode, Node, PersistentVolumeClaim, Pod } from "@kubesched/api";

/**
 * How to recognise one kind of object a cluster event carries.
 * @public
 */
export interface HintObjectKind<T> {
  /** Upstream's Go type name, used in errors ("*v1.Pod"). */
  readonly typeName: string;
  /** Whether `obj` (never null/undefined) is of this kind. */
  is(obj: unknown): obj is T;
}

/** A plain object (not an array) whose `kind`, when set, is `kind`. */
function objectOfKind(obj: unknown, kind: string): boolean {
  if (typeof obj !== "object" || obj === null || Array.isArray(obj)) return false;
  const k = (obj as { kind?: unknown }).kind;
  return k === undefined || k === kind;
}

function describe(obj: unknown): string {
  if (Array.isArray(obj)) return "array";
  if (typeof obj === "object" && obj !== null) {
    const k = (obj as { kind?: unknown }).kind;
    return typeof k === "string" ? k : "object";
  }
  return typeof obj;
}

/**
 * The kind of a Kubernetes object: a plain object whose `kind`, when set, is `kind`
 * (`hintObjectKind<PersistentVolumeClaim>("*v1.PersistentVolumeClaim", "PersistentVolumeClaim")`).
 * @public
 */
export function hintObjectKind<T>(typeName: string, kind: string): HintObjectKind<T> {
  return { typeName, is: (obj): obj is T => objectOfKind(obj, kind) };
}

/**
 * Pods, for {@link as}.
 * @public
 */
export const PodKind: HintObjectKind<Pod> = hintObjectKind<Pod>("*v1.Pod", "Pod");

/**
 * Nodes, for {@link as}.
 * @public
 */
export const NodeKind: HintObjectKind<Node> = hintObjectKind<Node>("*v1.Node", "Node");

/**
 * PersistentVolumeClaims, for {@link as} (the volume plugins' hints).
 * @public
 */
export const PersistentVolumeClaimKind: HintObjectKind<PersistentVolumeClaim> =
  hintObjectKind<PersistentVolumeClaim>("*v1.PersistentVolumeClaim", "PersistentVolumeClaim");

/**
 * CSINodes, for {@link as} (the volume plugins' hints).
 * @public
 */
export const CSINodeKind: HintObjectKind<CSINode> = hintObjectKind<CSINode>("*storagev1.CSINode", "CSINode");

function convert<T>(obj: unknown, kind: HintObjectKind<T>): T | undefined {
  if (obj === undefined || obj === null) return undefined;
  if (!kind.is(obj)) throw new TypeError(`expected ${kind.typeName}, but got ${describe(obj)}`);
  return obj;
}

/**
 * Upstream util.As: both objects of a queueing hint as `kind`; null/undefined stay undefined (an
 * add has no old object, a delete no new one). Throws a TypeError naming the expected type when
 * one is of another type — newObj is checked first, as upstream — and a hint that throws counts
 * as Queue. (Upstream also unwraps informer tombstones in oldObj; kubesched's event sources never
 * produce them.)
 * @public
 */
export function as<T>(
  oldObj: unknown,
  newObj: unknown,
  kind: HintObjectKind<T>,
): [oldTyped: T | undefined, newTyped: T | undefined] {
  const newTyped = convert(newObj, kind);
  const oldTyped = convert(oldObj, kind);
  return [oldTyped, newTyped];
}

/**
 * One hint object as a Pod; undefined for null/undefined; throws for another type.
 * @public
 */
export function asPod(obj: unknown): Pod | undefined {
  return convert(obj, PodKind);
}

/**
 * One hint object as a Node; undefined for null/undefined; throws for another type.
 * @public
 */
export function asNode(obj: unknown): Node | undefined {
  return convert(obj, NodeKind);
}
