// ListFollower keeps what it was handed equal to the informer cache's objects, however it is
// followed: through the cache's change feed (read from the last change seen), through a feed that
// dropped the changes it was behind on (it starts over from the listing), or through listings
// alone; an update reaches it as the old object removed and the new one added, and nothing is
// removed that was not added. Sequences are fast-check's.
import type { ChangeFeed } from "@kubesched/framework";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ListedObject, ListFollower } from "./sync-list";

interface Obj extends ListedObject {
  v: number;
}

/** An informer cache with a change feed keeping the last `kept` changes (ObjectStore's contract). */
class FeedStore implements ChangeFeed<Obj> {
  readonly items = new Map<string, Obj>();
  private log: [Obj | undefined, Obj | undefined][] = [];
  private base = 0;
  private listing: Obj[] | null = null;
  constructor(private readonly kept: number) {}

  set(o: Obj): void {
    const k = `${o.metadata?.namespace}/${o.metadata?.name}`;
    this.record(this.items.get(k), o);
    this.items.set(k, o);
  }
  delete(k: string): void {
    const old = this.items.get(k);
    if (old === undefined) return;
    this.items.delete(k);
    this.record(old, undefined);
  }
  private record(old: Obj | undefined, cur: Obj | undefined): void {
    this.listing = null;
    this.log.push([old, cur]);
    if (this.log.length > this.kept) {
      const drop = this.log.length - this.kept;
      this.log.splice(0, drop);
      this.base += drop;
    }
  }
  list(): readonly Obj[] {
    this.listing ??= [...this.items.values()];
    return this.listing;
  }
  changeCursor(): number {
    return this.base + this.log.length;
  }
  changesSince(cursor: number, visit: (old: Obj | undefined, cur: Obj | undefined) => void): boolean {
    if (cursor < this.base || cursor > this.changeCursor()) return false;
    for (const [old, cur] of this.log.slice(cursor - this.base)) visit(old, cur);
    return true;
  }
}

const opArb = fc.oneof(
  fc.record({
    op: fc.constant("set" as const),
    name: fc.integer({ min: 0, max: 6 }),
    ns: fc.constantFrom("a", "b"),
  }),
  fc.record({
    op: fc.constant("delete" as const),
    name: fc.integer({ min: 0, max: 6 }),
    ns: fc.constantFrom("a", "b"),
  }),
  fc.record({
    op: fc.constant("follow" as const),
    how: fc.constantFrom("feed", "feed", "listing", "lister without feed"),
  }),
);

describe("ListFollower", () => {
  it("holds the cache's objects after any changes, followed by feed, by listing or both", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(opArb, { maxLength: 60 }), (kept, ops) => {
        const store = new FeedStore(kept);
        const held = new Map<string, Obj>();
        const key = (o: Obj) => `${o.metadata?.namespace}/${o.metadata?.name}`;
        const follower = new ListFollower<Obj>(
          (o) => {
            // Only what was added is removed, the very object.
            expect(held.get(key(o))).toBe(o);
            held.delete(key(o));
          },
          (o) => {
            expect(held.has(key(o))).toBe(false);
            held.set(key(o), o);
          },
        );
        let v = 0;
        for (const op of ops) {
          if (op.op === "set") store.set({ metadata: { name: `o${op.name}`, namespace: op.ns }, v: ++v });
          else if (op.op === "delete") store.delete(`${op.ns}/o${op.name}`);
          else {
            const before = new Map(held);
            const changed = follower.follow(
              op.how === "feed" ? store : op.how === "listing" ? store.list() : { list: () => store.list() },
            );
            expect([...held.entries()].sort()).toEqual([...store.items.entries()].sort());
            const same = before.size === held.size && [...before].every(([k, o]) => held.get(k) === o);
            // "Nothing changed" is never wrong (changes that cancel out may still say "changed").
            if (!changed) expect(same).toBe(true);
            if (!same) expect(changed).toBe(true);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
