-- Up Migration
-- Employee records (docs/PEOPLE.md): personal, job and pay fields, shown to secret keys only and never
-- copied to a till (till_employees keeps name, role and a PIN verifier), and the employment's status.
ALTER TABLE employees
  ADD COLUMN status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended', 'terminated')),
  ADD COLUMN phone text,
  ADD COLUMN email text,
  ADD COLUMN date_of_birth date,
  ADD COLUMN national_id text CHECK (national_id ~ '^[0-9]{20}$'),
  ADD COLUMN job_title text,
  ADD COLUMN grade text,
  ADD COLUMN employment_type text NOT NULL DEFAULT 'permanent'
    CHECK (employment_type IN ('permanent', 'fixed_term', 'casual')),
  ADD COLUMN start_date date,
  ADD COLUMN end_date date,
  ADD COLUMN basic_salary bigint CHECK (basic_salary >= 0),
  -- { type: 'bank', bank_name, account_number } or { type: 'mobile_money', phone }
  ADD COLUMN pay_destination jsonb,
  ADD COLUMN pension_number text,
  ADD COLUMN tin text CHECK (tin ~ '^[0-9]{9}$'),
  ADD COLUMN residency text NOT NULL DEFAULT 'resident' CHECK (residency IN ('resident', 'non_resident')),
  ADD COLUMN heslb_loan boolean NOT NULL DEFAULT false,
  ADD COLUMN heslb_index_number text,
  ADD COLUMN jurisdiction text NOT NULL DEFAULT 'mainland' CHECK (jurisdiction IN ('mainland', 'zanzibar')),
  -- Only an active employee signs in at a till.
  ADD CONSTRAINT employees_signs_in_when_active CHECK (status = 'active' OR NOT active),
  ADD CONSTRAINT employees_dates CHECK (end_date >= start_date),
  ADD CONSTRAINT employees_heslb CHECK (NOT heslb_loan OR heslb_index_number IS NOT NULL);

-- The merchant's statutory rate sets, per jurisdiction, each with its effective month (core's
-- StatutorySettings). No row: core's defaults.
CREATE TABLE statutory_settings (
  merchant_id text NOT NULL REFERENCES merchants(id),
  livemode boolean NOT NULL,
  settings jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, livemode)
);
