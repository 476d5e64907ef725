/** Every section's words, spread into `en.ts` and `sw.ts` in this order. */
import { apps } from './apps.ts';
import { business } from './business.ts';
import { hospitality } from './hospitality.ts';
import { developers } from './developers.ts';
import { events } from './events.ts';
import { payments } from './payments.ts';
import { retail } from './retail.ts';
import { staff } from './staff.ts';

export const SECTIONS = { payments, retail, hospitality, events, staff, developers, apps, business };
