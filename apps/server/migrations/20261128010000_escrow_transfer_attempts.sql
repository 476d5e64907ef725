-- A live transfer of a split to a phone goes out under an order reference made
-- of the split id and this attempt number (docs/ESCROW.md): each release to a
-- phone starts a new attempt, so a failed transfer can be sent again under a new
-- reference while a repeat of one attempt keeps its own. 0: never sent.
ALTER TABLE escrow_splits ADD COLUMN transfer_attempt integer NOT NULL DEFAULT 0 CHECK (transfer_attempt >= 0);
-- Splits sent before this column was added were sent once, under the split id alone (attempt 1).
UPDATE escrow_splits SET transfer_attempt = 1
WHERE phone IS NOT NULL
  AND (status IN ('sending', 'released') OR transfer_reference IS NOT NULL OR failure_code IS NOT NULL);
ALTER TABLE escrow_splits ADD CONSTRAINT escrow_splits_sending_attempt CHECK (status <> 'sending' OR transfer_attempt >= 1);
