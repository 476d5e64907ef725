/** The API reference at `/docs`: Swagger UI over `/v1/openapi.json`, its files served from the package. */
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Router from '@koa/router';
import { AppError } from '@tz/core';
import type { RequestState } from '../../http/pipeline.ts';

const require = createRequire(import.meta.url);
const swaggerDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const SWAGGER_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Merchant API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="docs"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/v1/openapi.json', dom_id: '#docs' });</script></body></html>`;

export function docsRoutes(): Router<RequestState> {
  const router = new Router<RequestState>();
  router.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = DOCS_HTML;
  });
  router.get('/docs/assets/:file', async (ctx) => {
    const type = SWAGGER_FILES[ctx.params.file ?? ''];
    if (!type) throw new AppError('route_not_found', 'No such file');
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = await readFile(path.join(swaggerDir, ctx.params.file!));
  });

  return router;
}
