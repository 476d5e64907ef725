import { stateMachine, type TransitionTable } from '../state-machine.ts';

export type InvoiceStatus = 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';
export const INVOICE_STATUSES = [
  'draft',
  'open',
  'paid',
  'void',
  'uncollectible',
] as const satisfies readonly InvoiceStatus[];

/**
 * A draft is edited freely and numbered when finalised (`open`). An open
 * invoice is paid, voided, or written off as uncollectible; money that still
 * arrives for an uncollectible one pays it. `paid` and `void` are final.
 */
export const INVOICE_TRANSITIONS: TransitionTable<InvoiceStatus> = {
  draft: ['open', 'void'],
  open: ['paid', 'void', 'uncollectible'],
  uncollectible: ['paid', 'void'],
  paid: [],
  void: [],
};

export const INVOICE_STATES = stateMachine('invoice', INVOICE_TRANSITIONS);

/** Open and uncollectible invoices take payments; drafts, paid and void ones do not. */
export const invoiceIsPayable = (status: InvoiceStatus): boolean =>
  INVOICE_TRANSITIONS[status].includes('paid');

/** `INV-000123`: per merchant and mode, from a counter taken in the finalising transaction. */
export const formatInvoiceNumber = (sequence: number): string => `INV-${String(sequence).padStart(6, '0')}`;
