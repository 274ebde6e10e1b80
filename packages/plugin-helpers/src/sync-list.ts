// kubesched's own: follows an informer cache from one cycle to the next, through its change feed
// or by comparing listings, without a pass over the objects' contents (upstream keeps such state
// up to date from informer events).
import { type ChangeFeed, type ClusterScopedLister, changeFeedOf } from "@kubesched/framework";

/** The objects a {@link ListFollower} follows: informer objects (replaced, never changed in place). */
export interface ListedObject {
  metadata?: { name?: string; namespace?: string };
}

/** What a {@link ListFollower} follows: a listing, or an informer cache (with its change feed when it has one). */
export type FollowedSource<T> = readonly T[] | { list(): readonly T[] };

/**
 * Follows one informer cache from call to call, passing what changed since the call before to
 * `remove` and `add` (an update: the old object removed, the new one added). A cache with a
 * change feed (framework ChangeFeed: the in-memory cluster's and the informers') is read from
 * the last change seen: O(changes). Otherwise, or when the feed no longer holds those changes, its
 * listing is compared with the objects held (O(objects)); the same array again costs nothing.
 */
export class ListFollower<T extends ListedObject> {
  /** The objects added and not removed (informer objects are replaced, never changed in place). */
  readonly #held = new Set<T>();
  #feed: ChangeFeed<T> | undefined;
  #cursor = 0;
  #last: readonly T[] | undefined;
  #changed = false;
  readonly #visit = (old: T | undefined, cur: T | undefined): void => {
    if (old !== undefined) this.#remove(old);
    if (cur !== undefined) this.#add(cur);
  };

  constructor(
    private readonly remove: (o: T) => void,
    private readonly add: (o: T) => void,
  ) {}

  /**
   * Brings the followed state up to `source`. False when nothing was removed or added; true when
   * something was (changes that cancel out, an object added and deleted again, may say true).
   */
  follow(source: FollowedSource<T>): boolean {
    this.#changed = false;
    if (isListing(source)) {
      this.#feed = undefined;
      if (source !== this.#last) this.#resync(source);
      return this.#changed;
    }
    const feed = changeFeedOf(source as ClusterScopedLister<T>);
    if (feed !== undefined && feed === this.#feed) {
      const cursor = feed.changeCursor();
      if (cursor === this.#cursor) return false;
      if (feed.changesSince(this.#cursor, this.#visit)) {
        this.#cursor = cursor;
        // The held objects no longer are the last listing's.
        this.#last = undefined;
        return this.#changed;
      }
    }
    // A new source, or one without (or beyond) its feed: from its listing.
    this.#feed = feed;
    if (feed !== undefined) this.#cursor = feed.changeCursor();
    const list = source.list();
    if (list !== this.#last || feed !== undefined) this.#resync(list);
    return this.#changed;
  }

  /** The objects held and not listed are removed, then the listed ones not held are added. */
  #resync(list: readonly T[]): void {
    this.#last = list;
    const listed = new Set(list);
    for (const h of this.#held) if (!listed.has(h)) this.#remove(h);
    for (const o of listed) if (!this.#held.has(o)) this.#add(o);
  }

  #remove(o: T): void {
    this.#changed = true;
    this.#held.delete(o);
    this.remove(o);
  }

  #add(o: T): void {
    this.#changed = true;
    this.#held.add(o);
    this.add(o);
  }
}

function isListing<T>(source: FollowedSource<T>): source is readonly T[] {
  return Array.isArray(source);
}
