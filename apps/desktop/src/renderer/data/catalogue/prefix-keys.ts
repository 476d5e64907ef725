/**
 * Keys (a name, a SKU, a barcode) and the ids of the documents that carry
 * them, sorted, for prefix search by binary search. Keys compare by UTF-16
 * code unit, as IndexedDB orders strings, then by id.
 *
 * A key added waits in an unsorted list until it is merged in (when the
 * owner asks, or at a lookup once there are very many): inserting each of a
 * first sync's 100,000 keys into a sorted array would move the array each
 * time. A key a document no longer carries is not taken out: an entry only
 * says where to look, the caller checks the document as it is now, and the
 * entries that fail are dropped at a merge once there are enough of them.
 */

/**
 * Merged at a lookup past this many waiting keys; below it a lookup scans them
 * (a scan of 50,000 takes a millisecond or two, sorting them in a few hundred)
 * and sorts only the matches.
 */
const SCAN_AT_MOST = 50_000;

const before = (keyA: string, idA: string, keyB: string, idB: string) =>
  keyA < keyB || (keyA === keyB && idA < idB);

export class PrefixKeys {
  private keys: string[] = [];
  private ids: string[] = [];
  private waitingKeys: string[] = [];
  private waitingIds: string[] = [];
  private outdated = 0;

  /** `current` says whether the document `id` still carries `key`. */
  constructor(private readonly current: (key: string, id: string) => boolean) {}

  add(key: string, id: string): void {
    if (key === '') return;
    this.waitingKeys.push(key);
    this.waitingIds.push(id);
  }

  /** `count` entries no longer hold (their document changed or went). */
  forget(count = 1): void {
    this.outdated += count;
  }

  get waiting(): number {
    return this.waitingKeys.length;
  }

  /**
   * The entries whose key starts with `prefix`, in key order, as [key, id]; an id may come more
   * than once, and the caller keeps an entry only if its document still carries that exact key.
   */
  *matching(prefix: string): Generator<[string, string]> {
    if (this.waitingKeys.length > SCAN_AT_MOST) this.merge();
    const extraKeys: string[] = [];
    const extraIds: string[] = [];
    const order: number[] = [];
    for (let i = 0; i < this.waitingKeys.length; i++) {
      if (this.waitingKeys[i]!.startsWith(prefix)) {
        order.push(extraKeys.length);
        extraKeys.push(this.waitingKeys[i]!);
        extraIds.push(this.waitingIds[i]!);
      }
    }
    order.sort((a, b) => (before(extraKeys[a]!, extraIds[a]!, extraKeys[b]!, extraIds[b]!) ? -1 : 1));
    // Snapshots: a merge while the caller holds the generator must not shift what it walks.
    const keys = this.keys;
    const ids = this.ids;
    let i = this.lowerBound(prefix);
    let j = 0;
    while (true) {
      const inSorted = i < keys.length && keys[i]!.startsWith(prefix);
      const inExtra = j < order.length;
      if (!inSorted && !inExtra) return;
      const k = order[j]!;
      if (inSorted && (!inExtra || before(keys[i]!, ids[i]!, extraKeys[k]!, extraIds[k]!))) {
        yield [keys[i]!, ids[i]!];
        i++;
      } else {
        yield [extraKeys[k]!, extraIds[k]!];
        j++;
      }
    }
  }

  /** Sorts the waiting keys into the rest, dropping outdated entries when they are many. */
  merge(): void {
    const count = this.waitingKeys.length;
    const prune = this.outdated > 0 && this.outdated * 8 >= this.keys.length + count;
    if (count === 0 && !prune) return;
    const wk = this.waitingKeys;
    const wi = this.waitingIds;
    const order = Array.from({ length: count }, (_, i) => i);
    order.sort((a, b) => (before(wk[a]!, wi[a]!, wk[b]!, wi[b]!) ? -1 : 1));
    // Each waiting key is placed by binary search and the sorted runs between are copied
    // without comparing them: comparing 100,000 names that share long prefixes is the cost.
    const size = this.keys.length + count;
    const keys = new Array<string>(size);
    const ids = new Array<string>(size);
    let from = 0;
    let to = 0;
    for (const w of order) {
      const at = this.position(wk[w]!, wi[w]!, from);
      for (; from < at; from++, to++) {
        keys[to] = this.keys[from]!;
        ids[to] = this.ids[from]!;
      }
      keys[to] = wk[w]!;
      ids[to++] = wi[w]!;
    }
    for (; from < this.keys.length; from++, to++) {
      keys[to] = this.keys[from]!;
      ids[to] = this.ids[from]!;
    }
    this.keys = keys;
    this.ids = ids;
    this.waitingKeys = [];
    this.waitingIds = [];
    if (prune) {
      const kept = keys.map((key, i) => this.current(key, ids[i]!));
      this.keys = keys.filter((_, i) => kept[i]);
      this.ids = ids.filter((_, i) => kept[i]);
      this.outdated = 0;
    }
  }

  /** The first position at or after `from` whose entry does not come before (key, id). */
  private position(key: string, id: string, from: number): number {
    let low = from;
    let high = this.keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (before(this.keys[middle]!, this.ids[middle]!, key, id)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The first position whose key is not below `prefix`. */
  private lowerBound(prefix: string): number {
    let low = 0;
    let high = this.keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.keys[middle]! < prefix) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
