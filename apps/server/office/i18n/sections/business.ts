/** The business section's words. */
import { section } from './section.ts';

export const business = section({
  en: {},
  sw: {},
});
