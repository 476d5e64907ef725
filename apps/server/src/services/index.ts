import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { RateLimits } from './rate-limits.ts';
import type { PaymentProvider } from '../providers/provider.ts';
import { SandboxProvider } from '../providers/sandbox.ts';
import { CheckoutService } from './checkouts.ts';
import { LoginThrottle } from './login-throttle.ts';
import { MerchantService } from './merchants.ts';
import { PaymentService } from './payments.ts';
import { RequestLogWriter } from './request-logs.ts';
import { createWritePath, type WritePath } from './writes.ts';
import type { Clock } from './clock.ts';
import { SubscriptionBilling, type InvoicePort } from '../subscriptions/billing.ts';
import { SubscriptionScheduler } from '../subscriptions/scheduler.ts';
import { SubscriptionService } from '../subscriptions/service.ts';

/** Everything a route may call, wired once per server. */
export interface Services {
  config: Config;
  database: Database;
  rateLimits: RateLimits;
  merchants: MerchantService;
  loginThrottle: LoginThrottle;
  payments: PaymentService;
  checkouts: CheckoutService;
  requestLogs: RequestLogWriter;
  /** The one write path: idempotency claim, one transaction, commit, after-commit tasks. */
  writes: WritePath;
  sandbox: SandboxProvider;
  /** Live-mode provider, when configured. */
  liveProvider: PaymentProvider | undefined;
  publicUrl(): string;
  /** What time scheduled work (renewals, retries) takes it to be; tests move it. */
  clock: Clock;
  subscriptions: SubscriptionService;
  subscriptionBilling: SubscriptionBilling;
  subscriptionScheduler: SubscriptionScheduler;
}

export function createServices(
  config: Config,
  database: Database,
  rateLimits: RateLimits,
  log: (error: unknown, message: string) => void,
  liveProvider: PaymentProvider | undefined,
  clock: Clock,
): Services {
  const publicUrl = () => config.publicUrl;
  // Checkouts start payments and payments complete checkouts: the getter breaks the cycle.
  const checkouts: CheckoutService = new CheckoutService(
    () => payments,
    publicUrl,
    config.CHECKOUT_TTL_MINUTES,
  );
  const directory = { forMode: (livemode: boolean) => (livemode ? liveProvider : sandbox) };
  const payments: PaymentService = new PaymentService(
    database,
    directory,
    { basisPoints: config.FEE_BASIS_POINTS, fixed: config.FEE_FIXED },
    publicUrl,
    (db, checkoutId, payment) => checkouts.completeWithPayment(db, checkoutId, payment),
    log,
  );
  const sandbox: SandboxProvider = new SandboxProvider(
    database,
    payments,
    config.SANDBOX_SETTLE_MS,
    (error) => log(error, 'sandbox settlement failed'),
  );
  const invoicePort: InvoicePort = {
    openInvoice: () => Promise.reject(new Error('invoices are not available')),
    chargeInvoice: () => Promise.reject(new Error('invoices are not available')),
  };
  const subscriptionBilling = new SubscriptionBilling(
    () => invoicePort,
    clock,
    config.SUBSCRIPTION_RETRY_DAYS,
  );
  const subscriptionScheduler: SubscriptionScheduler = new SubscriptionScheduler(
    database,
    subscriptionBilling,
    clock,
    config.SUBSCRIPTION_POLL_INTERVAL_MS,
    log,
  );
  return {
    config,
    database,
    rateLimits,
    merchants: new MerchantService(config.SESSION_TTL_HOURS, config.AUTH_CACHE_SECONDS),
    loginThrottle: new LoginThrottle(rateLimits.loginPerEmail, rateLimits.loginPerAddress),
    payments,
    checkouts,
    requestLogs: new RequestLogWriter(database, (error) => log(error, 'request log write failed')),
    writes: createWritePath(database, config.IDEMPOTENCY_TTL_HOURS, log),
    sandbox,
    liveProvider,
    publicUrl,
    clock,
    subscriptions: new SubscriptionService(clock, () => subscriptionScheduler.wake()),
    subscriptionBilling,
    subscriptionScheduler,
  };
}
