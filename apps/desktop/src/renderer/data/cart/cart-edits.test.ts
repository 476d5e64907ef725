import { describe, expect, it } from 'vitest';
import type { CartLine } from '../api.ts';
import { PendingEdits } from './cart-edits.ts';
import type { KeptCart } from './cart-edits.ts';
import { EMPTY_CART } from './order-mapping.ts';

const line = (key: string) => ({ key }) as unknown as CartLine;
const addLine = (key: string) => (cart: KeptCart) => ({ ...cart, lines: [...cart.lines, line(key)] });
const keys = (cart: KeptCart) => cart.lines.map((one) => one.key);
const fine = () => undefined;

describe('cart edits shown before their write lands', () => {
  it('shows an edit on top of the stored cart until the stored cart has it, then exactly once', () => {
    const edits = new PendingEdits();
    const a = edits.start('edit_a', addLine('a'));
    edits.stored();
    expect(keys(edits.shown(EMPTY_CART, fine))).toEqual(['a']);
    // The write lands: the stored cart lists the edit, which is not applied again.
    const stored = a.apply(EMPTY_CART);
    edits.written(a);
    edits.stored();
    expect(keys(edits.shown(stored, fine))).toEqual(['a']);
    expect(stored.edits).toEqual(['edit_a']);
  });

  it('keeps an edit written before a stored cart that predates it, and drops a failed one', () => {
    const edits = new PendingEdits();
    const a = edits.start('edit_a', addLine('a'));
    const b = edits.start('edit_b', addLine('b'));
    edits.stored();
    // An older stored cart arrives after the edits started: both still show, in order.
    expect(keys(edits.shown(EMPTY_CART, fine))).toEqual(['a', 'b']);
    edits.failed(b);
    expect(keys(edits.shown(EMPTY_CART, fine))).toEqual(['a']);
    edits.written(a);
    // The next stored cart after the write no longer lists it (the sale cleared the cart): it is gone.
    edits.stored();
    expect(keys(edits.shown(EMPTY_CART, fine))).toEqual([]);
  });

  it('leaves out an edit that would not price, as its write is refused', () => {
    const edits = new PendingEdits();
    edits.start('edit_a', addLine('a'));
    edits.start('edit_bad', addLine('bad'));
    edits.stored();
    const check = (cart: KeptCart) => {
      if (keys(cart).includes('bad')) throw new Error('does not price');
    };
    expect(keys(edits.shown(EMPTY_CART, check))).toEqual(['a']);
  });

  it('applies an edit the cart already lists as nothing: a replayed write never counts twice', () => {
    const edits = new PendingEdits();
    const a = edits.start('edit_a', addLine('a'));
    const once = a.apply(EMPTY_CART);
    expect(a.apply(once)).toBe(once);
    expect(keys(a.apply(once))).toEqual(['a']);
  });
});
