/**
 * A refused command as the screens show it. A sale charged to a room the
 * server would not charge (the guest checked out on another desk meanwhile)
 * also names the room, the guest and the stay's state, so the cashier is told
 * in words whose charge failed and why, not only the code's sentence.
 */
import { roomChargeRefusedStatus } from '@tz/core';
import type { CommandRefusal } from '../api.ts';
import type { CommandDoc } from '../store/schema.ts';

const ROOM_TENDER = /^tenders\.(\d+)\.reservation$/;

export function commandRefusal(command: CommandDoc): CommandRefusal | null {
  const error = command.error;
  if (!error) return null;
  if (command.type !== 'order.create' || error.code !== 'parameter_invalid') return error;
  const field = Object.keys(error.details ?? {}).find((key) => ROOM_TENDER.test(key));
  if (field === undefined) return error;
  const index = Number(ROOM_TENDER.exec(field)![1]);
  const tenders = command.payload.tenders as Array<{ reservation?: string }> | undefined;
  const reservation = tenders?.[index]?.reservation;
  const charged = command.sale?.room_charges?.find((charge) => charge.reservation === reservation);
  if (!charged) return error;
  return {
    ...error,
    roomCharge: {
      room: charged.room,
      guest: charged.guest,
      status: roomChargeRefusedStatus(error.details![field]!),
    },
  };
}
