/**
 * Cash taken at the desk (a deposit, a payment at check-out): in shillings, or
 * in a currency the property takes (core's `deskCurrencies`: dollars at its
 * `usd_rate`), with what it is worth in shillings beside it and any
 * shillings besides (the few a dollar amount cannot make up exactly).
 */
import { deskCurrencies, minorUnitsOf, shillingsOf, type DeskCurrency } from '@tz/core';
import type { DeskView, ForeignCash } from '../../../data/api.ts';
import { formatMoney, parseAmount, useI18n } from '../../../i18n/index.tsx';
import { Segmented } from '../../../ui/Segmented.tsx';
import { AmountInput } from '../../components/inputs.tsx';

export interface CashTyped {
  /** `TZS`, or a currency of `deskCurrencies`. */
  currency: string;
  shillings: string;
  foreign: string;
}

export const NO_CASH: CashTyped = { currency: 'TZS', shillings: '', foreign: '' };

export interface CashTaken {
  shillings: number;
  foreign: ForeignCash | null;
  /** All of it in shillings, at the property's rate. */
  worth: number;
}

/** What was typed, read in its currencies; null while something cannot be read. */
export function cashTaken(typed: CashTyped, accepted: readonly DeskCurrency[]): CashTaken | null {
  const shillings = typed.shillings.trim() === '' ? 0 : parseAmount(typed.shillings, 'TZS');
  if (shillings === null) return null;
  const rate = accepted.find((one) => one.currency === typed.currency);
  if (!rate || typed.foreign.trim() === '') return { shillings, foreign: null, worth: shillings };
  const amount = parseAmount(typed.foreign, rate.currency);
  if (amount === null) return null;
  if (amount === 0) return { shillings, foreign: null, worth: shillings };
  const worth = shillings + shillingsOf({ currency: rate.currency, amount, rate: rate.rate });
  return { shillings, foreign: { currency: rate.currency, amount }, worth };
}

export function DeskCashFields({
  property,
  label,
  value,
  onChange,
  onCurrency,
  testId,
  autoFocus = false,
}: {
  property: DeskView['property'];
  label: string;
  value: CashTyped;
  onChange: (typed: CashTyped) => void;
  /** A currency chosen: the caller may fill in the amounts (a balance, in that currency). */
  onCurrency?: (currency: string) => CashTyped;
  testId: string;
  autoFocus?: boolean;
}) {
  const { t } = useI18n();
  const accepted = deskCurrencies(property);
  const rate = accepted.find((one) => one.currency === value.currency);
  const options = [['TZS', 'TZS'] as const, ...accepted.map((one) => [one.currency, one.currency] as const)];
  const foreignAmount = rate ? parseAmount(value.foreign, rate.currency) : null;
  return (
    <fieldset className="desk-cash" data-testid={testId}>
      <legend>{label}</legend>
      {accepted.length > 0 && (
        <Segmented
          options={options}
          value={value.currency}
          onChange={(currency) =>
            onChange(onCurrency ? onCurrency(currency) : { ...NO_CASH, currency, shillings: value.shillings })
          }
          label={t('deskCurrency')}
        />
      )}
      {rate && (
        <label>
          {t('deskCashIn', { currency: rate.currency })}
          <AmountInput
            value={value.foreign}
            onChange={(foreign) => onChange({ ...value, foreign })}
            currency={rate.currency}
            autoFocus={autoFocus}
            data-testid={`${testId}-foreign`}
          />
          <span className="muted" data-testid={`${testId}-worth`}>
            {t('deskCashWorth', {
              amount: formatMoney(
                foreignAmount
                  ? shillingsOf({ currency: rate.currency, amount: foreignAmount, rate: rate.rate })
                  : 0,
                'TZS',
              ),
              rate: formatMoney(rate.rate, 'TZS'),
              currency: rate.currency,
            })}
          </span>
        </label>
      )}
      <label>
        {rate ? t('deskCashAlsoShillings') : t('deskCashIn', { currency: 'TZS' })}
        <AmountInput
          value={value.shillings}
          onChange={(shillings) => onChange({ ...value, shillings })}
          currency="TZS"
          autoFocus={autoFocus && !rate}
          data-testid={`${testId}-shillings`}
        />
      </label>
    </fieldset>
  );
}

/** The currency's smallest units typed back as the cashier would type them (`49.05`). */
export function typedAmount(amount: number, currency: string): string {
  const digits = minorUnitsOf(currency);
  return digits === 0 ? String(amount) : (amount / 10 ** digits).toFixed(digits);
}
