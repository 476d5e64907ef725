import { z } from 'zod';
import { ERROR_TYPES } from '@tz/core';
import type { AnyRoute } from './route.ts';
import { API_VERSION } from '../infra/events.ts';

export type JsonSchema = Record<string, unknown>;

const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: { type: 'string', enum: [...ERROR_TYPES] },
    message: { type: 'string' },
    code: { type: 'string' },
    details: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

/** A zod schema as JSON Schema (2020-12), as requests (`input`) or responses (`output`) see it. */
export const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return json;
};

const rateLimitHeaders = {
  'RateLimit-Limit': { schema: { type: 'integer' }, description: 'Maximum requests per window' },
  'RateLimit-Remaining': {
    schema: { type: 'integer' },
    description:
      'Requests remaining in the current window; with several server processes, as the answering process counts it (each takes points from the shared counter in small leases)',
  },
  'RateLimit-Reset': { schema: { type: 'integer' }, description: 'Unix seconds when the window resets' },
  'X-Request-Id': { schema: { type: 'string' }, description: 'Quote it to support' },
};

const errorResponse = (description: string, extraHeaders: Record<string, unknown> = {}) => ({
  description,
  headers: { ...rateLimitHeaders, ...extraHeaders },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** Query and path parameters from an object schema. */
function parameters(schema: z.ZodType | undefined, where: 'query' | 'path'): unknown[] {
  if (!schema) return [];
  const json = toSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: property,
  }));
}

export interface OpenApiExtras {
  /** Webhook event catalog (OpenAPI 3.1 `webhooks`). */
  webhooks?: Record<string, unknown>;
}

/** The OpenAPI 3.1 document, generated from the same zod schemas that validate requests. */
export function buildOpenApi(routes: AnyRoute[], serverUrl: string, extras: OpenApiExtras = {}) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const operation: Record<string, unknown> = {
      operationId: `${route.method.toLowerCase()}${route.path.replace(/[{}]/g, '').replace(/[/-](\w)/g, (_, c: string) => c.toUpperCase())}`,
      summary: route.summary,
      tags: [route.tag],
      parameters: [
        ...parameters(route.params, 'path'),
        ...parameters(route.query, 'query'),
        ...(route.method === 'GET'
          ? []
          : [
              {
                name: 'Idempotency-Key',
                in: 'header',
                required: false,
                schema: { type: 'string', minLength: 1, maxLength: 255 },
                description: 'Replays the stored response for a repeated key (kept at least 24 hours)',
              },
            ]),
      ],
      responses: {
        [String(route.status ?? 200)]: {
          description: 'Success',
          headers: rateLimitHeaders,
          content: route.contentType
            ? { [route.contentType]: { schema: { type: 'string', contentMediaType: route.contentType } } }
            : { 'application/json': { schema: toSchema(route.response, 'output') } },
        },
        '400': errorResponse('Invalid request; `details` names the fields'),
        '401': errorResponse('Missing or invalid API key'),
        '403': errorResponse(
          route.app
            ? `The key may not call this operation, or the merchant removed the ${route.app} app (\`app_not_installed\`)`
            : 'The key may not call this operation',
        ),
        '404': errorResponse('No such object for this merchant and mode'),
        '408': errorResponse(
          'The headers or the body did not arrive in time (HEADERS_TIMEOUT_MS, BODY_TIMEOUT_MS)',
        ),
        '409': errorResponse('A request with the same Idempotency-Key is in flight'),
        '422': errorResponse('The Idempotency-Key was used with a different body'),
        '429': errorResponse('Too many requests', {
          'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait' },
        }),
        '503': errorResponse('Handled outage; retry later', {
          'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait' },
        }),
      },
    };
    if (route.description) operation.description = route.description;
    if (route.app) operation['x-app'] = route.app;
    if (route.body) {
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: toSchema(route.body, 'input') } },
      };
    }
    if (route.auth === 'none') operation.security = [];
    (paths[`/v1${route.path}`] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Merchant Payments and Services API',
      version: API_VERSION,
      description:
        'Payments by mobile money, checkout, customers and a double-entry ledger for merchants in Tanzania. Amounts are integers in the smallest unit in local use (whole shillings for TZS).',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }, { xApiKey: [] }],
    paths,
    ...(extras.webhooks ? { webhooks: extras.webhooks } : {}),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'sk_test_..., sk_live_..., pk_... or a login token',
        },
        xApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      },
      schemas: { Error: errorSchema },
    },
  };
}
