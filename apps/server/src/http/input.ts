import { AppError, type ErrorCode } from '@tz/core';

/**
 * What the server accepts in any request, checked once at the boundary so it
 * holds for every route (docs/RELIABILITY.md, "Input").
 */

/** Objects and arrays nested deeper than this are refused: deeper input would only exhaust the stack. */
export const MAX_JSON_DEPTH = 32;
/** Keys in one JSON object (the largest the API takes is 50 metadata keys). */
export const MAX_JSON_KEYS = 1000;

// A lone surrogate is a code point of category Cs only when it is not half of a pair.
const LONE_SURROGATE = /\p{Cs}/u;

/** Why PostgreSQL would refuse this string in text or jsonb, or undefined when it takes it. */
export function textProblem(text: string): string | undefined {
  if (text.includes('\0')) return 'must not contain the NUL character';
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode (it has an unpaired surrogate)';
  return undefined;
}

/**
 * Parameters in one query string: the most any route takes is about a dozen,
 * and Koa's parser takes time quadratic in their number (a 16 KiB `a&a&a…`
 * costs over a second of CPU).
 */
export const MAX_QUERY_PARAMETERS = 100;

/**
 * What is wrong with a URL: more than MAX_QUERY_PARAMETERS query parameters,
 * counted before `query` parses them, or a NUL (`%00`) named by where it is:
 * the path parameter (from the route templates, `/v1/payments/{id}`) or the
 * query parameter that holds it, else `path`. NUL is the one character URL
 * decoding can yield that PostgreSQL refuses (undecodable bytes become U+FFFD).
 */
export function urlProblem(
  rawUrl: string,
  query: () => Record<string, string | string[] | undefined>,
  pathTemplates: readonly string[],
): AppError | undefined {
  const queryStart = rawUrl.indexOf('?');
  if (queryStart !== -1 && parameterCount(rawUrl, queryStart + 1) > MAX_QUERY_PARAMETERS) {
    return fieldError('parameter_invalid', 'query', `must have at most ${MAX_QUERY_PARAMETERS} parameters`);
  }
  if (!rawUrl.includes('%00')) return undefined;
  if (queryStart === -1 || rawUrl.indexOf('%00') < queryStart) {
    const path = queryStart === -1 ? rawUrl : rawUrl.slice(0, queryStart);
    const field = pathParameterAt(path.split('/'), pathTemplates) ?? 'path';
    return fieldError('parameter_invalid', field, 'must not contain the NUL character (%00)');
  }
  for (const [name, value] of Object.entries(query())) {
    const values = Array.isArray(value) ? value : [value ?? ''];
    if (name.includes('\0') || values.some((text) => text.includes('\0'))) {
      return fieldError('parameter_invalid', name, 'must not contain the NUL character (%00)');
    }
  }
  return undefined;
}

function parameterCount(rawUrl: string, from: number): number {
  let count = 1;
  for (let i = rawUrl.indexOf('&', from); i !== -1; i = rawUrl.indexOf('&', i + 1)) count++;
  return count;
}

/** The name of the template parameter at the first segment holding a NUL. */
function pathParameterAt(segments: readonly string[], pathTemplates: readonly string[]): string | undefined {
  const at = segments.findIndex((segment) => segment.includes('%00'));
  for (const template of pathTemplates) {
    const parts = template.split('/');
    const matches =
      parts.length === segments.length &&
      parts.every((part, i) => part.startsWith('{') || part === segments[i]) &&
      parts[at]!.startsWith('{');
    if (matches) return parts[at]!.slice(1, -1);
  }
  return undefined;
}

/**
 * Parses a JSON request body and refuses, with a 400 naming the field, what
 * would otherwise be silently misread or fail later: duplicate keys (JSON.parse
 * keeps the last), `__proto__` keys, strings PostgreSQL cannot store, numbers
 * beyond a double's range (JSON.parse makes them Infinity), nesting
 * deeper than MAX_JSON_DEPTH and objects of more than MAX_JSON_KEYS keys.
 */
export function parseJsonBody(raw: string): unknown {
  const value = parseJson(raw);
  checkJsonText(raw, (error) => {
    throw error;
  });
  return value;
}

/**
 * As parseJsonBody, except that what breaks the rules inside one element of
 * the array at the top-level key `items` (a till's push: `commands`) is that
 * element's alone: its first problem is returned against its index, fields
 * named from the element (`payload.metadata.note`), so the caller refuses that
 * one and takes the rest. Depth and size limits still hold for the whole body.
 */
export function parseJsonItems(
  raw: string,
  items: string,
): { value: unknown; refused: Map<number, AppError> } {
  const value = parseJson(raw);
  const refused = new Map<number, AppError>();
  checkJsonText(raw, (error, stack, problem) => {
    const [top, list] = stack;
    if (!problem || !top?.object || top.at !== items || !list || list.object) throw error;
    const index = list.at as number;
    if (!refused.has(index))
      refused.set(index, fieldError(problem.code, fieldPath(stack.slice(2)) || 'command', problem.text));
  });
  return { value, refused };
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new AppError('body_invalid_json', 'The request body is not valid JSON', {
      details: { body: 'malformed JSON' },
    });
  }
}

