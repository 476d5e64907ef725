import { z } from 'zod';
import { defineRoute } from '../../http/route.ts';
import { listPage } from '../../db/list-page.ts';
import { listEnvelope, listQuery } from '../../http/list.ts';
import { requestLogObject } from '../../infra/request-logs.ts';
import { livemode, unix, unixSecondsQuery } from './schemas.ts';

const requestLogSchema = z.object({
  id: z.string(),
  object: z.literal('request_log'),
  request_id: z.string(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  duration_ms: z.number().int(),
  api_key: z.string().nullable(),
  ip: z.string().nullable(),
  error_code: z.string().nullable(),
  livemode,
  created: unix,
});

export const logRoutes = [
  defineRoute({
    method: 'GET',
    path: '/logs',
    tag: 'Logs',
    summary: 'List this merchant’s API request log',
    description:
      'Time, method, path, status, request id, key id and duration of each request. Bodies, headers and query strings are never logged.',
    auth: 'secret',
    query: listQuery.extend({
      method: z
        .enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'get', 'post', 'put', 'patch', 'delete'])
        .optional(),
      status: z.coerce.number().int().min(100).max(599).optional(),
      status_class: z.enum(['2xx', '4xx', '5xx']).optional(),
      path: z.string().max(500).optional().describe('Path prefix, e.g. /v1/payments'),
      request_id: z.string().max(100).optional(),
      api_key: z.string().max(100).optional(),
      created_gte: unixSecondsQuery.optional(),
      created_lte: unixSecondsQuery.optional(),
    }),
    response: listEnvelope(requestLogSchema),
    handler: ({ query, auth, db, services }) =>
      listPage(db, services.requestLogs.listSource(auth, query), query, requestLogObject),
  }),
];
