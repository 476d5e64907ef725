-- A merchant's salary bands (core's people/salary-bands.ts): per grade a minimum and a maximum basic
-- salary, the whole set replaced at once. No row: no bands yet.
CREATE TABLE salary_bands (
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  bands jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, livemode)
);
