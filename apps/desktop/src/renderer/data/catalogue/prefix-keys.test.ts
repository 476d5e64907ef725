import { describe, expect, it } from 'vitest';
import { PrefixKeys } from './prefix-keys.ts';

/** A small seeded generator, so a failure can be run again. */
function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

const ids = (found: Iterable<[string, string]>) => [...found].map(([, id]) => id);

describe('prefix keys', () => {
  it('answers as a sorted scan of the current keys would, across adds, changes, merges and prunes', () => {
    const next = random(7);
    const current = new Map<string, string>(); // id → its one key
    const keys = new PrefixKeys((key, id) => current.get(id) === key);
    const word = () =>
      Array.from({ length: 1 + Math.floor(next() * 4) }, () => 'abcé'[Math.floor(next() * 4)]).join('');
    for (let step = 0; step < 3000; step++) {
      const id = `id${Math.floor(next() * 400)}`;
      const before = current.get(id);
      if (next() < 0.15) {
        if (before !== undefined) keys.forget();
        current.delete(id);
      } else {
        const key = word();
        if (key !== before) {
          if (before !== undefined) keys.forget();
          current.set(id, key);
          keys.add(key, id);
        }
      }
      if (next() < 0.05) keys.merge();
      if (step % 50 === 0) {
        const prefix = word().slice(0, 2);
        const expected = [...current]
          .filter(([, key]) => key.startsWith(prefix))
          .sort(([ia, ka], [ib, kb]) => (ka < kb || (ka === kb && ia < ib) ? -1 : 1))
          .map(([id]) => id);
        // An entry only says where to look: the caller keeps those that still hold, once each.
        const seen = new Set<string>();
        const found = [...keys.matching(prefix)]
          .filter(([key, id]) => {
            if (current.get(id) !== key || seen.has(id)) return false;
            seen.add(id);
            return true;
          })
          .map(([, id]) => id);
        expect(found).toEqual(expected);
      }
    }
    // Pruned at a merge: what is left is only what holds.
    keys.merge();
    expect([...keys.matching('')].filter(([key, id]) => current.get(id) === key).length).toBe(current.size);
  });

  it('orders keys by code unit, then id', () => {
    const keys = new PrefixKeys(() => true);
    for (const [key, id] of [
      ['sukari brown', 'p2'],
      ['sukari 1kg', 'p9'],
      ['sukari 1kg', 'p1'],
      ['sukari', 'p5'],
      ['Sukari', 'p6'],
    ] as const)
      keys.add(key, id);
    expect(ids(keys.matching('sukari'))).toEqual(['p5', 'p1', 'p9', 'p2']);
    keys.merge();
    keys.add('sukari 2kg', 'p0');
    expect(ids(keys.matching('sukari '))).toEqual(['p1', 'p9', 'p0', 'p2']);
    expect(ids(keys.matching('S'))).toEqual(['p6']);
    expect(ids(keys.matching('x'))).toEqual([]);
  });
});
