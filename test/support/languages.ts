/**
 * A screen's words in the other language, read on the screen itself: a flow run once, in one
 * language, checks at each screen that it renders the other's words too, instead of running
 * every flow again in that language. (Both dictionaries having every key is the words tests'.)
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

type Language = 'sw' | 'en';
type Dictionaries = Record<Language, Record<string, string>>;

/** A dictionary's value as a whole-line pattern; its `{placeholders}` match anything. */
function pattern(value: string): RegExp | undefined {
  const literal = value.replace(/\{\w+\}/g, '');
  // A value that is all placeholders, or a word or two of letters, would match anything.
  if ((literal.match(/\p{L}/gu) ?? []).length < 3) return undefined;
  const source = value
    .split(/\{\w+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.+?');
  return new RegExp(`^${source}$`);
}

interface Patterns {
  /** The keys whose words differ between the languages, with each language's pattern. */
  keys: Array<{ key: string; sw: RegExp; en: RegExp }>;
}

const compiled = new WeakMap<Dictionaries, Patterns>();

function patternsOf(dictionaries: Dictionaries): Patterns {
  let found = compiled.get(dictionaries);
  if (!found) {
    const keys: Patterns['keys'] = [];
    for (const key of Object.keys(dictionaries.en)) {
      const sw = dictionaries.sw[key];
      const en = dictionaries.en[key]!;
      if (sw === undefined || sw === en) continue;
      const swPattern = pattern(sw);
      const enPattern = pattern(en);
      if (swPattern && enPattern) keys.push({ key, sw: swPattern, en: enPattern });
    }
    found = { keys };
    compiled.set(dictionaries, found);
  }
  return found;
}

/**
 * Every visible element's text of one line, and the words of labels, placeholders and titles, each
 * trimmed. Not a message's (a live region's): it says what happened in the words of the moment.
 */
function shownText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts = new Set<string>();
    for (const element of document.body.querySelectorAll<HTMLElement>('*')) {
      if (element.tagName === 'SCRIPT' || element.tagName === 'STYLE') continue;
      if (!element.checkVisibility()) continue;
      if (element.closest('[role=status], [role=alert], [aria-live]')) continue;
      const text = element.innerText?.trim();
      if (text && !/[\n\t]/.test(text)) texts.add(text);
      for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
        const value = element.getAttribute(name)?.trim();
        if (value) texts.add(value);
      }
    }
    return [...texts];
  });
}

/**
 * Switches the screen to the other language with `switchLanguage`, and checks: the page's `lang`
 * says so; every text on it that was one of `from`'s words (differing from the other's) now reads
 * the other's word for that key; no text is left in `from`'s words only; then `check` (axe-core's,
 * say) in the other language. Then switches back, and waits for `from` again.
 */
export async function readsInOtherLanguage(
  page: Page,
  dictionaries: Dictionaries,
  switchLanguage: () => Promise<void>,
  check: () => Promise<void> = () => Promise.resolve(),
): Promise<void> {
  const from = (await page.getAttribute('html', 'lang')) as Language;
  expect(['sw', 'en']).toContain(from);
  const to: Language = from === 'sw' ? 'en' : 'sw';
  const { keys } = patternsOf(dictionaries);
  const keysOf = (text: string, language: Language) =>
    keys.filter((entry) => entry[language].test(text)).map((entry) => entry.key);

  const before = await shownText(page);
  const expected = before
    .filter((text) => keysOf(text, to).length === 0)
    .map((text) => ({ text, keys: keysOf(text, from) }))
    .filter((found) => found.keys.length > 0);
  expect(expected.length, `words of ${from} on the screen`).toBeGreaterThan(0);

  await switchLanguage();
  await page.waitForFunction((language) => document.documentElement.lang === language, to);
  try {
    // The screen re-renders in the other language; read it once every word has come.
    const missing = async () => {
      const after = await shownText(page);
      const untranslated = after.filter(
        (text) => keysOf(text, from).length > 0 && keysOf(text, to).length === 0,
      );
      const absent = expected
        .filter(({ keys: candidates }) =>
          after.every((text) => !candidates.some((key) => keys.find((e) => e.key === key)![to].test(text))),
        )
        .map(({ text }) => text);
      return { untranslated, absent };
    };
    await expect.poll(missing).toEqual({ untranslated: [], absent: [] });
    await check();
  } finally {
    await switchLanguage();
    await page.waitForFunction((language) => document.documentElement.lang === language, from);
  }
}
