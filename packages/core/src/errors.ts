/**
 * The one error type of the platform. `code` is a closed union: adding a case
 * means adding its row to `ERROR_KINDS` below, and the compiler checks the table.
 */
export type ErrorCode =
  // 400 invalid_request_error
  | 'parameter_missing'
  | 'parameter_invalid'
  | 'parameter_unknown'
  | 'amount_invalid'
  | 'currency_invalid'
  | 'currency_mismatch'
  | 'phone_invalid'
  | 'email_invalid'
  | 'email_taken'
  | 'body_invalid_json'
  | 'body_too_large'
  | 'body_too_complex'
  | 'parameter_duplicate'
  | 'request_malformed'
  | 'content_type_invalid'
  | 'idempotency_key_too_long'
  | 'limit_invalid'
  | 'cursor_invalid'
  | 'state_transition_invalid'
  | 'insufficient_funds'
  | 'checkout_not_open'
  | 'product_unknown'
  | 'price_changed'
  | 'quantity_invalid'
  | 'tender_insufficient'
  | 'tender_exceeds_due'
  | 'discount_invalid'
  | 'payment_not_paid'
  | 'payment_already_used'
  | 'sku_taken'
  | 'barcode_taken'
  | 'plu_taken'
  | 'receipt_number_taken'
  | 'pin_taken'
  | 'pairing_code_invalid'
  | 'pairing_code_expired'
  | 'pairing_code_used'
  | 'event_type_unknown'
  | 'url_invalid'
  | 'url_not_allowed'
  | 'webhook_endpoint_inactive'
  | 'api_key_last'
  | 'till_export_invalid'
  | 'livemode_mismatch'
  | 'room_unavailable'
  | 'reservations_in_the_way'
  | 'folio_unsettled'
  | 'sold_out'
  | 'sales_closed'
  | 'tickets_sold'
  // 408, 431 invalid_request_error: the HTTP request itself
  | 'request_timeout'
  | 'headers_too_large'
  // 401 authentication_error
  | 'api_key_missing'
  | 'api_key_invalid'
  | 'credentials_invalid'
  | 'signature_invalid'
  | 'till_credential_invalid'
  | 'till_revoked'
  | 'till_retired'
  // 403 permission_error
  | 'publishable_key_forbidden'
  | 'test_mode_only'
  | 'origin_not_allowed'
  | 'app_not_installed'
  // 404 not_found
  | 'resource_missing'
  | 'route_not_found'
  // 409 / 422 idempotency_error
  | 'idempotency_key_in_use'
  | 'idempotency_key_reused'
  // 429 rate_limit_error
  | 'rate_limited'
  // 500 / 503 api_error
  | 'internal_error'
  | 'service_unavailable'
  | 'provider_unavailable';

