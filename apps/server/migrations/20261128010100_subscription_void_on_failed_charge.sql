-- Canceling a subscription now voids its open invoices (docs/SUBSCRIPTIONS.md).
-- One whose charge still awaits its outcome cannot be voided yet (the payment may
-- succeed); its period is marked, and a failed outcome voids it then.
ALTER TABLE subscription_periods ADD COLUMN void_on_failed_charge boolean NOT NULL DEFAULT false;
