/**
 * How a customer pays for an order. Mobile money and card move exactly the
 * amount asked, so they give no change and may not exceed what is due; cash
 * covers whatever is left, and only cash gives change.
 */
import { AppError, invalidField } from '../errors.ts';
import type { PaymentId } from '../ids.ts';
import { hasPrefix } from '../ids.ts';
import { MAX_AMOUNT, isCurrency } from '../money.ts';
import type { Currency } from '../money.ts';

/** The methods that bring money in at the till (a shift's Z report counts these). */
export type TenderMethod = 'cash' | 'mobile_money' | 'card';

export type TenderInput =
  | {
      method: 'cash';
      /** Cash handed over, which may exceed what is due. */
      amount: number;
      currency?: Currency | undefined;
    }
  | {
      method: 'mobile_money';
      amount: number;
      /** The paid mobile money payment (`pay_...`). */
      paymentId: PaymentId;
      /** Network as named by `mobileNetwork` (mpesa, mixx, airtel, halotel...), for the receipt. */
      network?: string | undefined;
      /** The provider's reference for the payment (the one in the payer's SMS), for the receipt, once known. */
      reference?: string | undefined;
      /** The payer's number (`255XXXXXXXXX`), for the receipt when the reference is not known. */
      phone?: string | undefined;
      currency?: Currency | undefined;
    }
  | {
      method: 'card';
      amount: number;
      /** Terminal approval or transaction reference. */
      reference: string;
      currency?: Currency | undefined;
    }
  | {
      /** Charged to a checked-in guest's folio (hospitality): no money changes hands at the till. */
      method: 'room';
      amount: number;
      /** The stay (`resv_...`). */
      reservation: string;
      /** The room's number, for the receipt. */
      room?: string | undefined;
      currency?: Currency | undefined;
    };

/** A mobile money payment as a tender sees it. */
export interface TenderPayment {
  status: string;
  currency: string;
  amount: number;
  /** It already pays for another order. */
  used?: boolean | undefined;
}

export interface TenderProblem {
  code: 'payment_not_paid' | 'currency_mismatch' | 'payment_already_used' | 'amount_invalid';
  /** The tender's field at fault. */
  field: 'payment' | 'amount';
  message: string;
}

/**
 * Why a payment cannot pay a mobile money tender, or null: it must be paid, in
 * the order's currency, not pay another order, and the tender's amount, when
 * given, must be the payment's. The server and the till check each tender
 * with it (the till before it records a sale, the server when it arrives).
 */
export function mobileMoneyTenderProblem(
  payment: TenderPayment,
  currency: string,
  amount: number | undefined,
): TenderProblem | null {
  if (payment.status !== 'paid') {
    const message = `is ${payment.status}; only a paid payment can pay for an order`;
    return { code: 'payment_not_paid', field: 'payment', message };
  }
  if (payment.currency !== currency) {
    const message = `is in ${payment.currency} but the order is in ${currency}`;
    return { code: 'currency_mismatch', field: 'payment', message };
  }
  if (payment.used) {
    return { code: 'payment_already_used', field: 'payment', message: 'already pays for another order' };
  }
  if (amount !== undefined && amount !== payment.amount) {
    const message = `must equal the payment's amount (${payment.amount})`;
    return { code: 'amount_invalid', field: 'amount', message };
  }
  return null;
}

const NON_CASH_NAMES = { mobile_money: 'mobile money', card: 'card', room: 'a room charge' } as const;

/** A tender with the part of it that went to the order; `amount` stays what was handed over. */
export type AllocatedTender = TenderInput & { paid: number };

export interface TenderAllocation {
  currency: Currency;
  amountDue: number;
  tenders: AllocatedTender[];
  /** Sum of everything handed over. */
  tendered: number;
  cashGiven: number;
  /** Cash handed back: cash given minus the cash that went to the order. */
  change: number;
}

export interface TenderRequest {
  currency: Currency;
  amountDue: number;
  tenders: readonly TenderInput[];
}

/**
 * Applies the tenders to the amount due: non-cash tenders first, in order,
 * then cash in order. Throws 'tender_exceeds_due' when non-cash tenders pass
 * the amount due and 'tender_insufficient' when all tenders fall short.
 */
export function allocateTenders(request: TenderRequest): TenderAllocation {
  const { currency, amountDue } = request;
  if (!isCurrency(currency))
    throw invalidField('currency_invalid', 'currency', 'is not a supported currency');
  if (!Number.isSafeInteger(amountDue) || amountDue < 0 || amountDue > MAX_AMOUNT) {
    throw invalidField('amount_invalid', 'amountDue', `must be an integer from 0 to ${MAX_AMOUNT}`);
  }
  request.tenders.forEach((tender, index) => validateTender(tender, index, currency));

  let remaining = amountDue;
  const paid = request.tenders.map(() => 0);
  request.tenders.forEach((tender, index) => {
    if (tender.method === 'cash') return;
    if (tender.amount > remaining) {
      throw invalidField(
        'tender_exceeds_due',
        `tenders[${index}].amount`,
        `is ${tender.amount} but only ${remaining} is left to pay; ${NON_CASH_NAMES[tender.method]} gives no change`,
      );
    }
    paid[index] = tender.amount;
    remaining -= tender.amount;
  });

  let cashGiven = 0;
  let cashPaid = 0;
  request.tenders.forEach((tender, index) => {
    if (tender.method !== 'cash') return;
    const applied = Math.min(tender.amount, remaining);
    paid[index] = applied;
    remaining -= applied;
    cashGiven += tender.amount;
    cashPaid += applied;
  });

  if (remaining > 0) {
    throw new AppError('tender_insufficient', `The tenders are ${remaining} short of the ${amountDue} due`, {
      details: { tenders: `short by ${remaining}` },
    });
  }

  const tenders = request.tenders.map((tender, index): AllocatedTender => ({
    ...tender,
    paid: paid[index] ?? 0,
  }));
  return {
    currency,
    amountDue,
    tenders,
    tendered: request.tenders.reduce((total, tender) => total + tender.amount, 0),
    cashGiven,
    change: cashGiven - cashPaid,
  };
}

function validateTender(tender: TenderInput, index: number, currency: Currency): void {
  const at = `tenders[${index}]`;
  if (!Number.isSafeInteger(tender.amount) || tender.amount < 1 || tender.amount > MAX_AMOUNT) {
    throw invalidField('amount_invalid', `${at}.amount`, `must be an integer from 1 to ${MAX_AMOUNT}`);
  }
  if (tender.currency !== undefined && tender.currency !== currency) {
    throw invalidField(
      'currency_mismatch',
      `${at}.currency`,
      `is ${tender.currency} but the order is in ${currency}`,
    );
  }
  switch (tender.method) {
    case 'cash':
      return;
    case 'mobile_money':
      if (!hasPrefix('payment', tender.paymentId)) {
        throw invalidField('parameter_invalid', `${at}.paymentId`, 'must be a payment id (pay_...)');
      }
      return;
    case 'card':
      if (tender.reference.trim() === '')
        throw invalidField('parameter_missing', `${at}.reference`, 'is required');
      return;
    case 'room':
      if (!hasPrefix('reservation', tender.reservation))
        throw invalidField('parameter_invalid', `${at}.reservation`, 'must be a reservation id (resv_...)');
      return;
    default:
      throw invalidField(
        'parameter_invalid',
        `${at}.method`,
        "must be 'cash', 'mobile_money', 'card' or 'room'",
      );
  }
}
