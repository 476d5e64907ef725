import type { AnyRoute } from '../../http/route.ts';
import { checkoutRoutes } from './checkout.ts';
import { customerRoutes } from './customers.ts';
import { ledgerRoutes } from './ledger.ts';
import { merchantRoutes } from './merchants.ts';
import { paymentRoutes } from './payments.ts';
import { retailRoutes } from './retail.ts';
import { webhookRoutes } from './webhooks.ts';

/** Every /v1 route; the router and the OpenAPI document are both built from this list. */
export const v1Routes: AnyRoute[] = [
  ...merchantRoutes,
  ...paymentRoutes,
  ...checkoutRoutes,
  ...customerRoutes,
  ...ledgerRoutes,
  ...retailRoutes,
  ...webhookRoutes,
];
