-- Up Migration
-- Cashier PINs per till (docs/TILL.md, "What a stolen till holds").
--
-- A till used to pull every employee of its merchant with the server's PIN hash. Now it pulls
-- `till_employees`: one row per till and active employee of the till's store, with a PIN verifier
-- made for that till alone (the server's hash derived again under the till's `pin_salt`). An
-- employee deactivated or moved to another store has its row soft-deleted, which reaches the till
-- as a deletion. A till's rows are made at its first pull of employees (`employees_ready`), since
-- the verifiers take PBKDF2 work that SQL cannot do.

-- Salts are not secret, only unique: 16 random bytes of a version 4 UUID, base64.
CREATE FUNCTION pin_salt() RETURNS text LANGUAGE sql VOLATILE AS
  $$ SELECT encode(decode(replace(gen_random_uuid()::text, '-', ''), 'hex'), 'base64') $$;

-- New PINs are hashed under the merchant's salt, so a till derives once per attempt for all its employees.
ALTER TABLE merchants ADD COLUMN pin_salt text NOT NULL DEFAULT pin_salt();
ALTER TABLE tills
  ADD COLUMN pin_salt text NOT NULL DEFAULT pin_salt(),
  ADD COLUMN employees_ready boolean NOT NULL DEFAULT false;

ALTER TABLE employees
  -- How long the PIN is (a manager's must have 6 digits); unknown for PINs set before this.
  ADD COLUMN pin_digits smallint CHECK (pin_digits BETWEEN 4 AND 6),
  -- When the employee was last deactivated: a till's sale by them after that is flagged.
  ADD COLUMN deactivated_at timestamptz,
  ADD CONSTRAINT employees_deactivated CHECK (active OR deactivated_at IS NOT NULL);
UPDATE employees SET deactivated_at = updated_at WHERE NOT active;

CREATE TABLE till_employees (
  id text NOT NULL REFERENCES employees(id),
  till_id text NOT NULL REFERENCES tills(id),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  name text NOT NULL,
  role text NOT NULL CHECK (role IN ('cashier', 'manager')),
  -- The till's verifier (core's `tillPinVerifier`); cleared when the row is deleted.
  pin jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (till_id, id),
  CHECK ((pin IS NULL) = (deleted_at IS NOT NULL))
);
CREATE INDEX till_employees_employee ON till_employees (id);
SELECT enable_change_feed('till_employees', ARRAY['till_id']);
