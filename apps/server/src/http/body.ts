import type Koa from 'koa';
import getRawBody from 'raw-body';
import { AppError } from '@tz/core';

/**
 * Reads a JSON body with a size limit. The raw text is kept: idempotency
 * hashes it and provider callbacks verify signatures over it.
 */
export async function readJsonBody(
  ctx: Koa.Context,
  limitBytes: number,
): Promise<{ raw: string; value: unknown }> {
  const length = ctx.request.length;
  if (length === undefined && !ctx.request.headers['transfer-encoding']) return { raw: '', value: undefined };
  let raw: string;
  try {
    raw = await getRawBody(ctx.req, { limit: limitBytes, encoding: 'utf8', length });
  } catch (error) {
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') {
      throw new AppError('body_too_large', `The request body exceeds ${limitBytes} bytes`, {
        details: { body: `at most ${limitBytes} bytes` },
      });
    }
    throw new AppError('parameter_invalid', 'The request body could not be read', {
      details: { body: 'unreadable' },
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
  try {
    return { raw, value: JSON.parse(raw) as unknown };
  } catch {
    throw new AppError('body_invalid_json', 'The request body is not valid JSON', {
      details: { body: 'malformed JSON' },
    });
  }
}
