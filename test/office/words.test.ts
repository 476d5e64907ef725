import { describe, expect, it } from 'vitest';
import { SECTIONS } from '../../apps/server/office/i18n/sections/index.ts';
import { commonEn, en } from '../../apps/server/office/i18n/en.ts';
import { sw } from '../../apps/server/office/i18n/sw.ts';

describe("the office's words", () => {
  it('are given once: no key in two sections, or in a section and the common words', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [name, words] of Object.entries(SECTIONS))
      for (const key of Object.keys(words.en)) {
        if (seen.has(key)) twice.push(`${key} (${seen.get(key)} and ${name})`);
        seen.set(key, name);
      }
    expect(twice).toEqual([]);
    expect(Object.keys(commonEn).filter((key) => seen.has(key))).toEqual([]);
    expect(Object.keys(en)).toHaveLength(Object.keys(commonEn).length + seen.size);
    expect(Object.keys(sw).sort()).toEqual(Object.keys(en).sort());
  });
});
