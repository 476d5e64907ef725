import type { Logger } from 'pino';
import { ID_PREFIXES, type PrinterAllowance } from '@tz/core';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { RateLimits } from './infra/rate-limits.ts';
import type { SecretBox } from './infra/secrets-at-rest.ts';
import type {
  OutcomeSink,
  PaymentProvider,
  PayoutOutcomeSink,
  PayoutProvider,
} from './providers/provider.ts';
import { ClickPesaProvider, clickPesaOptionsFrom } from './providers/clickpesa.ts';
import { ClickPesaReconciler } from './providers/clickpesa-reconciler.ts';
import { SandboxProvider } from './providers/sandbox.ts';
import { AccountService } from './merchants/account.ts';
import { AppInstallations } from './merchants/apps.ts';
import { CheckoutService } from './checkouts/service.ts';
import { CustomerService } from './customers/service.ts';
import { EscrowService } from './escrow/service.ts';
import { EscrowTransfers } from './escrow/transfers.ts';
import { EventSignal } from './infra/events.ts';
import { purgeExpiredIdempotencyKeys } from './infra/idempotency.ts';
import { LedgerService } from './ledger/service.ts';
import { InvoiceCollection } from './invoices/collection.ts';
import { InvoiceService } from './invoices/service.ts';
import { HostedInvoices } from './invoices/hosted.ts';
import { OverdueInvoices } from './invoices/overdue.ts';
import { CatalogService } from './retail/catalog.ts';
import { CatalogueFile } from './retail/catalogue-file.ts';
import { OrderService } from './retail/orders.ts';
import { RetailOverview } from './retail/overview.ts';
import { DigitalReceipts } from './retail/receipt-links.ts';
import { StockService } from './retail/stock.ts';
import { StoreService } from './retail/stores.ts';
import { PropertyService } from './hospitality/property.ts';
import { RoomService } from './hospitality/rooms.ts';
import { DeskConflicts } from './hospitality/desk-conflicts.ts';
import { ReservationService } from './hospitality/reservations.ts';
import { AvailabilityService } from './hospitality/availability.ts';
import { GuestRegister } from './hospitality/guests.ts';
import { ChannelService } from './hospitality/channels.ts';
import { ChannelImports } from './hospitality/channels-import.ts';
import { FolioService } from './hospitality/folio.ts';
import { NightAudit } from './hospitality/night-audit.ts';
import { EventService } from './events/events.ts';
import { TierService } from './events/tiers.ts';
import { BoxOfficeService } from './events/box-office.ts';
import { EventOrderService } from './events/orders.ts';
import { TicketPages } from './events/ticket-page.ts';
import { EventHolds } from './events/holds.ts';
import { CheckinService } from './events/checkin.ts';
import { PromoService } from './events/promos.ts';
import { PdfRenderer } from './invoices/renderer.ts';
import { InvoiceDocuments } from './invoices/stored-documents.ts';
import { ReferralEarner } from './referrals/earner.ts';
import { ReferralService } from './referrals/service.ts';
import { systemClock, type Clock } from './infra/clock.ts';
import { LoginThrottle } from './infra/login-throttle.ts';
import { MerchantService } from './merchants/service.ts';
import { SessionService } from './merchants/sessions.ts';
import { OverviewService } from './overview/service.ts';
import { PaymentService } from './payments/service.ts';
import { PayoutService } from './payouts/service.ts';
import { Poller } from './infra/poller.ts';
import { RequestLogs } from './infra/request-logs.ts';
import { createWritePath, type WritePath } from './infra/writes.ts';
import { SubscriptionBilling } from './subscriptions/billing.ts';
import { voidAfterFailedCharge } from './subscriptions/cancel-invoices.ts';
import { invoicePortOver } from './subscriptions/invoice-port.ts';
import { SubscriptionScheduler } from './subscriptions/scheduler.ts';
import { SubscriptionService } from './subscriptions/service.ts';
import { SyncService } from './sync/service.ts';
import { EmployeeService } from './tills/employees.ts';
import { PayrollService } from './people/payroll.ts';
import { SalaryBandService } from './people/salary-bands.ts';
import { PrintJobService } from './tills/print-jobs.ts';
import { PrinterService } from './tills/printers.ts';
import { TillRecovery } from './sync/recovery.ts';
import { ShiftService } from './tills/shifts.ts';
import { TillService } from './tills/tills.ts';
import { WebhookDispatcher } from './webhooks/dispatcher.ts';
import { WebhookService } from './webhooks/service.ts';

/** The work every process does in the background, started and stopped with the server. */
export interface BackgroundWork {
  start(): void;
  stop(): Promise<void>;
}

