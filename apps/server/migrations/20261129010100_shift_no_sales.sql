-- Up Migration
-- No-sales (docs/TILL.md, "No sale"): the cash drawer opened at a till with no sale, recorded with
-- its shift, the employee who opened it, the manager who approved it (when the till asked for one),
-- the reason and the time on the till. No money moves, so they are kept apart from the shift's cash
-- movements (whose amounts are at least 1 and whose kinds the expected cash adds up).
CREATE TABLE shift_no_sales (
  id bigserial PRIMARY KEY,
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  shift_id text NOT NULL REFERENCES shifts(id),
  -- The till's command id: the same command applied twice records one no-sale.
  command_id text NOT NULL,
  cashier_id text NOT NULL,
  approved_by text,
  reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 200),
  at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (shift_id, command_id)
);
