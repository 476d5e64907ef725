-- Up Migration
-- Cash a front desk takes goes into the till's drawer: the folio line keeps the shift it went into
-- and who took it, so the shift's Z report expects it (core's `zReport`, `deskCash`).
ALTER TABLE hospitality_folio_lines
  ADD COLUMN shift_id text REFERENCES shifts(id),
  ADD COLUMN cashier_id text;
CREATE INDEX hospitality_folio_lines_shift ON hospitality_folio_lines (shift_id) WHERE shift_id IS NOT NULL;
