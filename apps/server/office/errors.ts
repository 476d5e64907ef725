/** An API error as a sentence in the user's language, naming the fields the server named. */
import { ApiError, NETWORK_ERROR } from './api.ts';
import type { MessageKey } from './i18n/index.ts';
import { formatMoney } from './shared.ts';

type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

/** A page's own words for the codes and fields its API calls can meet, beside the shared ones. */
export interface ErrorWords {
  codes?: Partial<Record<string, MessageKey>>;
  fields?: Partial<Record<string, MessageKey>>;
}

const FIELD_WORDS: Record<string, MessageKey> = {
  email: 'fieldEmail',
  password: 'fieldPassword',
  name: 'fieldName',
  store: 'fieldStore',
  new_password: 'fieldNewPassword',
  current_password: 'fieldCurrentPassword',
  amount: 'payFieldAmount',
  phone: 'payFieldPhone',
  'destination.phone': 'payFieldPhone',
  created_gte: 'payFieldFrom',
  created_lte: 'payFieldTo',
  customer: 'payFieldCustomer',
  unit_amount: 'payFieldUnitPrice',
  description: 'payFieldDescription',
  quantity: 'payFieldQuantity',
};

export function errorText(
  t: Translate,
  error: unknown,
  language: 'sw' | 'en',
  words: ErrorWords = {},
): string {
  if (!(error instanceof ApiError)) return t('errorOther', { message: String(error) });
  const own = words.codes?.[error.code];
  if (own) return t(own);
  switch (error.code) {
    case NETWORK_ERROR:
      return t('errorNetwork');
    case 'credentials_invalid':
      return t(error.details.current_password ? 'errorCurrentPassword' : 'errorCredentials');
    case 'rate_limited':
      return t('errorRateLimited', { seconds: error.retryAfter ?? 60 });
    case 'origin_not_allowed':
      return t('errorOrigin');
    case 'insufficient_funds':
      return t('payErrorFunds');
    case 'room_unavailable':
      return t('errorRoomUnavailable');
    case 'folio_unsettled':
      return t('errorFolioUnsettled', { amount: formatMoney(Number(error.details.balance ?? 0)) });
    case 'reservations_in_the_way':
      return t('errorReservationsInTheWay', { reservations: error.details.reservations ?? error.message });
    case 'state_transition_invalid':
      return t('payErrorState');
    case 'service_unavailable':
    case 'internal_error':
      return t('errorUnavailable');
  }
  const fields = Object.entries(error.details).map(([field, reason]) => {
    // A list entry (`stores.1`) is named by its list; a field within one (`lines.0.unit_amount`) by its last part.
    const key =
      words.fields?.[field] ??
      words.fields?.[field.split('.')[0]!] ??
      FIELD_WORDS[field] ??
      FIELD_WORDS[field.split('.').at(-1)!];
    const word = key ? t(key) : field;
    // The server's reason is in English: shown beside the field in English only.
    return language === 'en' ? `${word} ${reason}` : word;
  });
  return fields.length > 0
    ? t('errorInvalid', { fields: fields.join(', ') })
    : t('errorOther', { message: error.message });
}