export const ERROR_TYPES = [
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'not_found',
  'idempotency_error',
  'rate_limit_error',
  'api_error',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

/**
 * The tRPC error codes our errors travel under to a till (the names of
 * `@trpc/server`'s `TRPC_ERROR_CODE_KEY`; the server checks they are its).
 */
export type TrpcErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'TIMEOUT'
  | 'CONFLICT'
  | 'UNPROCESSABLE_CONTENT'
  | 'TOO_MANY_REQUESTS'
  | 'INTERNAL_SERVER_ERROR'
  | 'SERVICE_UNAVAILABLE';

/** How a code travels: its error type and HTTP status on `/v1`, its tRPC code on `/trpc`. */
export interface ErrorKind {
  readonly type: ErrorType;
  readonly status: number;
  readonly trpc: TrpcErrorCode;
}

const kind = (type: ErrorType, status: number, trpc: TrpcErrorCode): ErrorKind => ({ type, status, trpc });
const INVALID = kind('invalid_request_error', 400, 'BAD_REQUEST');
const UNAUTHENTICATED = kind('authentication_error', 401, 'UNAUTHORIZED');
const FORBIDDEN = kind('permission_error', 403, 'FORBIDDEN');
const NOT_FOUND = kind('not_found', 404, 'NOT_FOUND');
const UNAVAILABLE = kind('api_error', 503, 'SERVICE_UNAVAILABLE');
/** The request is sound but the state of things refuses it (a room already sold): 409. */
const CONFLICT = kind('invalid_request_error', 409, 'CONFLICT');

/**
 * Each code's kind, once: the REST error middleware and the tRPC error
 * formatter both read it. A code missing here, or one here that is not a
 * code, does not compile.
 */
export const ERROR_KINDS = {
  parameter_missing: INVALID,
  parameter_invalid: INVALID,
  parameter_unknown: INVALID,
  amount_invalid: INVALID,
  currency_invalid: INVALID,
  currency_mismatch: INVALID,
  phone_invalid: INVALID,
  email_invalid: INVALID,
  email_taken: INVALID,
  body_invalid_json: INVALID,
  body_too_large: INVALID,
  body_too_complex: INVALID,
  parameter_duplicate: INVALID,
  request_malformed: INVALID,
  content_type_invalid: INVALID,
  idempotency_key_too_long: INVALID,
  limit_invalid: INVALID,
  cursor_invalid: INVALID,
  state_transition_invalid: INVALID,
  insufficient_funds: INVALID,
  checkout_not_open: INVALID,
  product_unknown: INVALID,
  price_changed: INVALID,
  quantity_invalid: INVALID,
  tender_insufficient: INVALID,
  tender_exceeds_due: INVALID,
  discount_invalid: INVALID,
  payment_not_paid: INVALID,
  payment_already_used: INVALID,
  sku_taken: INVALID,
  barcode_taken: INVALID,
  plu_taken: INVALID,
  receipt_number_taken: INVALID,
  pin_taken: INVALID,
  pairing_code_invalid: INVALID,
  pairing_code_expired: INVALID,
  pairing_code_used: INVALID,
  event_type_unknown: INVALID,
  url_invalid: INVALID,
  url_not_allowed: INVALID,
  webhook_endpoint_inactive: INVALID,
  api_key_last: INVALID,
  till_export_invalid: INVALID,
  livemode_mismatch: FORBIDDEN,
  room_unavailable: CONFLICT,
  reservations_in_the_way: CONFLICT,
  folio_unsettled: CONFLICT,
  sold_out: CONFLICT,
  sales_closed: CONFLICT,
  tickets_sold: CONFLICT,
  request_timeout: kind('invalid_request_error', 408, 'TIMEOUT'),
  // tRPC has no 431; Node answers it before any handler runs, so a till never meets it.
  headers_too_large: kind('invalid_request_error', 431, 'BAD_REQUEST'),
  api_key_missing: UNAUTHENTICATED,
  api_key_invalid: UNAUTHENTICATED,
  credentials_invalid: UNAUTHENTICATED,
  signature_invalid: UNAUTHENTICATED,
  till_credential_invalid: UNAUTHENTICATED,
  till_revoked: UNAUTHENTICATED,
  till_retired: UNAUTHENTICATED,
  publishable_key_forbidden: FORBIDDEN,
  test_mode_only: FORBIDDEN,
  origin_not_allowed: FORBIDDEN,
  app_not_installed: FORBIDDEN,
  resource_missing: NOT_FOUND,
  route_not_found: NOT_FOUND,
  idempotency_key_in_use: kind('idempotency_error', 409, 'CONFLICT'),
  idempotency_key_reused: kind('idempotency_error', 422, 'UNPROCESSABLE_CONTENT'),
  rate_limited: kind('rate_limit_error', 429, 'TOO_MANY_REQUESTS'),
  internal_error: kind('api_error', 500, 'INTERNAL_SERVER_ERROR'),
  service_unavailable: UNAVAILABLE,
  provider_unavailable: UNAVAILABLE,
} as const satisfies Record<ErrorCode, ErrorKind>;

/** Every code, for checks that each has what it needs (words on the till, a tRPC status). */
export const ERROR_CODES = Object.keys(ERROR_KINDS) as ErrorCode[];

/** Whether a string from the wire (a newer server's, a stored outcome's) is one of our codes. */
export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERROR_KINDS, value);

export const errorKind = (code: ErrorCode): ErrorKind => ERROR_KINDS[code];

/** Field errors: dotted field path -> message. */
export type ErrorDetails = Record<string, string>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;
  /** Seconds a client should wait, for 429 and 503. */
  readonly retryAfter: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: ErrorDetails; retryAfter?: number } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = options.details;
    this.retryAfter = options.retryAfter;
  }

  get kind(): ErrorKind {
    return errorKind(this.code);
  }

  /** The wire shape every failure takes. */
  toBody(): ErrorBody {
    const body: ErrorBody = { error: this.kind.type, message: this.message, code: this.code };
    if (this.details) body.details = this.details;
    return body;
  }
}

export interface ErrorBody {
  error: ErrorType;
  message: string;
  code: ErrorCode;
  details?: ErrorDetails;
}

export const notFound = (what: string, id: string): AppError =>
  new AppError('resource_missing', `No such ${what}: '${id}'`, { details: { id: `unknown ${what}` } });

export const invalidField = (code: ErrorCode, field: string, message: string): AppError =>
  new AppError(code, message, { details: { [field]: message } });
