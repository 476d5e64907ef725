import type { AnyRoute } from '../../http/route.ts';
import { checkoutRoutes } from './checkout.ts';
import { customerRoutes } from './customers.ts';
import { employeeRoutes } from './employees.ts';
import { invoiceRoutes } from './invoices.ts';
import { ledgerRoutes } from './ledger.ts';
import { merchantRoutes } from './merchants.ts';
import { orderRoutes } from './orders.ts';
import { paymentRoutes } from './payments.ts';
import { printRoutes } from './print.ts';
import { printerRoutes } from './printers.ts';
import { categoryRoutes } from './retail-categories.ts';
import { overviewRoutes } from './retail-overview.ts';
import { productRoutes } from './retail-products.ts';
import { stockRoutes } from './retail-stock.ts';
import { storeRoutes } from './retail-stores.ts';
import { shiftRoutes } from './shifts.ts';
import { subscriptionRoutes } from './subscriptions.ts';
import { tillRoutes } from './tills.ts';
import { webhookRoutes } from './webhooks.ts';

/** Every /v1 route; the router and the OpenAPI document are both built from this list. */
export const v1Routes: AnyRoute[] = [
  ...merchantRoutes,
  ...paymentRoutes,
  ...checkoutRoutes,
  ...invoiceRoutes,
  ...customerRoutes,
  ...subscriptionRoutes,
  ...ledgerRoutes,
  ...overviewRoutes,
  ...productRoutes,
  ...categoryRoutes,
  ...storeRoutes,
  ...stockRoutes,
  ...orderRoutes,
  ...shiftRoutes,
  ...tillRoutes,
  ...employeeRoutes,
  ...printerRoutes,
  ...printRoutes,
  ...webhookRoutes,
];
