/**
 * Who acts, for which merchant and in which mode: the one type every service
 * takes, whether the work came from an API key, a dashboard login or a till.
 */

/** The merchant and mode whose data a piece of work reads and writes. */
export interface Tenant {
  merchantId: string;
  livemode: boolean;
}

/**
 * `checkout`: the payer on a hosted checkout page, paying the checkout's merchant;
 * `invoice`: the customer on a hosted invoice page; `subscription`: the scheduler billing a subscription.
 */
export type ActorKind = 'api_key' | 'login' | 'till' | 'checkout' | 'invoice' | 'subscription';

export interface Actor extends Tenant {
  kind: ActorKind;
  /** `publishable` only for a publishable API key; logins and tills act as secret keys of their mode. */
  keyType: 'secret' | 'publishable';
  /** The API key, session, till or checkout id: rate limits and request logs count by it. */
  credentialId: string;
  /** A till acting: its id and store. */
  tillId?: string;
  storeId?: string;
  /** The employee signed in at the till, when a command names one. */
  employeeId?: string;
}

/** A paired till, as its device credential resolves: whose it is, in which mode, at which store. */
export type TillActor = Actor & { kind: 'till'; tillId: string; storeId: string };
