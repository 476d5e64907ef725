-- Up Migration
-- Retail: catalogue, stores, stock and orders. Deleting archives (deleted_at),
-- so orders keep pointing at what they sold.

CREATE TABLE retail_categories (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'cat\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  description text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX retail_categories_list ON retail_categories (merchant_id, livemode, seq DESC);

CREATE TABLE retail_products (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'prod\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  description text,
  sku text CHECK (length(sku) BETWEEN 1 AND 64),
  barcodes text[] NOT NULL DEFAULT '{}',
  price bigint NOT NULL CHECK (price >= 0 AND price <= 999999999999),
  currency text NOT NULL,
  tax_rate text NOT NULL CHECK (tax_rate IN ('standard', 'zero_rated', 'exempt')),
  category_id text REFERENCES retail_categories(id),
  unit text NOT NULL CHECK (unit IN ('piece', 'kg', 'litre', 'metre')),
  track_stock boolean NOT NULL,
  active boolean NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}',
  -- Word-prefix search on name and SKU; GIN and tsvector are built in on both databases.
  search tsvector GENERATED ALWAYS AS (to_tsvector('simple', name || ' ' || coalesce(sku, ''))) STORED,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX retail_products_list ON retail_products (merchant_id, livemode, seq DESC);
CREATE INDEX retail_products_category ON retail_products (category_id, seq DESC) WHERE category_id IS NOT NULL;
CREATE INDEX retail_products_search ON retail_products USING gin (search);

CREATE TABLE retail_variants (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'var\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  product_id text NOT NULL REFERENCES retail_products(id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  sku text CHECK (length(sku) BETWEEN 1 AND 64),
  barcodes text[] NOT NULL DEFAULT '{}',
  price bigint NOT NULL CHECK (price >= 0 AND price <= 999999999999),
  active boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX retail_variants_product ON retail_variants (product_id, seq);

-- Every live SKU and barcode of a merchant and mode, of products and variants
-- alike: the UNIQUE index makes a code name one item, and serves exact lookup.
CREATE TABLE retail_codes (
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  kind text NOT NULL CHECK (kind IN ('sku', 'barcode')),
  code text NOT NULL CHECK (length(code) BETWEEN 1 AND 64),
  product_id text NOT NULL REFERENCES retail_products(id),
  variant_id text REFERENCES retail_variants(id)
);
CREATE UNIQUE INDEX retail_codes_unique ON retail_codes (merchant_id, livemode, kind, lower(code));
CREATE INDEX retail_codes_lookup ON retail_codes (merchant_id, livemode, lower(code));
CREATE INDEX retail_codes_product ON retail_codes (product_id);

CREATE TABLE retail_stores (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'store\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  address_lines jsonb NOT NULL DEFAULT '[]',
  phone text,
  tin text CHECK (tin ~ '^[0-9]{3}-[0-9]{3}-[0-9]{3}$'),
  vrn text CHECK (vrn ~ '^[0-9]{2}-[0-9]{6}-[A-Z]$'),
  vat_region text NOT NULL CHECK (vat_region IN ('mainland', 'zanzibar')),
  currency text NOT NULL,
  receipt_header jsonb NOT NULL DEFAULT '[]',
  receipt_footer jsonb NOT NULL DEFAULT '[]',
  receipt_language text NOT NULL CHECK (receipt_language IN ('sw', 'en')),
  is_default boolean NOT NULL DEFAULT false,
  -- Receipt numbers the server gives (orders sent without one): prefix S01, S02... per store,
  -- never a till prefix (T01...), so the two kinds never collide. The sequence part comes from
  -- a sequence per store (retail_receipts_<store id>), made with the store: numbering takes no
  -- row lock, so a store's sales never queue behind each other (a refused or failed sale may
  -- leave a gap).
  receipt_prefix text NOT NULL CHECK (receipt_prefix ~ '^S[0-9]{2,7}$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (merchant_id, livemode, receipt_prefix)
);
CREATE INDEX retail_stores_list ON retail_stores (merchant_id, livemode, seq DESC);
CREATE UNIQUE INDEX retail_stores_one_default ON retail_stores (merchant_id, livemode) WHERE is_default;

CREATE TABLE retail_stock_levels (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'stk\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  store_id text NOT NULL REFERENCES retail_stores(id),
  product_id text NOT NULL REFERENCES retail_products(id),
  variant_id text REFERENCES retail_variants(id),
  -- Thousandths of the product's unit; negative when more was sold than counted.
  on_hand_milli bigint NOT NULL,
  reorder_level_milli bigint CHECK (reorder_level_milli >= 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE NULLS NOT DISTINCT (store_id, product_id, variant_id)
) WITH (fillfactor = 80);
-- No index covers on_hand_milli, and pages keep room: a sale's stock update is a HOT update
-- that touches no index. Low-stock lists filter a store's levels instead.
CREATE INDEX retail_stock_levels_list ON retail_stock_levels (store_id, seq DESC);

CREATE TABLE retail_orders (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'ord\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  store_id text NOT NULL REFERENCES retail_stores(id),
  till text,
  cashier text,
  client_order_id text CHECK (length(client_order_id) BETWEEN 1 AND 255),
  receipt_number text NOT NULL,
  status text NOT NULL CHECK (status IN ('open', 'paid', 'partially_refunded', 'refunded', 'voided')),
  currency text NOT NULL,
  vat_region text NOT NULL CHECK (vat_region IN ('mainland', 'zanzibar')),
  customer_id text REFERENCES customers(id),
  gross_total bigint NOT NULL CHECK (gross_total >= 0),
  line_discount_total bigint NOT NULL CHECK (line_discount_total >= 0),
  subtotal bigint NOT NULL CHECK (subtotal >= 0),
  discount_rule jsonb,
  order_discount bigint NOT NULL CHECK (order_discount >= 0),
  total bigint NOT NULL CHECK (total >= 0 AND total <= 999999999999),
  tax_total bigint NOT NULL CHECK (tax_total >= 0),
  tax_breakdown jsonb NOT NULL,
  amount_tendered bigint NOT NULL CHECK (amount_tendered >= 0),
  change_due bigint NOT NULL CHECK (change_due >= 0),
  refunded_amount bigint NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0 AND refunded_amount <= total),
  -- The receipt as printed, kept for reprints; stored as text (json), never queried into.
  receipt json NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}',
  void_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  paid_at timestamptz,
  voided_at timestamptz,
  CHECK (subtotal = gross_total - line_discount_total AND total = subtotal - order_discount),
  CHECK ((status = 'voided') = (voided_at IS NOT NULL)),
  -- A till's command id and a receipt number each name one order.
  UNIQUE (merchant_id, livemode, client_order_id),
  UNIQUE (merchant_id, livemode, receipt_number)
);
CREATE INDEX retail_orders_list ON retail_orders (merchant_id, livemode, seq DESC);
CREATE INDEX retail_orders_day ON retail_orders (merchant_id, livemode, paid_at);

CREATE TABLE retail_order_lines (
  order_id text NOT NULL REFERENCES retail_orders(id),
  position integer NOT NULL CHECK (position >= 0),
  product_id text NOT NULL REFERENCES retail_products(id),
  variant_id text REFERENCES retail_variants(id),
  description text NOT NULL,
  sku text,
  unit text NOT NULL,
  quantity_milli bigint NOT NULL CHECK (quantity_milli > 0),
  refunded_quantity_milli bigint NOT NULL DEFAULT 0,
  refunded_amount bigint NOT NULL DEFAULT 0 CHECK (refunded_amount BETWEEN 0 AND total),
  tax_rate text,
  tax_rate_basis_points integer NOT NULL CHECK (tax_rate_basis_points BETWEEN 0 AND 10000),
  list_unit_price bigint NOT NULL,
  unit_price bigint NOT NULL,
  price_override_reason text,
  discount_rule jsonb,
  gross bigint NOT NULL,
  line_discount bigint NOT NULL,
  order_discount bigint NOT NULL,
  total bigint NOT NULL CHECK (total >= 0),
  tax bigint NOT NULL CHECK (tax >= 0 AND tax <= total),
  PRIMARY KEY (order_id, position),
  CHECK (refunded_quantity_milli BETWEEN 0 AND quantity_milli),
  CHECK (total = gross - line_discount - order_discount)
);
CREATE INDEX retail_order_lines_product ON retail_order_lines (product_id);

CREATE TABLE retail_order_tenders (
  order_id text NOT NULL REFERENCES retail_orders(id),
  position integer NOT NULL CHECK (position >= 0),
  method text NOT NULL CHECK (method IN ('cash', 'mobile_money', 'card')),
  amount bigint NOT NULL CHECK (amount > 0),
  paid bigint NOT NULL CHECK (paid >= 0 AND paid <= amount),
  payment_id text REFERENCES payments(id),
  network text,
  reference text,
  -- A voided order gives its mobile money payment back, so the sale can be rung up again.
  active boolean NOT NULL DEFAULT true,
  PRIMARY KEY (order_id, position),
  CHECK ((method = 'mobile_money') = (payment_id IS NOT NULL)),
  CHECK (method = 'cash' OR paid = amount)
);
-- A mobile money payment pays for one order only.
CREATE UNIQUE INDEX retail_order_tenders_payment ON retail_order_tenders (payment_id) WHERE payment_id IS NOT NULL AND active;

CREATE TABLE retail_refunds (
  seq bigserial UNIQUE,
  id text PRIMARY KEY CHECK (id LIKE 'oref\_%'),
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  order_id text NOT NULL REFERENCES retail_orders(id),
  amount bigint NOT NULL CHECK (amount >= 0),
  tax bigint NOT NULL CHECK (tax >= 0),
  lines jsonb NOT NULL,
  restocked boolean NOT NULL,
  reason text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX retail_refunds_order ON retail_refunds (order_id, seq);

CREATE TABLE retail_stock_movements (
  id bigserial PRIMARY KEY,
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  store_id text NOT NULL REFERENCES retail_stores(id),
  product_id text NOT NULL REFERENCES retail_products(id),
  variant_id text REFERENCES retail_variants(id),
  reason text NOT NULL CHECK (reason IN ('sale', 'refund', 'void', 'count', 'received', 'damaged', 'lost', 'returned', 'correction')),
  delta_milli bigint NOT NULL,
  on_hand_after_milli bigint NOT NULL,
  order_id text REFERENCES retail_orders(id),
  refund_id text REFERENCES retail_refunds(id),
  note text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX retail_stock_movements_item ON retail_stock_movements (store_id, product_id, id DESC);
