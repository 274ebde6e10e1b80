// The plugin's index of special claims for extended resources by owner finds what upstream's
// findExtendedResourceClaim finds scanning every claim (the oracle here), after random sequences
// of claim events: special claims created for a pod, their annotation dropped or set to another
// value, their controller owner changed (another pod, another uid, not a controller), moved to
// another namespace, deleted; plain claims beside them; the informer's order kept (as the
// in-memory cluster's store keeps it) and shuffled. Sequences are fast-check's.
import { ExtendedResourceClaimAnnotation, type Pod, type ResourceClaim } from "@kubesched/api";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ExtendedResourceClaimIndex } from "./extended-resource-claim-index";
import { findExtendedResourceClaim } from "./extended-resources";

const pods: Pod[] = [0, 1, 2].map((i) => ({
  metadata: { name: `pod-${i}`, namespace: i === 2 ? "other" : "ns", uid: `uid-${i}` },
}));

interface ClaimShape {
  /** Which pod owns it (index into pods), or a stranger. */
  owner: number;
  /** The owner reference's uid: the pod's, or one that does not match. */
  uidMatches: boolean;
  controller: boolean;
  annotation: "true" | "false" | null;
  namespace: "ns" | "other";
}

const shapeArb: fc.Arbitrary<ClaimShape> = fc.record({
  owner: fc.integer({ min: 0, max: 3 }),
  uidMatches: fc.boolean(),
  controller: fc.boolean(),
  annotation: fc.constantFrom<"true" | "false" | null>("true", "true", "false", null),
  namespace: fc.constantFrom<"ns" | "other">("ns", "ns", "other"),
});

function makeClaim(name: string, shape: ClaimShape, version: number): ResourceClaim {
  const pod = pods[shape.owner];
  const podName = pod?.metadata?.name ?? "stranger";
  const uid = shape.uidMatches ? (pod?.metadata?.uid ?? "uid-x") : "uid-other";
  return {
    metadata: {
      name,
      namespace: shape.namespace,
      uid: `${shape.namespace}/${name}/${version}`,
      resourceVersion: String(version),
      ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: podName, uid, controller: shape.controller }],
      ...(shape.annotation === null
        ? {}
        : { annotations: { [ExtendedResourceClaimAnnotation]: shape.annotation } }),
    },
    spec: {},
  };
}

const eventArb = fc.record({
  claim: fc.integer({ min: 0, max: 5 }),
  op: fc.constantFrom("set", "set", "delete"),
  shape: shapeArb,
  shuffle: fc.boolean(),
  seed: fc.integer({ min: 0, max: 1000 }),
});

describe("the plugin's index of special claims by owner", () => {
  it("finds what a scan of every claim finds, as claims are created, changed, moved and deleted", () => {
    fc.assert(
      fc.property(fc.array(eventArb, { minLength: 1, maxLength: 40 }), (events) => {
        let list: ResourceClaim[] = [];
        const index = new ExtendedResourceClaimIndex();
        let version = 0;
        for (const e of events) {
          const name = `claim-${e.claim}`;
          const at = list.findIndex((c) => c.metadata?.name === name);
          // A new array per change, as a lister hands out; an update keeps its place.
          if (e.op === "delete") {
            list = list.filter((_c, i) => i !== at);
          } else {
            const c = makeClaim(name, e.shape, ++version);
            list = at >= 0 ? list.map((old, i) => (i === at ? c : old)) : [...list, c];
          }
          if (e.shuffle) {
            const rotated = list.slice(e.seed % Math.max(list.length, 1));
            list = [...rotated, ...list.slice(0, list.length - rotated.length)];
          }
          for (const pod of pods) {
            const current = list;
            const lister = { list: () => current, get: () => undefined };
            expect(index.find(lister, pod)).toBe(findExtendedResourceClaim(pod, list));
          }
        }
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});
