/** The apps section's words. */
import { section } from './section.ts';

export const apps = section({
  en: {},
  sw: {},
});
