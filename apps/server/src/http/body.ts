import type Koa from 'koa';
import getRawBody from 'raw-body';
import { AppError } from '@tz/core';
import { parseJsonBody } from './input.ts';

/** How much body a request may send, and how long it may take (settings `MAX_BODY_BYTES`, `BODY_TIMEOUT_MS`). */
export interface BodyLimits {
  MAX_BODY_BYTES: number;
  BODY_TIMEOUT_MS: number;
}

// Fatal: bytes that are not UTF-8 are refused rather than replaced with U+FFFD.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a JSON body within the size and time limits. The raw text is kept:
 * idempotency hashes it and provider callbacks verify signatures over it.
 * `parse` checks and parses the text (the input rules, `parseJsonBody`).
 */
export async function readJsonBody<T = unknown>(
  ctx: Koa.Context,
  limits: BodyLimits,
  parse: (raw: string) => T = parseJsonBody as (raw: string) => T,
): Promise<{ raw: string; value: T | undefined }> {
  const length = ctx.request.length;
  if (length === undefined && !ctx.request.headers['transfer-encoding']) return { raw: '', value: undefined };
  const bytes = await readBytes(ctx, limits, length);
  let raw: string;
  try {
    raw = utf8.decode(bytes);
  } catch {
    throw new AppError('body_invalid_json', 'The request body is not valid UTF-8', {
      details: { body: 'is not valid UTF-8' },
    });
  }
  if (raw.trim() === '') return { raw, value: undefined };
  const type = ctx.request.type;
  if (type && type !== 'application/json' && !type.endsWith('+json')) {
    throw new AppError(
      'content_type_invalid',
      'Request bodies must be JSON (Content-Type: application/json)',
      {
        details: { 'content-type': 'must be application/json' },
      },
    );
  }
  return { raw, value: parse(raw) };
}

async function readBytes(ctx: Koa.Context, limits: BodyLimits, length: number | undefined): Promise<Buffer> {
  const { MAX_BODY_BYTES: limit, BODY_TIMEOUT_MS: timeoutMs } = limits;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(
        new AppError('request_timeout', `The request body did not arrive within ${timeoutMs} ms`, {
          details: { body: `must arrive within ${timeoutMs} ms` },
        }),
      );
    }, timeoutMs);
  });
  try {
    return await Promise.race([getRawBody(ctx.req, { limit, length: length ?? null }), timedOut]);
  } catch (error) {
    if (error instanceof AppError) {
      // The rest of the body may still come: the connection closes after the answer.
      ctx.set('Connection', 'close');
      throw error;
    }
    if ((error as { type?: string }).type === 'entity.too.large') {
      throw new AppError('body_too_large', `The request body exceeds ${limit} bytes`, {
        details: { body: `at most ${limit} bytes` },
      });
    }
    throw new AppError('parameter_invalid', 'The request body could not be read', {
      details: { body: 'unreadable' },
    });
  } finally {
    clearTimeout(timer);
  }
}
