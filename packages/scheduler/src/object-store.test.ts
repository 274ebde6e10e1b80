// The store's indexes (client-go cache.Indexers / ByIndex): kept as objects are set, replaced and
// removed, built over the objects already stored, answered in the store's order.
import { describe, expect, it } from "vitest";
import { type KubeObject, ObjectStore } from "./object-store";

const obj = (name: string, ...owners: string[]): KubeObject => ({
  metadata: {
    name,
    namespace: "ns",
    ownerReferences: owners.map((uid) => ({ apiVersion: "v1", kind: "Pod", name: uid, uid })),
  },
});
const owners = (o: KubeObject) => (o.metadata?.ownerReferences ?? []).map((r) => r.uid);
const names = (os: KubeObject[]) => os.map((o) => o.metadata?.name);

describe("ObjectStore indexes", () => {
  it("find objects by value as they are set, replaced and removed, in the store's order", () => {
    const s = new ObjectStore<KubeObject>(true);
    s.set(obj("a", "p1"));
    s.set(obj("b", "p2"));
    s.ensureIndex("owner", owners);
    s.ensureIndex("owner", () => ["ignored: the index exists"]);
    expect(names(s.byIndex("owner", "p1"))).toEqual(["a"]);
    s.set(obj("c", "p1", "p2"));
    expect(names(s.byIndex("owner", "p1"))).toEqual(["a", "c"]);
    // Replaced in place: keeps its place, leaves p2's entry... and b's place stays before c.
    s.set(obj("b", "p1"));
    expect(names(s.byIndex("owner", "p1"))).toEqual(["a", "b", "c"]);
    expect(names(s.byIndex("owner", "p2"))).toEqual(["c"]);
    // Removed and added again: last, as the store lists it.
    s.removeKey("ns/a");
    s.set(obj("a", "p1"));
    expect(names(s.byIndex("owner", "p1"))).toEqual(["b", "c", "a"]);
    expect(names(s.byIndex("owner", "p1"))).toEqual(names(s.list().filter((o) => owners(o).includes("p1"))));
    expect(s.byIndex("owner", "p9")).toEqual([]);
    expect(() => s.byIndex("nope", "p1")).toThrow("object store: no index nope");
  });
});
