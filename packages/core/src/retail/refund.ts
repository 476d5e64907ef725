/**
 * What a refund of part of an order gives back. A line refunded in several
 * steps returns, in total, exactly what the customer paid for it: each step
 * returns share(refunded after) − share(refunded before), where
 * share(q) = round(line total × q / line quantity), half up. The same holds
 * for the VAT contained in the line, so refunds never drift from the sale.
 */
import { invalidField } from '../errors.ts';
import { mulDivHalfUp } from './integer-math.ts';
import type { QuantityUnit } from './pricing.ts';

/** A line of a paid order, as far as refunds care. */
export interface RefundableLine {
  unit: QuantityUnit;
  quantityMilli: number;
  /** What the customer paid for the line, tax included. */
  total: number;
  /** VAT contained in `total`. */
  tax: number;
  /** Already refunded in earlier refunds. */
  refundedQuantityMilli: number;
}

export interface RefundRequestLine {
  /** Position of the line in the order, from 0. */
  line: number;
  quantityMilli: number;
}

export interface RefundedLine {
  line: number;
  quantityMilli: number;
  /** Money returned for this line, tax included. */
  amount: number;
  /** VAT contained in `amount`. */
  tax: number;
}

export interface RefundPlan {
  lines: RefundedLine[];
  amount: number;
  tax: number;
}

const share = (value: number, part: number, whole: number): number => mulDivHalfUp(value, part, whole);

/**
 * Prices a refund of the given quantities. Throws, naming the request line,
 * when a line is unknown or given twice, or a quantity is not positive, not
 * whole for pieces, or more than is left to refund.
 */
export function planRefund(
  lines: readonly RefundableLine[],
  request: readonly RefundRequestLine[],
): RefundPlan {
  if (request.length === 0)
    throw invalidField('parameter_missing', 'lines', 'name at least one line to refund');
  const seen = new Set<number>();
  const planned = request.map((wanted, index): RefundedLine => {
    const at = `lines[${index}]`;
    const line = Number.isSafeInteger(wanted.line) ? lines[wanted.line] : undefined;
    if (!line)
      throw invalidField(
        'parameter_invalid',
        `${at}.line`,
        `is not a line of this order (0 to ${lines.length - 1})`,
      );
    if (seen.has(wanted.line)) throw invalidField('parameter_invalid', `${at}.line`, 'is named twice');
    seen.add(wanted.line);
    const quantity = wanted.quantityMilli;
    if (!Number.isSafeInteger(quantity) || quantity <= 0) {
      throw invalidField(
        'quantity_invalid',
        `${at}.quantityMilli`,
        'must be greater than zero, in thousandths of a unit',
      );
    }
    if (line.unit === 'piece' && quantity % 1000 !== 0) {
      throw invalidField('quantity_invalid', `${at}.quantityMilli`, 'pieces must be whole');
    }
    const left = line.quantityMilli - line.refundedQuantityMilli;
    if (quantity > left) {
      throw invalidField(
        'quantity_invalid',
        `${at}.quantityMilli`,
        `is more than the ${left} thousandths left to refund`,
      );
    }
    const before = line.refundedQuantityMilli;
    const after = before + quantity;
    return {
      line: wanted.line,
      quantityMilli: quantity,
      amount: share(line.total, after, line.quantityMilli) - share(line.total, before, line.quantityMilli),
      tax: share(line.tax, after, line.quantityMilli) - share(line.tax, before, line.quantityMilli),
    };
  });
  return {
    lines: planned,
    amount: planned.reduce((sum, line) => sum + line.amount, 0),
    tax: planned.reduce((sum, line) => sum + line.tax, 0),
  };
}

/** Everything not yet refunded, for a full refund; empty when nothing is left. */
export function remainingRefundLines(lines: readonly RefundableLine[]): RefundRequestLine[] {
  return lines.flatMap((line, index) => {
    const left = line.quantityMilli - line.refundedQuantityMilli;
    return left > 0 ? [{ line: index, quantityMilli: left }] : [];
  });
}

/** The order's status after `plan`: refunded once every line is wholly given back. */
export function statusAfterRefundPlan(
  lines: readonly RefundableLine[],
  plan: RefundPlan,
): 'partially_refunded' | 'refunded' {
  const refunded = lines.map((line) => line.refundedQuantityMilli);
  for (const planned of plan.lines)
    refunded[planned.line] = (refunded[planned.line] ?? 0) + planned.quantityMilli;
  return lines.every((line, index) => refunded[index] === line.quantityMilli)
    ? 'refunded'
    : 'partially_refunded';
}
