// kubesched's own: follows an informer's listing from one cycle to the next without a full pass
// over the objects' contents (upstream keeps such state up to date from informer events).

/** What {@link syncList} reads of an object: its namespace and name. */
export interface ListedObject {
  metadata?: { name?: string; namespace?: string };
}

/**
 * Walks from an informer's previous listing to its current one in one pass, calling `remove` for
 * each object gone or replaced and `add` for each new or replacing one. A lister hands out the
 * same array while nothing changed, and the in-memory cluster's (and an informer's) order keeps an
 * updated object in its place, drops a deleted one and appends new ones, so that pass finds each
 * change; any order still ends right (what it cannot pair is removed and added again, always
 * removed before it is added back). Objects are compared by identity (informer objects are
 * replaced, never changed in place).
 */
export function syncList<T extends ListedObject>(
  prev: readonly T[],
  list: readonly T[],
  remove: (o: T) => void,
  add: (o: T) => void,
): void {
  let i = 0;
  let j = 0;
  while (i < prev.length && j < list.length) {
    const before = prev[i] as T;
    const after = list[j] as T;
    if (before === after) {
      i++;
      j++;
    } else if (
      before.metadata?.name === after.metadata?.name &&
      before.metadata?.namespace === after.metadata?.namespace
    ) {
      // Updated in place.
      remove(before);
      add(after);
      i++;
      j++;
    } else {
      // Deleted (or moved: added again below).
      remove(before);
      i++;
    }
  }
  for (; i < prev.length; i++) remove(prev[i] as T);
  for (; j < list.length; j++) add(list[j] as T);
}

/**
 * Follows one informer's listing from call to call: {@link follow} passes what changed since the
 * listing it saw last to `remove` and `add` ({@link syncList}); the same array again costs nothing.
 */
export class ListFollower<T extends ListedObject> {
  #last: readonly T[] = [];

  constructor(
    private readonly remove: (o: T) => void,
    private readonly add: (o: T) => void,
  ) {}

  follow(list: readonly T[]): void {
    if (list === this.#last) return;
    syncList(this.#last, list, this.remove, this.add);
    this.#last = list;
  }
}
