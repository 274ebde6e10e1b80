import { describe, expect, it } from "vitest";
import {
  as,
  asNode,
  asPod,
  CSINodeKind,
  hintObjectKind,
  NodeKind,
  PersistentVolumeClaimKind,
  PodKind,
} from "./hint-objects";

describe("as (upstream util.As)", () => {
  const pod = { metadata: { name: "p" }, spec: { containers: [] } };
  const node = { kind: "Node", metadata: { name: "n" } };

  it("returns both objects typed, undefined for a missing one", () => {
    expect(as(undefined, pod, PodKind)).toEqual([undefined, pod]);
    expect(as(pod, null, PodKind)).toEqual([pod, undefined]);
    expect(as(node, node, NodeKind)).toEqual([node, node]);
  });

  it("throws naming the expected type when newObj is of another type", () => {
    expect(() => as(pod, node, PodKind)).toThrow("expected *v1.Pod, but got Node");
    expect(() => as(undefined, "x", NodeKind)).toThrow("expected *v1.Node, but got string");
  });

  it("checks newObj before oldObj, as upstream", () => {
    expect(() => as([], 1, PodKind)).toThrow("expected *v1.Pod, but got number");
    expect(() => as([], pod, PodKind)).toThrow("expected *v1.Pod, but got array");
  });

  it("converts single objects", () => {
    expect(asPod(pod)).toBe(pod);
    expect(asPod(undefined)).toBeUndefined();
    expect(asNode(node)).toBe(node);
    expect(() => asNode({ kind: "Pod" })).toThrow("expected *v1.Node, but got Pod");
  });
});

describe("hintObjectKind", () => {
  it("recognises objects of its kind, and objects without a kind", () => {
    const pvcKind = hintObjectKind<{ kind?: string }>("*v1.PersistentVolumeClaim", "PersistentVolumeClaim");
    expect(as(undefined, { kind: "PersistentVolumeClaim" }, pvcKind)[1]).toEqual({
      kind: "PersistentVolumeClaim",
    });
    expect(as(undefined, {}, pvcKind)[1]).toEqual({});
    expect(() => as(undefined, { kind: "Pod" }, pvcKind)).toThrow(
      "expected *v1.PersistentVolumeClaim, but got Pod",
    );
  });
});

describe("the volume plugins' kinds", () => {
  it("PersistentVolumeClaimKind and CSINodeKind name upstream's Go types", () => {
    const pvc = { kind: "PersistentVolumeClaim", metadata: { name: "c" } };
    const csiNode = { kind: "CSINode", metadata: { name: "n" } };
    expect(as(undefined, pvc, PersistentVolumeClaimKind)).toEqual([undefined, pvc]);
    expect(as(csiNode, csiNode, CSINodeKind)).toEqual([csiNode, csiNode]);
    expect(() => as(undefined, csiNode, PersistentVolumeClaimKind)).toThrow(
      "expected *v1.PersistentVolumeClaim, but got CSINode",
    );
    expect(() => as(undefined, pvc, CSINodeKind)).toThrow(
      "expected *storagev1.CSINode, but got PersistentVolumeClaim",
    );
  });
});
