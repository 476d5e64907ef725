-- Up Migration
-- Tills (paired devices), cashiers, printers, print jobs and shifts.

CREATE TABLE tills (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'till\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  store_id text NOT NULL REFERENCES retail_stores(id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  -- The till's own receipt numbers (T01-000123): one prefix per till, never reused, even after revocation.
  receipt_prefix text NOT NULL CHECK (receipt_prefix ~ '^T[0-9]{2,7}$'),
  -- One-time pairing code, stored as its SHA-256; kept after use so a second exchange can say so.
  pairing_code_hash text UNIQUE,
  pairing_expires_at timestamptz,
  pairing_used_at timestamptz,
  -- The device credential (tilld_...), stored as its SHA-256; a new pairing replaces it.
  credential_hash text UNIQUE,
  paired_at timestamptz,
  last_seen_at timestamptz,
  backlog integer CHECK (backlog >= 0),
  app_version text,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (merchant_id, livemode, receipt_prefix),
  CHECK ((pairing_code_hash IS NULL) = (pairing_expires_at IS NULL))
);
CREATE INDEX tills_list ON tills (merchant_id, livemode, seq DESC);

CREATE TABLE employees (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'emp\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  role text NOT NULL CHECK (role IN ('cashier', 'manager')),
  store_ids text[] NOT NULL CHECK (cardinality(store_ids) >= 1),
  -- PBKDF2-SHA256 on Web Crypto ({ algorithm, iterations, salt, hash }), so a till checks a PIN offline.
  pin_hash jsonb NOT NULL,
  -- Employees are deactivated, never deleted: orders and shifts keep naming them.
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX employees_list ON employees (merchant_id, livemode, seq DESC);

CREATE TABLE printers (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'prn\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  till_id text NOT NULL REFERENCES tills(id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  connection text NOT NULL CHECK (connection ~ '^(tcp://.+:[0-9]+|usb://[0-9a-f]{4}:[0-9a-f]{4}|usb)$'),
  paper_width integer NOT NULL CHECK (paper_width IN (58, 80)),
  command_set text NOT NULL CHECK (command_set IN ('epson', 'star')),
  code_page text CHECK (code_page IN ('PC437', 'PC850', 'PC858', 'WPC1252')),
  status text NOT NULL DEFAULT 'unknown'
    CHECK (status IN ('unknown', 'ready', 'offline', 'paper_out', 'cover_open', 'error')),
  status_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX printers_list ON printers (merchant_id, livemode, seq DESC);
CREATE INDEX printers_till ON printers (till_id);

CREATE TABLE print_jobs (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'pjob\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  printer_id text NOT NULL REFERENCES printers(id),
  till_id text NOT NULL REFERENCES tills(id),
  order_id text REFERENCES retail_orders(id),
  -- The order's stored receipt (json, as printed) or plain text: exactly one.
  receipt json,
  text text CHECK (length(text) BETWEEN 1 AND 20000),
  status text NOT NULL CHECK (status IN ('pending', 'printed', 'failed')),
  failure_reason text CHECK (failure_reason IN ('offline', 'paper_out', 'cover_open', 'timeout', 'till_revoked')),
  failure_message text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  CHECK ((receipt IS NULL) <> (text IS NULL)),
  CHECK ((status = 'failed') = (failure_reason IS NOT NULL)),
  CHECK ((status = 'pending') = (completed_at IS NULL))
);
CREATE INDEX print_jobs_list ON print_jobs (merchant_id, livemode, seq DESC);
CREATE INDEX print_jobs_pending ON print_jobs (till_id) WHERE status = 'pending';

CREATE TABLE shifts (
  seq bigserial UNIQUE,
  -- Made by the till (newId('shift')), so a repeated command finds its shift.
  id text PRIMARY KEY CHECK (id ~ '^shift_[0-9a-hjkmnp-tv-z]{26}$'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  till_id text NOT NULL REFERENCES tills(id),
  store_id text NOT NULL REFERENCES retail_stores(id),
  cashier_id text NOT NULL REFERENCES employees(id),
  status text NOT NULL CHECK (status IN ('open', 'closed')),
  currency text NOT NULL,
  opening_float bigint NOT NULL CHECK (opening_float BETWEEN 0 AND 999999999999),
  opened_at timestamptz NOT NULL,
  closed_at timestamptz,
  -- [{ method, amount }] as counted at close.
  counted jsonb,
  expected_cash bigint,
  counted_cash bigint,
  -- The Z report as computed at close (core's zReport), kept so a later refund never rewrites it.
  z_report jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'closed') = (closed_at IS NOT NULL)),
  CHECK ((status = 'closed') = (z_report IS NOT NULL))
);
CREATE INDEX shifts_list ON shifts (merchant_id, livemode, seq DESC);
CREATE INDEX shifts_till ON shifts (till_id, seq DESC);

CREATE TABLE shift_cash_movements (
  id bigserial PRIMARY KEY,
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  shift_id text NOT NULL REFERENCES shifts(id),
  -- The till's command id: the same command applied twice moves cash once.
  command_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('pay_in', 'pay_out')),
  amount bigint NOT NULL CHECK (amount BETWEEN 1 AND 999999999999),
  reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 200),
  at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (shift_id, command_id)
);

-- A till's sale names the shift it was rung up in (no foreign key: a sale is never refused
-- for it, and a shift the till never managed to open leaves the sale out of every Z report).
ALTER TABLE retail_orders ADD COLUMN shift_id text;
CREATE INDEX retail_orders_shift ON retail_orders (shift_id) WHERE shift_id IS NOT NULL;

-- The tables tills pull join the change feed, scoped as a till pulls them: its merchant's
-- employees, its own printers, their jobs and its own shifts.
SELECT enable_change_feed('employees', ARRAY['merchant_id', 'livemode']);
SELECT enable_change_feed('printers', ARRAY['till_id']);
SELECT enable_change_feed('print_jobs', ARRAY['till_id']);
SELECT enable_change_feed('shifts', ARRAY['till_id']);
-- (tills, the merchant's view of its devices, and shift_cash_movements, which the till
-- made itself, are not replicated.)
