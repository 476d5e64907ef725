import fc from 'fast-check';
import { ERROR_TYPES } from '@tz/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUp, startTestServer } from '../support/server.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';

/**
 * Hostile input on every route of the OpenAPI document: requests are built from
 * each operation's own parameters and body schema, with plausible values (so
 * many get past validation and reach the database) mixed with NULs, unpaired
 * surrogates, huge and tiny numbers, deep nesting, duplicate and `__proto__`
 * keys. No answer may be a 5xx.
 */

interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
  minimum?: number;
  maximum?: number;
}

interface Operation {
  method: string;
  path: string;
  parameters: Array<{ name: string; in: string; schema: Schema }>;
  body?: Schema;
}

let server: RunningServer;
let operations: Operation[];
let api: ReturnType<typeof client>;

beforeAll(async () => {
  // Nothing is delivered: endpoints the run creates must not send traffic anywhere.
  server = await startTestServer({ WEBHOOK_DISPATCH: 'false' });
  api = client(server.url, (await signUp(server.url)).keys.secretTest);
  await api.patch('/v1/retail/store', { name: 'Duka Kuu' });
  const document = (await client(server.url).get('/v1/openapi.json')).body;
  operations = Object.entries<Record<string, any>>(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      parameters: operation.parameters ?? [],
      body: operation.requestBody?.content['application/json'].schema,
    })),
  );
});
afterAll(() => server?.close());

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObjects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** JSON texts no schema should let through to a 5xx; several cannot be written with JSON.stringify. */
const hostileJson = fc.constantFrom(
  ...['a\u0000b', '\u0000', 'x\ud800', '\udc00', 'end\ud83d', '\ud83d\ude00', '', 'x'.repeat(600)].map(
    (text) => JSON.stringify(text),
  ),
  '"\\u0000"',
  '"\\uDFFF\\uD800"',
  '9007199254740991',
  '-9007199254740991',
  '9007199254740993',
  '123456789012345678901234567890',
  '1e308',
  '-1e308',
  '1e400',
  '5e-324',
  '-0',
  '0',
  '-1',
  '1.5',
  'null',
  'true',
  '{}',
  '[]',
  nested(40),
  nested(5_000),
  nestedObjects(40),
  '{"k":1,"k":2}',
  '{"__proto__":{"x":1}}',
);

const plausibleStrings = [
  'x',
  'Asha',
  '0700000001',
  'TZS',
  'USD',
  'http://127.0.0.1:9/hook',
  'cash',
  'count',
  'customer.created',
  'pay_x',
  'prod_x',
  'asha@example.tz',
  'correct horse battery',
  '2026-11-26',
];

/** A plausible value for the schema, as JSON text, or a hostile one. */
function valueText(schema: Schema | undefined, depth: number): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 12, arbitrary: plausible(schema ?? {}, depth) },
    { weight: 1, arbitrary: hostileJson },
  );
}

function plausible(schema: Schema, depth: number): fc.Arbitrary<string> {
  if (depth > 4) return fc.constant('null');
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches?.length) return fc.oneof(...branches.map((branch) => plausible(branch, depth)));
  if (schema.enum?.length) return fc.constantFrom(...schema.enum.map((value) => JSON.stringify(value)));
  if ('const' in schema) return fc.constant(JSON.stringify(schema.const));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
    case 'number': {
      const min = Math.max(schema.minimum ?? -1_000_000, Number.MIN_SAFE_INTEGER);
      const max = Math.min(schema.maximum ?? 1_000_000, Number.MAX_SAFE_INTEGER);
      return fc
        .oneof(fc.integer({ min: Math.max(min, -1e9), max: Math.min(max, 1e9) }), fc.constantFrom(min, max))
        .map(String);
    }
    case 'string':
      return fc.constantFrom(...plausibleStrings).map((text) => JSON.stringify(text));
    case 'boolean':
      return fc.boolean().map(String);
    case 'array':
      return fc
        .array(valueText(schema.items, depth + 1), { maxLength: 3 })
        .map((items) => `[${items.join(',')}]`);
    case 'object':
      return objectText(schema, depth);
    default:
      return fc.constantFrom('"x"', '1', 'null', '{}');
  }
}

const oddKeys = fc.constantFrom('__proto__', 'constructor', 'k\u0000', '\ud800', 'unknown', 'note');

