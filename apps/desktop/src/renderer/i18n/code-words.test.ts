import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ORDER_FLAGS } from '@tz/core';
import { TILL_REFUSAL_CODES } from '../data/api.ts';
import { CODE_WORDS, ORDER_FLAG_WORDS, codeText, orderFlagsText, serverCodeText } from './code-words.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('the codes a cashier can meet, in words', () => {
  it('gives every code of core and of the till a sentence in Swahili and in English, never the code itself', () => {
    const codes = [...ERROR_CODES, ...TILL_REFUSAL_CODES];
    expect(new Set(codes).size, 'a till code that is also a core code').toBe(codes.length);
    for (const language of ['en', 'sw'] as const) {
      const words: Record<string, string | undefined> = CODE_WORDS[language];
      for (const code of codes) {
        const sentence = words[code];
        expect(Object.hasOwn(words, code) && sentence?.trim(), `${language} ${code}`).toBeTruthy();
        expect(sentence, `${language} ${code}`).toMatch(/^[A-Z{].*[.}]$/s);
        expect(sentence, `${language} ${code}`).not.toContain('_');
      }
      expect(Object.keys(words).sort(), `${language} words for no code`).toEqual([...codes].sort());
    }
    for (const code of codes) {
      expect(placeholders(CODE_WORDS.sw[code]), code).toEqual(placeholders(CODE_WORDS.en[code]));
    }
  });

  it('fills a sentence’s placeholders', () => {
    expect(codeText('en', 'unsynced_commands', { count: 3 })).toBe(
      'Not while 3 sales or changes are waiting to sync. Connect to the internet and wait for them.',
    );
    expect(codeText('sw', 'till_revoked')).toBe(
      'Kaunta hii imefutwa. Mauzo yake ambayo hayajatumwa yanabaki hapa.',
    );
  });

  it('says stock_short and its fellow flags as words, in Swahili as well', () => {
    for (const flag of ORDER_FLAGS) {
      expect(ORDER_FLAG_WORDS.en[flag]).not.toContain('_');
      expect(ORDER_FLAG_WORDS.sw[flag]).not.toContain('_');
    }
    expect(orderFlagsText('sw', ['stock_short', 'price_changed'])).toBe(
      'imeuzwa zaidi ya mzigo uliopo; imeuzwa kwa bei tofauti na ya orodha ya bidhaa',
    );
    expect(orderFlagsText('en', ['stock_short'])).toBe('sold more than the stock on hand');
  });

  it("falls back to the server's own words for a code a newer server sends", () => {
    expect(serverCodeText('sw', 'insufficient_funds', 'x')).toBe('Hakuna pesa za kutosha kwa hili.');
    expect(serverCodeText('sw', 'something_new', 'The server’s message')).toBe('The server’s message');
    expect(serverCodeText('en', 'toString', 'fallback')).toBe('fallback');
    // A till's own code is never the server's.
    expect(serverCodeText('en', 'pin_wrong', 'fallback')).toBe('fallback');
    expect(orderFlagsText('en', ['brand_new_flag'])).toBe('brand_new_flag');
  });
});
