/** The payments section's words. */
import { section } from './section.ts';

export const payments = section({
  en: {},
  sw: {},
});
