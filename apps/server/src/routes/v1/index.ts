import type { AnyRoute } from '../../http/route.ts';
import { checkoutRoutes } from './checkout.ts';
import { customerRoutes } from './customers.ts';
import { employeeRoutes } from './employees.ts';
import { ledgerRoutes } from './ledger.ts';
import { merchantRoutes } from './merchants.ts';
import { paymentRoutes } from './payments.ts';
import { printRoutes } from './print.ts';
import { printerRoutes } from './printers.ts';
import { retailRoutes } from './retail.ts';
import { shiftRoutes } from './shifts.ts';
import { tillRoutes } from './tills.ts';
import { webhookRoutes } from './webhooks.ts';

/** Every /v1 route; the router and the OpenAPI document are both built from this list. */
export const v1Routes: AnyRoute[] = [
  ...merchantRoutes,
  ...paymentRoutes,
  ...checkoutRoutes,
  ...customerRoutes,
  ...ledgerRoutes,
  ...retailRoutes,
  ...shiftRoutes,
  ...tillRoutes,
  ...employeeRoutes,
  ...printerRoutes,
  ...printRoutes,
  ...webhookRoutes,
];
