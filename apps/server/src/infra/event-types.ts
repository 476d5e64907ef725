/**
 * Every event type the platform emits, by area. The outbox accepts only these,
 * and the webhook catalogue (OpenAPI `webhooks`, docs/WEBHOOKS.md) is built
 * from this list: a new event type is added here first.
 */
export const EVENT_TYPES = [
  'payment.created',
  'payment.succeeded',
  'payment.failed',
  'payment.refunded',
  'checkout.completed',
  'payout.created',
  'payout.paid',
  'payout.failed',
  // invoices
  'invoice.created',
  'invoice.updated',
  'invoice.finalized',
  'invoice.sent',
  'invoice.paid',
  'invoice.overdue',
  'invoice.voided',
  'invoice.marked_uncollectible',
  'customer.created',
  // escrow
  'escrow.held',
  'escrow.released',
  'escrow.refunded',
  // subscriptions
  'subscription.created',
  'subscription.renewed',
  'subscription.past_due',
  'subscription.canceled',
  // retail
  'product.created',
  'product.updated',
  'product.deleted',
  'category.created',
  'category.updated',
  'category.deleted',
  'store.created',
  'store.updated',
  'stock.adjusted',
  'stock.low',
  'order.created',
  'order.paid',
  'order.refunded',
  'order.voided',
  'order.recovered',
  // tills
  'print_job.created',
  'print_job.printed',
  'print_job.failed',
  'shift.opened',
  'shift.closed',
  // hospitality
  'reservation.created',
  'reservation.confirmed',
  'reservation.checked_in',
  'reservation.checked_out',
  'reservation.canceled',
  'reservation.no_show',
  'folio.closed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
