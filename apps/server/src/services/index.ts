import type { PrinterAllowance } from '@tz/core';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { RateLimits } from './rate-limits.ts';
import type { SecretBox } from './secrets-at-rest.ts';
import type { PaymentProvider, PayoutProvider } from '../providers/provider.ts';
import { SandboxProvider } from '../providers/sandbox.ts';
import { AppInstallations } from './apps.ts';
import { CheckoutService } from './checkouts.ts';
import { EscrowService } from './escrow.ts';
import { EscrowTransfers } from './escrow-transfers.ts';
import { InvoiceService } from '../invoices/service.ts';
import { HostedInvoices } from '../invoices/hosted.ts';
import { DigitalReceipts } from '../retail/receipt-links.ts';
import { PdfRenderer } from '../invoices/renderer.ts';
import { InvoiceDocuments } from '../invoices/stored-documents.ts';
import { systemClock, type Clock } from './clock.ts';
import { LoginThrottle } from './login-throttle.ts';
import { MerchantService } from './merchants.ts';
import { SessionService } from './sessions.ts';
import { PaymentService } from './payments.ts';
import { PayoutService } from './payouts.ts';
import { RequestLogWriter } from './request-logs.ts';
import { createWritePath, type WritePath } from './writes.ts';
import { SubscriptionBilling } from '../subscriptions/billing.ts';
import { invoicePortOver } from '../subscriptions/invoice-port.ts';
import { SubscriptionScheduler } from '../subscriptions/scheduler.ts';
import { SubscriptionService } from '../subscriptions/service.ts';
import { voidAfterFailedCharge } from '../subscriptions/cancel-invoices.ts';

/** Everything a route may call, wired once per server. */
export interface Services {
  config: Config;
  /** Where tills may be sent to print, besides printer ports on the shop's network (`PRINTER_*`). */
  printerAllowance: PrinterAllowance;
  database: Database;
  rateLimits: RateLimits;
  /** Seals and opens the secrets kept in the database (webhook signing secrets). */
  secretBox: SecretBox;
  merchants: MerchantService;
  /** Which apps each merchant has installed, per mode (cached briefly per process). */
  apps: AppInstallations;
  loginThrottle: LoginThrottle;
  /** The back office's browser sessions, sign-out and password changes. */
  sessions: SessionService;
  payments: PaymentService;
  payouts: PayoutService;
  checkouts: CheckoutService;
  escrow: EscrowService;
  escrowTransfers: EscrowTransfers;
  invoices: InvoiceService;
  /** The hosted invoice page's reads and payments, by token. */
  hostedInvoices: HostedInvoices;
  /** Sales' receipt pages, by the till's token. */
  receipts: DigitalReceipts;
  /** Lays invoice PDFs out in worker threads; closed with the server. */
  pdfRenderer: PdfRenderer;
  /** What time it is for due dates; a test moves it. */
  clock: Clock;
  /** The server's error log, for failures no caller sees. */
  log: (error: unknown, message: string) => void;
  requestLogs: RequestLogWriter;
  /** The one write path: idempotency claim, one transaction, commit, after-commit tasks. */
  writes: WritePath;
  sandbox: SandboxProvider;
  /** Live-mode provider, when configured. */
  liveProvider: (PaymentProvider & PayoutProvider) | undefined;
  publicUrl(): string;
  subscriptions: SubscriptionService;
  subscriptionBilling: SubscriptionBilling;
  subscriptionScheduler: SubscriptionScheduler;
}

export function createServices(
  config: Config,
  database: Database,
  rateLimits: RateLimits,
  secretBox: SecretBox,
  log: (error: unknown, message: string) => void,
  liveProvider?: PaymentProvider & PayoutProvider,
  clock: Clock = systemClock,
): Services {
  const publicUrl = () => config.publicUrl;
  // Checkouts start payments and payments complete checkouts: the getter breaks the cycle.
  const checkouts: CheckoutService = new CheckoutService(
    () => payments,
    publicUrl,
    config.CHECKOUT_TTL_MINUTES,
  );
  const pdfRenderer = new PdfRenderer({
    workers: config.PDF_WORKERS,
    queueMax: config.PDF_QUEUE_MAX,
    timeoutMs: config.PDF_RENDER_TIMEOUT_MS,
  });
  const invoices: InvoiceService = new InvoiceService(
    () => payments,
    publicUrl,
    clock,
    new InvoiceDocuments(pdfRenderer),
  );
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
  const payouts = new PayoutService(database, directory, log);
  const sandbox: SandboxProvider = new SandboxProvider(
    database,
    payments,
    payouts,
    config.SANDBOX_SETTLE_MS,
    (error) => log(error, 'sandbox settlement failed'),
  );
  const escrowTransfers = new EscrowTransfers(database, log, liveProvider);
  const subscriptionBilling = new SubscriptionBilling(
    invoicePortOver(invoices, config.SUBSCRIPTION_RETRY_DAYS),
    clock,
    config.SUBSCRIPTION_RETRY_DAYS,
  );
  // A subscription's invoice paid or its charge failed: in the payment outcome's transaction.
  invoices.onPaymentOutcome((tx, invoice, outcome) =>
    subscriptionBilling.onInvoicePayment(tx, invoice.id, outcome.status),
  );
  // A charge that fails after its subscription was canceled now: the invoice is voided then.
  invoices.onPaymentOutcome(voidAfterFailedCharge(invoices));
  const subscriptionScheduler: SubscriptionScheduler = new SubscriptionScheduler(
    database,
    subscriptionBilling,
    clock,
    config.SUBSCRIPTION_POLL_INTERVAL_MS,
    log,
  );
  const merchants = new MerchantService(config.SESSION_TTL_HOURS, config.AUTH_CACHE_SECONDS);
  const loginThrottle = new LoginThrottle(rateLimits.login);
  return {
    config,
    printerAllowance: { ports: config.PRINTER_ALLOWED_PORTS, loopback: config.PRINTER_ALLOW_LOOPBACK },
    database,
    rateLimits,
    secretBox,
    merchants,
    apps: new AppInstallations(config.AUTH_CACHE_SECONDS),
    loginThrottle,
    sessions: new SessionService(merchants, loginThrottle),
    payments,
    payouts,
    checkouts,
    escrow: new EscrowService(escrowTransfers),
    escrowTransfers,
    invoices,
    hostedInvoices: new HostedInvoices(invoices),
    receipts: new DigitalReceipts(),
    pdfRenderer,
    clock,
    log,
    requestLogs: new RequestLogWriter(database, (error) => log(error, 'request log write failed')),
    writes: createWritePath(database, config.IDEMPOTENCY_TTL_HOURS, log),
    sandbox,
    liveProvider,
    publicUrl,
    subscriptions: new SubscriptionService(clock, invoices, () => subscriptionScheduler.wake()),
    subscriptionBilling,
    subscriptionScheduler,
  };
}
