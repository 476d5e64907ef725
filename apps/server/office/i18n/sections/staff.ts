/** The staff section's words. */
import { section } from './section.ts';

export const staff = section({
  en: {},
  sw: {},
});
