import type { AppSlug } from '@tz/core';
import type { AnyRoute } from '../../http/route.ts';
import { accountRoutes } from './account.ts';
import { appRoutes } from './apps.ts';
import { merchantOverviewRoutes } from './overview.ts';
import { referralRoutes } from './referrals.ts';
import { checkoutRoutes } from './checkout.ts';
import { customerRoutes } from './customers.ts';
import { employeeRoutes } from './employees.ts';
import { salaryBandRoutes } from './salary-bands.ts';
import { statutoryRoutes } from './statutory.ts';
import { escrowRoutes } from './escrow.ts';
import { invoiceRoutes } from './invoices.ts';
import { balanceRoutes } from './balance.ts';
import { transactionRoutes } from './transactions.ts';
import { logRoutes } from './logs.ts';
import { merchantRoutes } from './merchants.ts';
import { apiKeyRoutes } from './api-keys.ts';
import { orderRoutes } from './orders.ts';
import { retailOrderRoutes } from './retail/orders.ts';
import { paymentRoutes } from './payments.ts';
import { payoutRoutes } from './payouts.ts';
import { printRoutes } from './print.ts';
import { printJobRoutes } from './print-jobs.ts';
import { printerRoutes } from './printers.ts';
import { categoryRoutes } from './retail/categories.ts';
import { overviewRoutes } from './retail/overview.ts';
import { productRoutes } from './products.ts';
import { retailProductRoutes } from './retail/products.ts';
import { catalogueFileRoutes } from './retail/catalogue-file.ts';
import { variantRoutes } from './retail/variants.ts';
import { stockAdjustmentRoutes } from './retail/stock-adjustments.ts';
import { storeRoutes } from './retail/stores.ts';
import { shiftRoutes } from './retail/shifts.ts';
import { subscriptionRoutes } from './subscriptions.ts';
import { tillRoutes } from './tills.ts';
import { webhookRoutes } from './webhooks.ts';
import { webhookDeliveryRoutes } from './webhook-deliveries.ts';
import { webhookEventRoutes } from './webhook-events.ts';
import { hospitalitySetupRoutes } from './hospitality/setup.ts';
import { reservationRoutes } from './hospitality/reservations.ts';
import { channelRoutes } from './hospitality/channels.ts';
import { folioRoutes } from './hospitality/folio.ts';
import { eventSetupRoutes } from './events/setup.ts';
import { eventOrderRoutes } from './events/orders.ts';
import { eventPromoRoutes } from './events/promos.ts';

/** Routes of an app: while a merchant has it removed, they answer 403 `app_not_installed`. */
const inApp = (app: AppSlug, routes: AnyRoute[]): AnyRoute[] => routes.map((route) => ({ ...route, app }));

/** Every /v1 route; the router and the OpenAPI document are both built from this list. */
export const v1Routes: AnyRoute[] = [
  ...merchantRoutes,
  ...accountRoutes,
  ...apiKeyRoutes,
  ...paymentRoutes,
  ...payoutRoutes,
  ...checkoutRoutes,
  ...invoiceRoutes,
  ...customerRoutes,
  ...subscriptionRoutes,
  ...transactionRoutes,
  ...balanceRoutes,
  ...logRoutes,
  ...merchantOverviewRoutes,
  ...referralRoutes,
  ...appRoutes,
  ...escrowRoutes,
  ...inApp('retail', [
    ...overviewRoutes,
    ...productRoutes,
    ...catalogueFileRoutes,
    ...retailProductRoutes,
    ...variantRoutes,
    ...categoryRoutes,
    ...storeRoutes,
    ...stockAdjustmentRoutes,
    ...retailOrderRoutes,
    ...orderRoutes,
    ...shiftRoutes,
    ...tillRoutes,
  ]),
  ...inApp('hospitality', [
    ...reservationRoutes,
    ...folioRoutes,
    ...hospitalitySetupRoutes,
    ...channelRoutes,
  ]),
  // The orders' fixed paths before the events' `/events/{id}`.
  ...inApp('events', [...eventOrderRoutes, ...eventPromoRoutes, ...eventSetupRoutes]),
  ...inApp('employees', [...salaryBandRoutes, ...employeeRoutes, ...statutoryRoutes]),
  ...inApp('printers', [...printerRoutes, ...printRoutes, ...printJobRoutes]),
  ...webhookRoutes,
  ...webhookDeliveryRoutes,
  ...webhookEventRoutes,
];
