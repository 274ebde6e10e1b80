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

describe("ObjectStore change feed", () => {
  const seen = (s: ObjectStore<KubeObject>, cursor: number): string[] | false => {
    const out: string[] = [];
    const ok = s.changesSince(cursor, (old, cur) =>
      out.push(`${old?.metadata?.name ?? "-"}>${cur?.metadata?.name ?? "-"}`),
    );
    return ok && out;
  };

  it("hands out the changes after a cursor, in order, from the first time it is asked", () => {
    const s = new ObjectStore<KubeObject>(true);
    s.set(obj("before"));
    // Nothing recorded before anyone asked: no replaced objects kept for nobody.
    expect(seen(s, 0)).toBe(false);
    const c0 = s.changeCursor();
    expect(seen(s, c0)).toEqual([]);
    s.set(obj("a"));
    s.set(obj("a", "p1"));
    s.removeKey("ns/before");
    s.removeKey("ns/none");
    expect(seen(s, c0)).toEqual(["->a", "a>a", "before>-"]);
    const c1 = s.changeCursor();
    expect(c1).toBe(c0 + 3);
    expect(seen(s, c1)).toEqual([]);
    expect(seen(s, c1 + 1)).toBe(false);
  });

  it("drops old changes as they pile up: a follower that far behind is told to list again", () => {
    const s = new ObjectStore<KubeObject>(true);
    const c0 = s.changeCursor();
    for (let i = 0; i < 5000; i++) s.set(obj(`o${i % 10}`));
    expect(seen(s, c0)).toBe(false);
    const recent = seen(s, s.changeCursor() - 1000) || [];
    expect(recent.length).toBe(1000);
    expect(recent[999]).toBe("o9>o9");
  });
});
