/** What the payment dialog's method forms share: what is left to pay, and the amount of a part of it. */
import type { TenderEntry } from '../../data/api.ts';
import { parseAmount, useI18n } from '../../i18n/index.tsx';
import { AmountInput } from '../components/inputs.tsx';

/** What each method's form is given: what is left to pay, and where a taken tender goes. */
export interface TenderFormProps {
  remaining: number;
  currency: string;
  busy: boolean;
  onTake: (entry: TenderEntry) => void;
}

/** An empty amount field means "what is left to pay". */
export function partAmount(text: string, remaining: number, currency: string): number | null {
  return text.trim() === '' ? remaining : parseAmount(text, currency);
}

/** The amount of a card, mobile money or room part of the payment; empty takes what is left. */
export function PartAmount({
  text,
  onChange,
  remaining,
  currency,
  disabled = false,
}: {
  text: string;
  onChange: (text: string) => void;
  remaining: number;
  currency: string;
  disabled?: boolean;
}) {
  const { t } = useI18n();
  return (
    <label>
      {t('amount')}
      <AmountInput
        value={text}
        onChange={onChange}
        currency={currency}
        placeholder={String(remaining)}
        className="big-input"
        disabled={disabled}
      />
    </label>
  );
}
