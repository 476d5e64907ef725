/**
 * A stock level's reorder level: typed in the item's unit (5 pieces, 1.5 kg),
 * changed from the store's list, and cleared by leaving the field empty (the
 * API's `null`: the item is then never low, only negative).
 */
import { useState } from 'react';
import { api, ApiError } from '../../api.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useI18n } from '../../i18n/index.ts';
import { formatCount } from '../../shared.ts';
import { formatMilli, typedMilli, type Unit } from './model.ts';

export interface StockLevel {
  id: string;
  product: string;
  variant: string | null;
  unit: Unit;
  on_hand_milli: number;
  reorder_level_milli: number | null;
  low: boolean;
}

export const STOCK_WORDS = {
  fields: { reorder_level: 'reorderAt', adjust_by: 'adjustBy', set_on_hand: 'adjustBy' },
} as const;

/** A typed reorder level in thousandths of the unit; a typo is refused naming the field. */
export function typedReorder(text: string, unit: Unit): number {
  const milli = typedMilli(text, unit);
  if (milli === null)
    throw new ApiError(400, 'parameter_invalid', 'Invalid reorder_level', {
      reorder_level: unit === 'piece' ? 'must be whole pieces, such as 5' : 'must be like 1.5',
    });
  return milli;
}

/** The level as the list shows it: "15", "1.500", or "none" (never 0, which is a level). */
export function useReorderText() {
  const { t } = useI18n();
  return (level: StockLevel) =>
    level.reorder_level_milli === null
      ? t('reorderNone')
      : formatMilli(level.reorder_level_milli, level.unit, formatCount);
}

export function ReorderDialog({
  store,
  level,
  name,
  onClose,
  onSaved,
}: {
  store: string;
  level: StockLevel;
  name: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useI18n();
  const [text, setText] = useState(
    level.reorder_level_milli === null ? '' : formatMilli(level.reorder_level_milli, level.unit, String),
  );
  const save = async () => {
    const milli = text.trim() === '' ? null : typedReorder(text, level.unit);
    await api.post('/v1/retail/stock-adjustments', {
      store,
      product: level.product,
      ...(level.variant ? { variant: level.variant } : {}),
      reorder_level_milli: milli,
      reason: 'correction',
    });
    onSaved();
    onClose();
  };
  return (
    <ConfirmDialog
      title={t('reorderTitle', { name })}
      lead={t('reorderLead')}
      confirm={t('save')}
      kind="primary"
      onConfirm={save}
      onClose={onClose}
      words={STOCK_WORDS}
      testId="reorder-dialog"
      confirmTestId="reorder-save"
    >
      <TextField
        label={t('reorderAt')}
        value={text}
        onChange={setText}
        inputMode="decimal"
        autoFocus
        testId="reorder-level"
      />
    </ConfirmDialog>
  );
}
