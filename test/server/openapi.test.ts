import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer } from '../support/server.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { v1Routes } from '../../apps/server/src/routes/v1/index.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('OpenAPI document', () => {
  it('is public, OpenAPI 3.1, and lists every route the server registers', async () => {
    const response = await client(server.url).get('/v1/openapi.json');
    expect(response.status).toBe(200);
    const doc = response.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.1.0');
    const documented = new Set<string>();
    for (const [path, operations] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(operations)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    for (const route of v1Routes) expect(documented).toContain(`${route.method} /v1${route.path}`);
    expect(documented.size).toBe(v1Routes.length);
  });

  it('documents request bodies, the error object and rate-limit headers', async () => {
    const doc = (await client(server.url).get('/v1/openapi.json')).body;
    const create = doc.paths['/v1/payments'].post;
    expect(create.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['amount', 'currency', 'phone']),
    );
    expect(create.responses['201'].content['application/json'].schema.properties.status.enum).toEqual([
      'pending',
      'paid',
      'failed',
      'refunded',
    ]);
    expect(create.responses['429'].headers).toHaveProperty('Retry-After');
    expect(create.responses['408'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/Error',
    );
    expect(create.responses['200'] ?? create.responses['201']).toBeDefined();
    expect(doc.components.schemas.Error.required).toEqual(['error']);
    expect(doc.paths['/v1/merchants'].post.security).toEqual([]);
  });

  it('serves the reference page and its assets from our own server', async () => {
    const page = await fetch(`${server.url}/docs`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('/v1/openapi.json');
    expect(html).not.toMatch(/https?:\/\//);
    const script = await fetch(`${server.url}/docs/assets/swagger-ui-bundle.js`);
    expect(script.status).toBe(200);
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });
});