/** Everything a route, a page or the tills' door may call, wired once per server. */
export interface Services {
  config: Config;
  /** Where tills may be sent to print, besides printer ports on the shop's network (`PRINTER_*`). */
  printerAllowance: PrinterAllowance;
  database: Database;
  rateLimits: RateLimits;
  /** Seals and opens the secrets kept in the database (webhook signing secrets). */
  secretBox: SecretBox;
  /** What time it is for due dates; a test moves it. */
  clock: Clock;
  /** The server's log, for failures no caller sees. */
  logger: Logger;
  /** This process's word that committed writes recorded events. */
  events: EventSignal;
  /** The one write path: idempotency claim, one transaction, commit, after-commit tasks. */
  writes: WritePath;
  publicUrl: string;
  merchants: MerchantService;
  /** The business's name, in both modes. */
  account: AccountService;
  /** Which apps each merchant has installed, per mode (cached briefly per process). */
  apps: AppInstallations;
  loginThrottle: LoginThrottle;
  /** The back office's browser sessions, sign-out and password changes. */
  sessions: SessionService;
  requestLogs: RequestLogs;
  customers: CustomerService;
  ledger: LedgerService;
  overview: OverviewService;
  payments: PaymentService;
  payouts: PayoutService;
  checkouts: CheckoutService;
  escrow: EscrowService;
  escrowTransfers: EscrowTransfers;
  invoices: InvoiceService;
  invoiceCollection: InvoiceCollection;
  /** The hosted invoice page's reads and payments, by token. */
  hostedInvoices: HostedInvoices;
  /** Lays invoice PDFs out in worker threads; closed with the server. */
  pdfRenderer: PdfRenderer;
  subscriptions: SubscriptionService;
  subscriptionBilling: SubscriptionBilling;
  subscriptionScheduler: SubscriptionScheduler;
  referrals: ReferralService;
  referralEarner: ReferralEarner;
  catalog: CatalogService;
  /** The catalogue as a CSV file: import and export. */
  catalogueFile: CatalogueFile;
  stores: StoreService;
  stock: StockService;
  /** Hospitality: the property, room types and rates; rooms and blackouts; reservations. */
  property: PropertyService;
  rooms: RoomService;
  reservations: ReservationService;
  availability: AvailabilityService;
  /** The guest register: who stays, and the card they sign. */
  guests: GuestRegister;
  /** Channels: each room type's iCal export, imported feeds and their conflicts. */
  channels: ChannelService;
  /** The feeds' scheduled imports (a `Poller`). */
  channelImports: ChannelImports;
  /** Each reservation's folio, and the night audit that posts its nights. */
  folio: FolioService;
  nightAudit: NightAudit;
  /** Ticketed events: the organizer and events, their tiers, ticket orders and their holds, check-in. */
  ticketedEvents: EventService;
  eventTiers: TierService;
  eventPromos: PromoService;
  eventOrders: EventOrderService;
  /** A paid order's tickets as the buyer's page shows them (`/t/{token}`, `/pay/{id}`). */
  ticketPages: TicketPages;
  /** Releases the tickets of holds that ran out unpaid (a `Poller`). */
  eventHolds: EventHolds;
  checkins: CheckinService;
  orders: OrderService;
  retailOverview: RetailOverview;
  /** Sales' receipt pages, by the till's token. */
  receipts: DigitalReceipts;
  tills: TillService;
  tillRecovery: TillRecovery;
  employees: EmployeeService;
  payroll: PayrollService;
  salaryBands: SalaryBandService;
  printers: PrinterService;
  printJobs: PrintJobService;
  shifts: ShiftService;
  /** What a till does with the server: pair, pull, push, report, take mobile money. */
  sync: SyncService;
  webhooks: WebhookService;
  webhookDispatcher: WebhookDispatcher;
  sandbox: SandboxProvider;
  /** Live-mode provider, when configured. */
  liveProvider: ClickPesaProvider | undefined;
  background: BackgroundWork;
}

/**
 * The composition root: every service built once, each given what it calls in
 * its constructor. Where a lower service must tell a higher one of something
 * (a payment's outcome to its checkout or invoice, an invoice's to its
 * subscription, a provider's to the payment), it declares a port and this is
 * where the port is implemented.
 */
