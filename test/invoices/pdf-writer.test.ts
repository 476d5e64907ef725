import { describe, expect, it } from 'vitest';
import { documentPdf, type DocumentView } from '../../apps/server/src/invoices/documents.ts';
import { textWidth, wrap } from '../../apps/server/src/invoices/pdf.ts';
import { largestInvoiceView, spacedInvoiceView } from './largest.ts';

/** The middle of three timings of rendering `view`, after one to warm up. */
function renderMs(view: DocumentView): number {
  documentPdf('invoice', view, 'en');
  const times = [0, 1, 2].map(() => {
    const started = performance.now();
    documentPdf('invoice', view, 'en');
    return performance.now() - started;
  });
  return times.sort((a, b) => a - b)[1]!;
}

describe('the PDF writer', () => {
  it('breaks text at spaces, each line within the width', () => {
    const lines = wrap('Ushauri wa biashara kwa saa mbili na mafunzo ya wafanyakazi wote', 10, 120);
    expect(lines.join(' ')).toBe('Ushauri wa biashara kwa saa mbili na mafunzo ya wafanyakazi wote');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(textWidth(line, 10)).toBeLessThanOrEqual(120);
  });

  it('cuts a word too wide into the longest pieces that fit, keeping every character', () => {
    const word = 'W'.repeat(60);
    const lines = wrap(`kwa ${word} sasa`, 10, 100);
    expect(lines.join('')).toBe(`kwa${word}sasa`);
    for (const line of lines) expect(textWidth(line, 10)).toBeLessThanOrEqual(100);
    // Longest: one more W would not fit.
    expect(textWidth(`${lines[1]!}W`, 10)).toBeGreaterThan(100);
    expect(wrap('', 10, 100)).toEqual(['']);
  });

  it('costs no more for unbroken words than for words it breaks at spaces', () => {
    // The same amount of text either way; the PDF is linear in it. Cutting long words by
    // remeasuring ever shorter prefixes made the unbroken invoice 70 to 200 times slower
    // (3 to 6 s of event loop on a quiet machine).
    const spaced = renderMs(spacedInvoiceView());
    const unbroken = renderMs(largestInvoiceView());
    expect(unbroken / spaced).toBeLessThan(5);
  });
});
