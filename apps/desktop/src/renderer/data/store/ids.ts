/**
 * Ids made on the till, from core's id source on the till's clock: ULIDs
 * (time-ordered, so sorting by id is sorting by creation), monotonic, so two
 * ids made in the same millisecond still sort in the order they were made.
 */
import { idSource } from '@tz/core';

const source = idSource();

export function makeIds(now: () => number) {
  return {
    /** `cmd_` + ULID: the command's idempotency key on the server. */
    command: () => source.commandId(now()),
    /** The sale's id, sent as `client_order_id`. */
    clientOrder: () => source.ulid(now()),
    /** `shift_` + a lowercase ULID: `newId('shift')`'s form, which the server's shift id accepts. */
    shift: () => source.newId('shift', now()),
    /** `resv_` + a lowercase ULID: a reservation made at the front desk, named offline by its next steps. */
    reservation: () => source.newId('reservation', now()),
    /** `scn_` + a lowercase ULID: a scan at the door, the same id on its question and its report. */
    scan: () => source.newId('scan', now()),
    /** `eord_` and `tkt_` + a lowercase ULID: a box office's order and its tickets, issued under these ids. */
    eventOrder: () => source.newId('eventOrder', now()),
    ticket: () => source.newId('ticket', now()),
    local: () => source.ulid(now()),
  };
}
export type Ids = ReturnType<typeof makeIds>;
