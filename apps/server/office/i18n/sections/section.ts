/**
 * A section's words in both languages, kept beside each other: the Swahili must
 * give every English key (a missing one fails the type check). `en.ts` and
 * `sw.ts` spread each section in; `sections.test.ts` keeps the keys apart.
 */
export function section<Key extends string>(words: {
  en: Record<Key, string>;
  sw: Record<NoInfer<Key>, string>;
}): { en: Record<Key, string>; sw: Record<Key, string> } {
  return words;
}
