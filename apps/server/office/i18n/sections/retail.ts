/** The retail section's words. */
import { section } from './section.ts';

export const retail = section({
  en: {},
  sw: {},
});