interface Frame {
  object: boolean;
  /** Keys seen so far (objects only). */
  keys: Set<string>;
  /** The current key (objects) or index (arrays): the field being read. */
  at: string | number;
  expectKey: boolean;
}

/**
 * Told each problem: the error for the whole body and where it is; for a
 * problem of one value or key (not of the body's size), also its code and text.
 */
type OnProblem = (
  error: AppError,
  stack: readonly Frame[],
  problem?: { code: ErrorCode; text: string },
) => void;

/** One pass over JSON text already known to be valid, keeping a stack of the containers it is in. */
function checkJsonText(raw: string, onProblem: OnProblem): void {
  const stack: Frame[] = [];
  const valueProblem = (code: ErrorCode, text: string) =>
    onProblem(fieldError(code, fieldPath(stack) || 'body', text), stack, { code, text });
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      // { or [
      if (stack.length === MAX_JSON_DEPTH) {
        const problem = `nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`;
        onProblem(fieldError('body_too_complex', fieldPath(stack.slice(0, 1)) || 'body', problem), stack);
      }
      stack.push({ object: c === 0x7b, keys: new Set(), at: 0, expectKey: c === 0x7b });
    } else if (c === 0x7d || c === 0x5d) {
      // } or ]
      stack.pop();
    } else if (c === 0x2c) {
      // ,
      const top = stack[stack.length - 1]!;
      if (top.object) top.expectKey = true;
      else top.at = (top.at as number) + 1;
    } else if (c === 0x22) {
      // "
      const end = closingQuote(raw, i);
      const content = raw.slice(i + 1, end);
      const top = stack[stack.length - 1];
      if (top?.object && top.expectKey) checkKey(stack, top, decoded(raw, i, end, content), onProblem);
      else {
        // Only an escape can put a NUL or a lone surrogate in a value: raw text is UTF-8 decoded JSON.
        const problem = textProblem(SUSPECT_ESCAPE.test(content) ? decoded(raw, i, end, content) : content);
        if (problem) valueProblem('parameter_invalid', problem);
      }
      i = end;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      // - or a digit: a number, which JSON.parse would have turned into ±Infinity past a double's range
      let end = i + 1;
      let exponent = false;
      for (let d = raw.charCodeAt(end); end < raw.length; d = raw.charCodeAt(++end)) {
        if (d === 0x65 || d === 0x45)
          exponent = true; // e or E
        else if (!((d >= 0x30 && d <= 0x39) || d === 0x2e || d === 0x2b || d === 0x2d)) break; // digit . + -
      }
      if ((exponent || end - i > 300) && !Number.isFinite(Number(raw.slice(i, end)))) {
        valueProblem('parameter_invalid', 'is too large for a number');
      }
      i = end - 1;
    }
  }
}

/** `\u0000` or a `\uD800`–`\uDFFF` escape (or the text of one after an escaped backslash). */
const SUSPECT_ESCAPE = /\\u(?:0000|d[89a-f])/i;

function decoded(raw: string, start: number, end: number, content: string): string {
  return content.includes('\\') ? (JSON.parse(raw.slice(start, end + 1)) as string) : content;
}

function checkKey(stack: Frame[], top: Frame, key: string, onProblem: OnProblem): void {
  top.expectKey = false;
  top.at = key;
  const problem = key === '__proto__' ? 'is a reserved name and cannot be a key' : textProblem(key);
  const keyProblem = (code: ErrorCode, text: string) =>
    onProblem(fieldError(code, fieldPath(stack), text), stack, { code, text });
  if (problem) keyProblem('parameter_invalid', problem);
  else if (top.keys.has(key)) keyProblem('parameter_duplicate', 'appears more than once');
  if (top.keys.size === MAX_JSON_KEYS) {
    const tooMany = `has more than ${MAX_JSON_KEYS} keys`;
    onProblem(fieldError('body_too_complex', fieldPath(stack.slice(0, -1)) || 'body', tooMany), stack);
  }
  top.keys.add(key);
}

/** The index of the quote closing the string that opens at `start` (the text is valid JSON). */
function closingQuote(raw: string, start: number): number {
  let quote = raw.indexOf('"', start + 1);
  for (;;) {
    let backslashes = 0;
    while (raw.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = raw.indexOf('"', quote + 1);
  }
}

/** `lines.0.quantity`, as validation errors name fields. */
function fieldPath(stack: readonly Frame[]): string {
  return stack.map((frame) => String(frame.at)).join('.');
}

function fieldError(code: ErrorCode, field: string, problem: string): AppError {
  const message =
    code === 'parameter_duplicate'
      ? `Duplicate parameter: ${field}`
      : code === 'body_too_complex'
        ? `The request body is too complex: ${field} ${problem}`
        : `Invalid parameter: ${field}`;
  // A computed key defines an own property even for `__proto__`, so the field is named.
  return new AppError(code, message, { details: { [field]: problem } });
}
