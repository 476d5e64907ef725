/**
 * No sale: the cash drawer opened with no sale (change for a customer, a note
 * swapped, the float checked). It is written as a `shift.no_sale` command
 * before the drawer is asked to open, so the drawer never opens unrecorded;
 * then the drawer is kicked through the receipt printer (ESC/POS drawer pulse).
 * A till without a printer, or a printer that refuses, still records it, and
 * the outcome says the drawer did not open.
 *
 * Who may: anyone signed in, with a reason, unless the till's setting
 * `noSaleNeedsManager` is on; then a cashier needs a manager's PIN (a manager
 * signed in needs none), as an order discount above the limit does.
 */
import type { NoSaleOutcome, NoSaleRequest } from '../api.ts';
import { TillRefusal } from '../api.ts';
import { settings } from '../cart/cart.ts';
import type { Context } from '../store/context.ts';
import type { ReceiptPrinting } from '../printing/printing.ts';
import { approveByManager, requireCashier } from '../session/session.ts';
import { queueCommand, requireShift, unixSeconds } from './shifts.ts';

export async function noSale(
  ctx: Context,
  printing: ReceiptPrinting,
  request: NoSaleRequest,
): Promise<NoSaleOutcome> {
  const cashier = await requireCashier(ctx);
  const shift = await requireShift(ctx);
  const reason = request.reason.trim();
  if (reason === '') throw new TillRefusal('invalid', 'Say why the drawer is opened');
  const needsManager = (await settings(ctx)).noSaleNeedsManager && cashier.role !== 'manager';
  const approvedBy = needsManager ? (await approveByManager(ctx, request.managerPin)).id : undefined;
  await queueCommand(
    ctx,
    'shift.no_sale',
    {
      shift: shift.id,
      cashier: cashier.id,
      reason,
      ...(approvedBy ? { approved_by: approvedBy } : {}),
      at: unixSeconds(ctx.now()),
    },
    { shift: shift.id, cashier: cashier.id },
  );
  const outcome = await printing.openDrawer();
  if (outcome === null) return { drawer: 'no_printer' };
  return outcome.ok ? { drawer: 'opened' } : { drawer: 'failed', message: outcome.message };
}
