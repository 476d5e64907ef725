/** Money and PIN fields sized for a counter: large, numeric keyboards on touch screens. */
import type { ComponentPropsWithRef } from 'react';
import { formatMoney, parseAmount } from '../../i18n/index.tsx';

type Base = Omit<ComponentPropsWithRef<'input'>, 'value' | 'onChange' | 'type'>;

export function AmountInput({
  value,
  onChange,
  currency,
  ...rest
}: Base & { value: string; onChange: (text: string) => void; currency: string }) {
  const amount = parseAmount(value, currency);
  return (
    <span className="amount-input">
      <span className="currency">{currency}</span>
      <input
        {...rest}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        value={value}
        aria-invalid={value !== '' && amount === null}
        onChange={(event) => onChange(event.target.value)}
      />
      {amount !== null && value.replace(/\D/g, '').length > 3 && (
        <span className="amount-echo">{formatMoney(amount, currency)}</span>
      )}
    </span>
  );
}

/** The longest PIN: a scan is longer, so a PIN typed quickly is never taken for one. */
export const PIN_MAX_LENGTH = 6;

export function PinInput({
  value,
  onChange,
  ...rest
}: Base & { value: string; onChange: (pin: string) => void }) {
  return (
    <input
      {...rest}
      className="pin-input"
      type="password"
      inputMode="numeric"
      autoComplete="off"
      maxLength={PIN_MAX_LENGTH}
      value={value}
      onChange={(event) => onChange(event.target.value.replace(/\D/g, '').slice(0, PIN_MAX_LENGTH))}
    />
  );
}

/** Why a pay-in, pay-out, refund or void happened: free text, so `?` types a question mark here. */
export function ReasonInput({ value, onChange }: { value: string; onChange: (reason: string) => void }) {
  return (
    <input
      className="big-input"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      maxLength={200}
      data-free-text
    />
  );
}