/** One case in `1 + rest`: most requests should be plausible but for one value. */
const rarely = <T>(arbitrary: fc.Arbitrary<T>, rest = 8) =>
  fc.oneof({ weight: rest, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });

/** Every required property, some optional ones, rarely an odd key or one given twice. */
function objectText(schema: Schema, depth: number): fc.Arbitrary<string> {
  const properties = schema.properties ?? {};
  const names = Object.keys(properties);
  const required = names.filter((name) => schema.required?.includes(name));
  const optional = names.filter((name) => !schema.required?.includes(name));
  const record = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  const entry = (name: string, valueSchema: Schema | undefined) =>
    valueText(valueSchema, depth + 1).map((value) => `${JSON.stringify(name)}:${value}`);
  return fc
    .tuple(
      fc.subarray(optional),
      record ? fc.array(fc.constantFrom('note', 'k', 'reference'), { maxLength: 3 }) : fc.constant([]),
      rarely(oddKeys),
      rarely(fc.constant(true)),
    )
    .chain(([chosen, extra, odd, repeat]) => {
      const keys = [...new Set([...required, ...chosen, ...extra])];
      if (odd !== undefined) keys.push(odd);
      if (repeat && keys.length > 0) keys.push(keys[0]!);
      return fc.tuple(...keys.map((name) => entry(name, properties[name] ?? record)));
    })
    .map((entries) => `{${entries.join(',')}}`);
}

/** Query and path values, already URL-encoded: some cannot be written with encodeURIComponent. */
const hostileUrlValue = fc.constantFrom(
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%FF',
  '%',
  '9007199254740991',
  '-9007199254740991',
  '1e308',
  '-1e400',
  '1e-400',
  'NaN',
  'Infinity',
  '-0',
  '0x10',
  '%201',
  'x'.repeat(600),
);

function urlValue(schema: Schema): fc.Arbitrary<string> {
  const plausibleText = plausible(schema, 0).map((text) => {
    const value: unknown = JSON.parse(text);
    return encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value));
  });
  return fc.oneof({ weight: 6, arbitrary: plausibleText }, { weight: 1, arbitrary: hostileUrlValue });
}

function requestFor(operation: Operation) {
  const pathParameters = operation.parameters.filter((p) => p.in === 'path');
  const queryParameters = operation.parameters.filter((p) => p.in === 'query');
  return fc.record({
    path: fc
      .tuple(...pathParameters.map((p) => urlValue(p.schema)))
      .map((values) =>
        pathParameters.reduce((path, p, i) => path.replace(`{${p.name}}`, values[i]!), operation.path),
      ),
    query: fc
      .tuple(
        fc
          .subarray(queryParameters)
          .chain((chosen) =>
            fc.tuple(
              ...chosen.map((p) =>
                urlValue(p.schema).map((value) => `${encodeURIComponent(p.name)}=${value}`),
              ),
            ),
          ),
        rarely(fc.constantFrom('limit=1&limit=2', '%00=1', 'x%00=1', 'starting_after=a&ending_before=b')),
      )
      .map(([pairs, extra]) => [...pairs, ...(extra ? [extra] : [])].join('&')),
    body:
      operation.method === 'GET'
        ? fc.constant(undefined)
        : operation.body
          ? valueText(operation.body, 0)
          : rarely(hostileJson, 2),
  });
}

describe('hostile input on every route of the OpenAPI document', () => {
  it('never answers 5xx, and always with the error object or a success', async () => {
    expect(operations.length).toBeGreaterThan(40);
    const request = fc
      .constantFrom(...operations)
      .chain((operation) => requestFor(operation).map((parts) => ({ method: operation.method, ...parts })));
    await fc.assert(
      fc.asyncProperty(request, async ({ method, path, query, body }) => {
        const url = query ? `${path}?${query}` : path;
        const response = await api.request(method, url, body ?? undefined, {
          'Content-Type': 'application/json',
        });
        const label = `${method} ${url} ${String(body).slice(0, 300)}`;
        expect(response.status, label).toBeLessThan(500);
        if (response.status >= 400)
          expect(ERROR_TYPES as readonly string[], label).toContain(response.body.error);
      }),
      { numRuns: 400 },
    );
  });
});
