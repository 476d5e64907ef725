-- Up Migration
-- Invoice PDFs, each rendered once and kept (docs/INVOICES.md "PDFs"): one row per invoice, document
-- and language, replaced when what the document shows changes (its fingerprint: a status move, a
-- renamed business or customer, a new layout). Only finalised invoices have documents.
CREATE TABLE invoice_documents (
  merchant_id text NOT NULL REFERENCES merchants(id),
  invoice_id text NOT NULL REFERENCES invoices(id),
  kind text NOT NULL CHECK (kind IN ('invoice', 'receipt')),
  language text NOT NULL CHECK (language IN ('en', 'sw')),
  -- SHA-256 of everything the document shows and the layout's version.
  fingerprint text NOT NULL,
  pdf bytea NOT NULL,
  rendered_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, invoice_id, kind, language)
);
