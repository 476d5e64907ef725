/**
 * The local printer bridge for a till running in a browser: a small HTTP
 * server on loopback that answers the till's hardware requests with the same
 * functions the desktop app's IPC handlers call (`till.ts`). Only the till's
 * origin may call it from a page (CORS), and every call carries the bridge's
 * token, so another web page or program on the machine cannot print or open
 * the drawer.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import getRawBody from 'raw-body';
import { z } from 'zod';
import { AppError, errorKind, type ErrorDetails } from '@tz/core';
import { printDocumentSchema } from '@tz/core/receipt-schema';
import {
  openDrawerOn,
  printOptionsSchema,
  printTextSchema,
  printReceiptOn,
  printTextOn,
  printerStateOf,
  printerTargetSchema,
  usbPrinters,
  type JobTuning,
} from './till.ts';

export const DEFAULT_BRIDGE_PORT = 9101;
/** A receipt of a thousand lines fits; anything larger is not a till's request. */
export const MAX_BRIDGE_BODY_BYTES = 512 * 1024;
const HOST = '127.0.0.1';

export interface BridgeOptions {
  /** 0 picks a free port. Default 9101. */
  port?: number;
  /** Origins allowed to call from a page, e.g. `http://127.0.0.1:4000` (where the server serves `/till/`). */
  origins: readonly string[];
  /** The shared secret; a random one when absent. */
  token?: string;
  tuning?: JobTuning;
}

export interface Bridge {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  readonly origins: readonly string[];
  close(): Promise<void>;
}

type Handler = (body: unknown, tuning: JobTuning) => Promise<unknown>;

const printerOnly = z.object({ printer: printerTargetSchema });
const receiptBody = z.object({
  printer: printerTargetSchema,
  receipt: printDocumentSchema,
  options: printOptionsSchema.exactOptional(),
});
const textBody = z.object({ printer: printerTargetSchema, text: printTextSchema });

/** One route per `TillBridge` method, plus a health check; bodies are validated before anything prints. */
const ROUTES: Record<string, Handler> = {
  'GET /health': () => Promise.resolve({ ok: true, service: 'printer-bridge' }),
  'GET /usb-printers': () => usbPrinters(),
  'POST /print-receipt': (body, tuning) => {
    const { printer, receipt, options } = receiptBody.parse(body);
    return printReceiptOn(printer, receipt, options ?? {}, tuning);
  },
  'POST /print-text': (body, tuning) => {
    const { printer, text } = textBody.parse(body);
    return printTextOn(printer, text, tuning);
  },
  'POST /open-drawer': (body, tuning) => openDrawerOn(printerOnly.parse(body).printer, tuning),
  'POST /status': (body, tuning) => printerStateOf(printerOnly.parse(body).printer, tuning),
};

/** `http://HOST:PORT` with nothing else: what a browser sends as `Origin`. */
export function normaliseOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AppError('url_invalid', `"${value}" is not an origin such as http://127.0.0.1:4000`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError('url_invalid', `"${value}" is not an http(s) origin`);
  }
  return url.origin;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    ...(text ? { 'Content-Type': 'application/json; charset=utf-8' } : {}),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}

function sendError(res: ServerResponse, error: AppError, headers: Record<string, string>): void {
  const kind = errorKind(error.code);
  const body = {
    error: kind.type,
    message: error.message,
    code: error.code,
    ...(error.details ? { details: error.details } : {}),
  };
  send(res, kind.status, body, headers);
}

function validationError(error: z.ZodError): AppError {
  const details: ErrorDetails = {};
  for (const issue of error.issues) details[issue.path.map(String).join('.') || 'body'] ??= issue.message;
  return new AppError('parameter_invalid', `Invalid parameters: ${Object.keys(details).join(', ')}`, {
    details,
  });
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new AppError(
      'content_type_invalid',
      'Request bodies must be JSON (Content-Type: application/json)',
    );
  }
  let raw: string;
  try {
    raw = await getRawBody(req, { limit: MAX_BRIDGE_BODY_BYTES, encoding: 'utf8' });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') {
      throw new AppError('body_too_large', `The request body exceeds ${MAX_BRIDGE_BODY_BYTES} bytes`);
    }
    throw new AppError('parameter_invalid', 'The request body could not be read');
  }
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new AppError('body_invalid_json', 'The request body is not valid JSON');
  }
}

/** Starts the bridge on 127.0.0.1; resolves once it listens. */
export async function startBridge(options: BridgeOptions): Promise<Bridge> {
  const origins = options.origins.map(normaliseOrigin);
  const token = options.token ?? randomBytes(24).toString('base64url');
  const expected = digest(`Bearer ${token}`);
  const tuning = options.tuning ?? {};
  let port = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const origin = req.headers.origin;
    // A page's request carries its origin; requests without one come from programs on this machine.
    const cors: Record<string, string> = origin
      ? { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' }
      : {};
    if (origin !== undefined && !origins.includes(origin)) {
      return sendError(
        res,
        new AppError('origin_not_allowed', `Pages from ${origin} may not use this printer bridge`),
        { Vary: 'Origin' },
      );
    }
    // A name other than the loopback address means DNS rebinding or a mistake; either way, no.
    const host = req.headers.host ?? '';
    if (host !== `${HOST}:${port}` && host !== `localhost:${port}`) {
      return sendError(
        res,
        new AppError('url_not_allowed', `The bridge answers on ${HOST}:${port} only`),
        cors,
      );
    }
    if (req.method === 'OPTIONS') {
      return send(res, 204, undefined, {
        ...cors,
        'Access-Control-Allow-Methods': 'GET, POST',
        'Access-Control-Allow-Headers': 'Authorization, Content-Type',
        // Chromium asks before a page on the network reaches a loopback service.
        'Access-Control-Allow-Private-Network': 'true',
        'Access-Control-Max-Age': '600',
      });
    }
    const given = req.headers.authorization;
    if (!given || !timingSafeEqual(digest(given), expected)) {
      return sendError(
        res,
        new AppError('credentials_invalid', 'The printer bridge token is missing or wrong'),
        cors,
      );
    }
    const path = new URL(req.url ?? '/', `http://${HOST}`).pathname;
    const route = `${req.method ?? 'GET'} ${path}`;
    const handler = Object.hasOwn(ROUTES, route) ? ROUTES[route] : undefined;
    if (!handler) return sendError(res, new AppError('route_not_found', `No bridge route ${route}`), cors);
    try {
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      send(res, 200, await handler(body, tuning), cors);
    } catch (error) {
      if (error instanceof z.ZodError) return sendError(res, validationError(error), cors);
      if (error instanceof AppError) return sendError(res, error, cors);
      // Listing USB printers where USB cannot be reached, or a fault: a message, never a stack.
      const message = error instanceof Error ? error.message : 'The printer bridge failed';
      sendError(res, new AppError('service_unavailable', message), cors);
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      // A request the handler could not even read (a malformed URL): an error object, never a crash.
      if (!res.headersSent)
        sendError(res, new AppError('parameter_invalid', 'The request could not be read'), {});
      else res.destroy();
    });
  });
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_BRIDGE_PORT, HOST, () => resolve());
  });
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://${HOST}:${port}`,
    port,
    token,
    origins,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
