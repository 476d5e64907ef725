-- Money movement (payouts, escrow, referral earnings) posts to the same ledger: widen the
-- transaction types and accounts it may hold. Each new kind of movement keeps UNIQUE (type, source_id),
-- so a retried job or request can never post the same movement twice.
ALTER TABLE ledger_transactions DROP CONSTRAINT ledger_transactions_type_check;
ALTER TABLE ledger_transactions ADD CONSTRAINT ledger_transactions_type_check CHECK (type IN (
  'payment', 'refund',
  'payout', 'payout_paid', 'payout_reversal',
  'escrow_hold', 'escrow_release', 'escrow_refund',
  'referral_earning'
));

ALTER TABLE ledger_postings DROP CONSTRAINT ledger_postings_account_check;
ALTER TABLE ledger_postings ADD CONSTRAINT ledger_postings_account_check CHECK (account IN (
  'merchant_available', 'merchant_pending', 'merchant_referral',
  'merchant_escrow', 'merchant_payouts_in_transit',
  'platform_fees', 'provider_clearing'
));
