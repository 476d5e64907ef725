/**
 * The one error type of the platform. `code` is a closed union: adding a case
 * means adding it to `errorKind` below, and the compiler checks the switch.
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

export interface ErrorKind {
  readonly type: ErrorType;
  readonly status: number;
}

/** Maps each code to its error type and HTTP status; exhaustive by construction. */
export function errorKind(code: ErrorCode): ErrorKind {
  switch (code) {
    case 'parameter_missing':
    case 'parameter_invalid':
    case 'parameter_unknown':
    case 'amount_invalid':
    case 'currency_invalid':
    case 'currency_mismatch':
    case 'phone_invalid':
    case 'email_invalid':
    case 'email_taken':
    case 'body_invalid_json':
    case 'body_too_large':
    case 'body_too_complex':
    case 'parameter_duplicate':
    case 'request_malformed':
    case 'content_type_invalid':
    case 'idempotency_key_too_long':
    case 'limit_invalid':
    case 'cursor_invalid':
    case 'state_transition_invalid':
    case 'insufficient_funds':
    case 'checkout_not_open':
    case 'product_unknown':
    case 'price_changed':
    case 'quantity_invalid':
    case 'tender_insufficient':
    case 'tender_exceeds_due':
    case 'discount_invalid':
    case 'payment_not_paid':
    case 'payment_already_used':
    case 'sku_taken':
    case 'barcode_taken':
    case 'plu_taken':
    case 'receipt_number_taken':
    case 'pin_taken':
    case 'pairing_code_invalid':
    case 'pairing_code_expired':
    case 'pairing_code_used':
    case 'event_type_unknown':
    case 'url_invalid':
    case 'url_not_allowed':
    case 'webhook_endpoint_inactive':
    case 'api_key_last':
    case 'till_export_invalid':
      return { type: 'invalid_request_error', status: 400 };
    case 'livemode_mismatch':
      return { type: 'permission_error', status: 403 };
    case 'request_timeout':
      return { type: 'invalid_request_error', status: 408 };
    case 'headers_too_large':
      return { type: 'invalid_request_error', status: 431 };
    case 'api_key_missing':
    case 'api_key_invalid':
    case 'credentials_invalid':
    case 'signature_invalid':
    case 'till_credential_invalid':
    case 'till_revoked':
    case 'till_retired':
      return { type: 'authentication_error', status: 401 };
    case 'publishable_key_forbidden':
    case 'test_mode_only':
    case 'origin_not_allowed':
    case 'app_not_installed':
      return { type: 'permission_error', status: 403 };
    case 'resource_missing':
    case 'route_not_found':
      return { type: 'not_found', status: 404 };
    case 'idempotency_key_in_use':
      return { type: 'idempotency_error', status: 409 };
    case 'idempotency_key_reused':
      return { type: 'idempotency_error', status: 422 };
    case 'rate_limited':
      return { type: 'rate_limit_error', status: 429 };
    case 'internal_error':
      return { type: 'api_error', status: 500 };
    case 'service_unavailable':
    case 'provider_unavailable':
      return { type: 'api_error', status: 503 };
  }
}

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
