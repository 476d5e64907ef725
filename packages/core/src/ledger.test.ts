import { describe, expect, it } from 'vitest';
import {
  balanceMovements,
  escrowHoldPostings,
  escrowReleasePostings,
  paymentPostings,
  payoutPostings,
  reversePostings,
  type Posting,
} from './ledger.ts';

const lines = (
  merchantId: string,
  fee: number,
  postings: Parameters<typeof balanceMovements>[0]['postings'],
) =>
  balanceMovements({ merchantId, currency: 'TZS', fee, postings }).map((l) => [
    l.merchantId,
    l.balance,
    l.amount,
    l.fee,
    l.net,
    l.main,
  ]);

describe('the lines a ledger transaction adds to transaction lists', () => {
  it('lists a payment and its refund on available, gross, fee and net', () => {
    const paid = paymentPostings('TZS', 10_000, 150);
    expect(lines('mer_a', 150, paid)).toEqual([['mer_a', 'available', 10_000, 150, 9_850, true]]);
    expect(lines('mer_a', -150, reversePostings(paid))).toEqual([
      ['mer_a', 'available', -10_000, -150, -9_850, true],
    ]);
  });

  it('lists a hold twice: out of available, into escrow', () => {
    expect(lines('mer_a', 0, escrowHoldPostings('TZS', 9_850))).toEqual([
      ['mer_a', 'available', -9_850, 0, -9_850, true],
      ['mer_a', 'escrow', 9_850, 0, 9_850, false],
    ]);
  });

  it('lists a release to a merchant on the holder’s escrow and the recipient’s available', () => {
    const postings = escrowReleasePostings('TZS', 5_000, {
      account: 'merchant_available',
      holderMerchantId: 'mer_holder',
      recipientMerchantId: 'mer_recipient',
    });
    expect(lines('mer_recipient', 0, postings)).toEqual([
      ['mer_holder', 'escrow', -5_000, 0, -5_000, false],
      ['mer_recipient', 'available', 5_000, 0, 5_000, true],
    ]);
  });

  it('lists money leaving escrow for a phone or as a fee on escrow', () => {
    expect(lines('mer_a', 0, escrowReleasePostings('TZS', 500, { account: 'platform_fees' }))).toEqual([
      ['mer_a', 'escrow', -500, 0, -500, true],
    ]);
  });

  it('lists a referral earning on the referrer’s referral balance only', () => {
    const postings: Posting[] = [
      { account: 'platform_fees', currency: 'TZS', amount: -15, merchantId: 'mer_referred' },
      { account: 'merchant_referral', currency: 'TZS', amount: 15 },
    ];
    expect(lines('mer_referrer', 0, postings)).toEqual([['mer_referrer', 'referral', 15, 0, 15, true]]);
  });

  it('lists a paid payout, which moves no balance, at 0 on available', () => {
    expect(lines('mer_a', 0, payoutPostings('payout', 'TZS', 5_000))).toEqual([
      ['mer_a', 'available', -5_000, 0, -5_000, true],
    ]);
    expect(lines('mer_a', 0, payoutPostings('payout_paid', 'TZS', 5_000))).toEqual([
      ['mer_a', 'available', 0, 0, 0, true],
    ]);
  });
});
