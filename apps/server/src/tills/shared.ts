import type { Owner } from '../services/owned.ts';

/** The merchant and mode whose data a piece of work reads and writes. */
export type Tenant = Owner;

/** A paired till, as its device credential resolves: whose it is, in which mode, at which store. */
export interface TillActor extends Tenant {
  tillId: string;
  storeId: string;
}

/** Event types written by tills' print jobs and shifts; listed in the platform's EVENT_TYPES. */
export const TILL_EVENT_TYPES = [
  'print_job.created',
  'print_job.printed',
  'print_job.failed',
  'shift.opened',
  'shift.closed',
] as const;
