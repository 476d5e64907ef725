/** The developers section's words. */
import { section } from './section.ts';

export const developers = section({
  en: {},
  sw: {},
});
