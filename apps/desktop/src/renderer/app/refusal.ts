/** A store refusal (or any failure) in the cashier's language. */
import type { RefusalCode, TillRefusal } from '../data/api.ts';
import { formatTime, type Translate } from '../i18n/index.tsx';

function isRefusal(error: unknown): error is TillRefusal {
  return error instanceof Error && error.name === 'TillRefusal' && 'code' in error;
}

export function refusalCode(error: unknown): RefusalCode | null {
  return isRefusal(error) ? error.code : null;
}

export function refusalText(t: Translate, error: unknown): string {
  if (!isRefusal(error)) {
    return t('refusal_unknown', { message: error instanceof Error ? error.message : String(error) });
  }
  const { details } = error;
  const until = typeof details.until === 'number' ? formatTime(details.until) : '';
  return t(`refusal_${error.code}`, { count: details.count ?? '', time: until });
}
