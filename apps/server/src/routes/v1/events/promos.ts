import { promoCreateBody } from '@tz/core';
import { defineRoute } from '../../../http/route.ts';
import { listPage } from '../../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../../http/list.ts';
import { findEvent } from '../../../events/events.ts';
import { promoObject, type PromoRow } from '../../../events/promos.ts';
import { idParams } from '../schemas.ts';
import { promoSchema, tag } from './schemas.ts';

/** An event's promo codes. `DELETE /events/promos/{id}` comes before `/events/{id}`. */
export const eventPromoRoutes = [
  defineRoute({
    method: 'DELETE',
    path: '/events/promos/{id}',
    tag,
    summary: 'Delete a promo',
    description: 'Orders that used it keep their discount. Records `event_promo.deleted`.',
    auth: 'secret',
    params: idParams,
    response: promoSchema,
    handler: ({ params, auth, db, services }) => services.eventPromos.delete(db, auth, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/events/{id}/promos',
    tag,
    summary: 'List an event’s promos',
    auth: 'secret',
    params: idParams,
    query: listQuery,
    response: listEnvelope(promoSchema),
    handler: async ({ params, query, auth, db, services }) => {
      const event = await findEvent(db, auth, params.id);
      return listPage(db, services.eventPromos.promosSource(auth, event.id), query, (row: PromoRow) =>
        promoObject(row),
      );
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/events/{id}/promos',
    tag,
    summary: 'Create a promo',
    description:
      'A `code` (matched without regard to case) for `percent_off` (rounded down) or `amount_off` of an order’s tickets of one `tier` or the whole event, within `valid_from` and `valid_until`, for at most `usage_limit` orders. An order applies one promo once (`promo_code`); an order whose hold runs out gives its use back. Records `event_promo.created`.',
    auth: 'secret',
    status: 201,
    params: idParams,
    body: promoCreateBody,
    response: promoSchema,
    handler: ({ params, body, auth, db, services }) => services.eventPromos.create(db, auth, params.id, body),
  }),
];
