import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { RateLimits } from './rate-limits.ts';
import type { PaymentProvider } from '../providers/provider.ts';
import { SandboxProvider } from '../providers/sandbox.ts';
import { CheckoutService } from './checkouts.ts';
import { InvoiceService } from '../invoices/service.ts';
import { systemClock, type Clock } from './clock.ts';
import { LoginThrottle } from './login-throttle.ts';
import { MerchantService } from './merchants.ts';
import { PaymentService } from './payments.ts';
import { RequestLogWriter } from './request-logs.ts';
import { createWritePath, type WritePath } from './writes.ts';
import { SubscriptionBilling } from '../subscriptions/billing.ts';
import { invoicePortOver } from '../subscriptions/invoice-port.ts';
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
  invoices: InvoiceService;
  /** What time it is for due dates; a test moves it. */
  clock: Clock;
  requestLogs: RequestLogWriter;
  /** The one write path: idempotency claim, one transaction, commit, after-commit tasks. */
  writes: WritePath;
  sandbox: SandboxProvider;
  /** Live-mode provider, when configured. */
  liveProvider: PaymentProvider | undefined;
  publicUrl(): string;
  subscriptions: SubscriptionService;
  subscriptionBilling: SubscriptionBilling;
  subscriptionScheduler: SubscriptionScheduler;
}

export function createServices(
  config: Config,
  database: Database,
  rateLimits: RateLimits,
  log: (error: unknown, message: string) => void,
  liveProvider?: PaymentProvider,
  clock: Clock = systemClock,
): Services {
  const publicUrl = () => config.publicUrl;
  // Checkouts start payments and payments complete checkouts: the getter breaks the cycle.
  const checkouts: CheckoutService = new CheckoutService(
    () => payments,
    publicUrl,
    config.CHECKOUT_TTL_MINUTES,
  );
  const invoices: InvoiceService = new InvoiceService(() => payments, publicUrl, clock);
  const directory = { forMode: (livemode: boolean) => (livemode ? liveProvider : sandbox) };
  const payments: PaymentService = new PaymentService(
    database,
    directory,
    { basisPoints: config.FEE_BASIS_POINTS, fixed: config.FEE_FIXED },
    publicUrl,
    (db, checkoutId, payment) => checkouts.completeWithPayment(db, checkoutId, payment),
    (db, payment) => invoices.applyPaymentOutcome(db, payment),
    log,
  );
  const sandbox: SandboxProvider = new SandboxProvider(
    database,
    payments,
    config.SANDBOX_SETTLE_MS,
    (error) => log(error, 'sandbox settlement failed'),
  );
  const subscriptionBilling = new SubscriptionBilling(
    invoicePortOver(invoices, config.SUBSCRIPTION_RETRY_DAYS),
    clock,
    config.SUBSCRIPTION_RETRY_DAYS,
  );
  // A subscription's invoice paid or its charge failed: in the payment outcome's transaction.
  invoices.onPaymentOutcome((tx, invoice, outcome) =>
    subscriptionBilling.onInvoicePayment(tx, invoice.id, outcome.status),
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
    invoices,
    clock,
    requestLogs: new RequestLogWriter(database, (error) => log(error, 'request log write failed')),
    writes: createWritePath(database, config.IDEMPOTENCY_TTL_HOURS, log),
    sandbox,
    liveProvider,
    publicUrl,
    subscriptions: new SubscriptionService(clock, () => subscriptionScheduler.wake()),
    subscriptionBilling,
    subscriptionScheduler,
  };
}
