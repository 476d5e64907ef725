import { describe, expect, it } from 'vitest';
import { ORDER_FLAGS } from '@tz/core';
import { ORDER_FLAG_WORDS, SERVER_CODE_WORDS, orderFlagsText, serverCodeText } from './server-words.ts';

describe("the server's codes in the cashier's words", () => {
  it('gives every code a sentence in both languages, never the code itself', () => {
    expect(Object.keys(SERVER_CODE_WORDS.sw).sort()).toEqual(Object.keys(SERVER_CODE_WORDS.en).sort());
    for (const language of ['en', 'sw'] as const) {
      for (const [code, sentence] of Object.entries(SERVER_CODE_WORDS[language])) {
        expect(sentence, `${language} ${code}`).toMatch(/^[A-Z].*\.$/s);
        expect(sentence, `${language} ${code}`).not.toContain('_');
      }
    }
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
    expect(serverCodeText('sw', 'something_new', 'The server’s message')).toBe('The server’s message');
    expect(serverCodeText('en', 'toString', 'fallback')).toBe('fallback');
    expect(orderFlagsText('en', ['brand_new_flag'])).toBe('brand_new_flag');
  });
});