export function createServices(
  config: Config,
  database: Database,
  rateLimits: RateLimits,
  secretBox: SecretBox,
  logger: Logger,
  clock: Clock = systemClock,
): Services {
  const publicUrl = config.publicUrl;
  const events = new EventSignal();
  const clickPesaOptions = clickPesaOptionsFrom(config);
  // A live provider's outcomes: escrow transfers go out as payouts named by their split and attempt (docs/ESCROW.md).
  const outcomes: OutcomeSink & PayoutOutcomeSink = {
    applyOutcome: (id, outcome) => payments.applyOutcome(id, outcome),
    applyPayoutOutcome: (id, outcome) =>
      id.startsWith(`${ID_PREFIXES.escrowSplit}_`)
        ? escrowTransfers.applyProviderOutcome(id, outcome)
        : payouts.applyPayoutOutcome(id, outcome),
  };
  const liveProvider = clickPesaOptions
    ? new ClickPesaProvider(clickPesaOptions, outcomes, logger)
    : undefined;
  const providers = {
    forMode: (livemode: boolean): (PaymentProvider & PayoutProvider) | undefined =>
      livemode ? liveProvider : sandbox,
  };

  const ledger = new LedgerService();
  const payments: PaymentService = new PaymentService(
    database,
    providers,
    { basisPoints: config.FEE_BASIS_POINTS, fixed: config.FEE_FIXED },
    publicUrl,
    {
      // A checkout paid, then the ticket order it was opened for (when it was): in the outcome's transaction.
      checkoutPaid: async (db, checkoutId, payment) => {
        await checkouts.completeWithPayment(db, checkoutId, payment);
        await eventOrders.checkoutPaid(db, checkoutId, payment);
      },
      invoicePayment: (db, payment) => invoiceCollection.applyPaymentOutcome(db, payment),
      folioPayment: (db, payment) => folio.applyPaymentOutcome(db, payment),
      paymentRefunded: (db, payment) => eventOrders.paymentRefunded(db, payment),
    },
    events,
    logger,
  );
  const payouts = new PayoutService(database, providers, events, logger);
  const folio = new FolioService(clock, payments);
  const nightAudit = new NightAudit(database, clock, config.NIGHT_AUDIT_INTERVAL_MS, logger);
  const sandbox = new SandboxProvider(database, payments, payouts, config.SANDBOX_SETTLE_MS, logger);
  const checkouts = new CheckoutService(payments, publicUrl, config.CHECKOUT_TTL_MINUTES);
  const escrowTransfers = new EscrowTransfers(database, events, logger, liveProvider);
  const eventOrders = new EventOrderService(
    clock,
    checkouts,
    payments,
    secretBox,
    config.EVENT_HOLD_MINUTES,
    publicUrl,
    logger,
  );
  const eventHolds = new EventHolds(database, eventOrders, clock, config.EVENT_HOLD_INTERVAL_MS, logger);

  const pdfRenderer = new PdfRenderer({
    workers: config.PDF_WORKERS,
    queueMax: config.PDF_QUEUE_MAX,
    timeoutMs: config.PDF_RENDER_TIMEOUT_MS,
  });
  const invoices = new InvoiceService(publicUrl, clock, new InvoiceDocuments(pdfRenderer));
  const invoiceCollection: InvoiceCollection = new InvoiceCollection(invoices, payments, {
    // A subscription's invoice paid or its charge failed, then a charge that failed after its
    // subscription was canceled now voids the invoice: in the payment outcome's transaction.
    async paymentOutcome(tx, invoice, outcome) {
      await subscriptionBilling.onInvoicePayment(tx, invoice.id, outcome.status);
      await voidAfterFailedCharge(tx, invoices, invoice, outcome);
    },
  });
  const subscriptionBilling = new SubscriptionBilling(
    invoicePortOver(invoices, invoiceCollection, config.SUBSCRIPTION_RETRY_DAYS),
    clock,
    config.SUBSCRIPTION_RETRY_DAYS,
  );
  const subscriptionScheduler = new SubscriptionScheduler(
    database,
    subscriptionBilling,
    clock,
    config.SUBSCRIPTION_POLL_INTERVAL_MS,
    events,
    logger,
  );

  const merchants = new MerchantService(config.SESSION_TTL_HOURS, config.AUTH_CACHE_SECONDS);
  const loginThrottle = new LoginThrottle(rateLimits.login);
  const writes = createWritePath(database, config.IDEMPOTENCY_TTL_HOURS, events, logger);
  const apps = new AppInstallations(config.AUTH_CACHE_SECONDS);
  const catalog = new CatalogService();
  const guests = new GuestRegister();
  const customers = new CustomerService();
  const tills = new TillService();
  const orders = new OrderService();
  const shifts = new ShiftService();
  const printJobs = new PrintJobService();
  const reservations = new ReservationService(clock, guests, folio);
  const rooms = new RoomService();
  const checkins = new CheckinService(clock);
  const sync = new SyncService(
    database,
    writes,
    apps,
    tills,
    payments,
    {
      orders,
      shifts,
      printJobs,
      customers,
      reservations,
      folio,
      rooms,
      checkins,
      deskConflicts: new DeskConflicts(clock),
      boxOffice: new BoxOfficeService(clock, eventOrders),
    },
    events,
    publicUrl,
    clock,
    logger,
  );
  const channelImports = new ChannelImports(database, reservations, clock, events, logger, {
    intervalSeconds: config.CHANNEL_IMPORT_INTERVAL_SECONDS,
    allowPrivateUrls: config.CHANNEL_ALLOW_PRIVATE_URLS,
  });
  const referralEarner = new ReferralEarner(database, events, logger);
  const webhookDispatcher = new WebhookDispatcher(database, config, secretBox, events, logger);
  const overdueInvoices = new OverdueInvoices(database, invoices, clock, events, logger);
  const reconciler =
    liveProvider &&
    new ClickPesaReconciler(
      database,
      liveProvider,
      outcomes,
      escrowTransfers,
      logger,
      config.PROVIDER_RECONCILE_INTERVAL_MS,
    );
  // Expired idempotency keys go hourly.
  const janitor = new Poller(
    async () => (await purgeExpiredIdempotencyKeys(database.pool, config.IDEMPOTENCY_TTL_HOURS), false),
    { intervalMs: 3_600_000, logger, failure: 'idempotency purge failed' },
  );
  let resumingTransfers: Promise<void> = Promise.resolve();

  return {
    config,
    printerAllowance: { ports: config.PRINTER_ALLOWED_PORTS, loopback: config.PRINTER_ALLOW_LOOPBACK },
    database,
    rateLimits,
    secretBox,
    clock,
    logger,
    events,
    writes,
    publicUrl,
    merchants,
    account: new AccountService(),
    apps,
    loginThrottle,
    sessions: new SessionService(merchants, loginThrottle),
    requestLogs: new RequestLogs(database, logger),
    customers,
    ledger,
    overview: new OverviewService(),
    payments,
    payouts,
    checkouts,
    escrow: new EscrowService(escrowTransfers),
    escrowTransfers,
    invoices,
    invoiceCollection,
    hostedInvoices: new HostedInvoices(invoices, invoiceCollection),
    pdfRenderer,
    subscriptions: new SubscriptionService(clock, invoices, subscriptionScheduler),
    subscriptionBilling,
    subscriptionScheduler,
    referrals: new ReferralService(),
    referralEarner,
    catalog,
    catalogueFile: new CatalogueFile(catalog),
    stores: new StoreService(),
    property: new PropertyService(),
    rooms,
    reservations,
    guests,
    availability: new AvailabilityService(),
    folio,
    nightAudit,
    channels: new ChannelService(reservations, clock, {
      publicUrl,
      allowPrivateUrls: config.CHANNEL_ALLOW_PRIVATE_URLS,
    }),
    channelImports,
    ticketedEvents: new EventService(secretBox, eventOrders),
    eventTiers: new TierService(),
    eventPromos: new PromoService(),
    eventOrders,
    ticketPages: new TicketPages(),
    eventHolds,
    checkins,
    stock: new StockService(),
    orders,
    retailOverview: new RetailOverview(),
    receipts: new DigitalReceipts(),
    tills,
    tillRecovery: new TillRecovery(database, sync),
    employees: new EmployeeService(),
    payroll: new PayrollService(clock),
    salaryBands: new SalaryBandService(),
    printers: new PrinterService(),
    printJobs,
    shifts,
    sync,
    webhooks: new WebhookService(secretBox, {
      allowPrivateUrls: config.WEBHOOK_ALLOW_PRIVATE_URLS,
      rotationGraceSeconds: config.WEBHOOK_ROTATION_GRACE_SECONDS,
    }),
    webhookDispatcher,
    sandbox,
    liveProvider,
    background: {
      start() {
        // Test payments settle when due, including those a stopped process left due.
        sandbox.start();
        // Test transfers from escrow a stopped process left sending (live ones: the reconciler).
        resumingTransfers = escrowTransfers.resume();
        // Invoices past their due date are announced once, by whichever process sees them first.
        overdueInvoices.start();
        janitor.start();
        // Referral earnings: cross-merchant work, credited in the background (docs/APPS.md).
        referralEarner.start();
        if (config.WEBHOOK_DISPATCH) webhookDispatcher.start();
        if (config.SUBSCRIPTION_SCHEDULER) subscriptionScheduler.start();
        // Each stay in house charged its nights as they come (docs/HOSPITALITY.md).
        if (config.NIGHT_AUDIT) nightAudit.start();
        // Live payments, payouts and transfers whose callback was lost (docs/PROVIDERS.md).
        reconciler?.start();
        // Channels' iCal feeds, each fetched when due by one process (docs/HOSPITALITY.md).
        channelImports.start();
        // Ticket holds that ran out unpaid give their tickets back (docs/EVENTS.md).
        if (config.EVENT_HOLD_RELEASE) eventHolds.start();
      },
      async stop() {
        await janitor.stop();
        await reconciler?.stop();
        await subscriptionScheduler.stop();
        await nightAudit.stop();
        await sandbox.stop();
        await referralEarner.stop();
        await resumingTransfers;
        await overdueInvoices.stop();
        await webhookDispatcher.stop();
        await channelImports.stop();
        await eventHolds.stop();
      },
    },
  };
}
