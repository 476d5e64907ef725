import http from 'node:http';
import type { Socket } from 'node:net';
import { AppError, newId } from '@tz/core';

/** Settings `HEADERS_TIMEOUT_MS` and `BODY_TIMEOUT_MS`. */
export interface RequestTimeouts {
  HEADERS_TIMEOUT_MS: number;
  BODY_TIMEOUT_MS: number;
}

/**
 * Past the app's own body deadline (which answers 408 through the usual error
 * path), Node drops a request that is still incomplete: this slack covers the
 * time between the headers and the app starting to read the body.
 */
const INCOMPLETE_REQUEST_SLACK_MS = 10_000;

/**
 * The HTTP server: headers must arrive within HEADERS_TIMEOUT_MS (checked
 * every second, not Node's default 30), and what Node's parser refuses
 * (timeouts, oversize or malformed headers) is answered with the error object
 * and an X-Request-Id, where the socket still allows an answer.
 */
export function createHttpServer(
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>,
  timeouts: RequestTimeouts,
): http.Server {
  // The response in progress on each connection, so a parser error never writes into one already started.
  const current = new WeakMap<Socket, http.ServerResponse>();
  const server = http.createServer(
    {
      headersTimeout: timeouts.HEADERS_TIMEOUT_MS,
      requestTimeout: timeouts.HEADERS_TIMEOUT_MS + timeouts.BODY_TIMEOUT_MS + INCOMPLETE_REQUEST_SLACK_MS,
      connectionsCheckingInterval: Math.min(1_000, timeouts.HEADERS_TIMEOUT_MS),
      keepAliveTimeout: 65_000,
    },
    (req, res) => {
      current.set(req.socket, res);
      void handle(req, res);
    },
  );
  server.on('clientError', (error: Error, socket: Socket) =>
    onClientError(error, socket, current.get(socket)),
  );
  return server;
}

/**
 * Node calls this once the parser gives up on a connection; the socket is ours
 * to answer and close. The error concerns the request being answered when its
 * body is incomplete; otherwise a later request on the connection, answered
 * after the one in progress.
 */
function onClientError(error: Error, socket: Socket, response: http.ServerResponse | undefined): void {
  const code = (error as { code?: string }).code;
  if (code === 'ECONNRESET' || !socket.writable || response?.headersSent === true) {
    socket.destroy();
    return;
  }
  const appError = clientErrorOf(error, code);
  if (!response || response.writableEnded) {
    answer(socket, appError, newId('request'));
  } else if (!response.req.complete) {
    answer(socket, appError, String(response.getHeader('x-request-id') ?? newId('request')));
  } else {
    response.once('finish', () => answer(socket, appError, newId('request')));
  }
}

function answer(socket: Socket, error: AppError, requestId: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(error.toBody());
  const status = error.kind.status;
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
  // Half-closed: the client reads the answer, then closes; one that does not is dropped.
  setTimeout(() => socket.destroy(), 2_000).unref();
}

function clientErrorOf(error: Error, code: string | undefined): AppError {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError('request_timeout', 'The request did not arrive in time', {
        details: { request: 'headers must arrive in time, and the body after them' },
      });
    case 'HPE_HEADER_OVERFLOW':
      return new AppError('headers_too_large', 'The request headers are too large', {
        details: { headers: `at most ${http.maxHeaderSize} bytes in all` },
      });
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new AppError('body_too_large', 'The chunk extensions of the request body are too large', {
        details: { body: 'chunk extensions too large' },
      });
    default: {
      const reason = (error as { reason?: unknown }).reason;
      return new AppError(
        'request_malformed',
        `The request is not valid HTTP${typeof reason === 'string' ? ` (${reason})` : ''}`,
        { details: { request: typeof reason === 'string' ? reason : 'malformed' } },
      );
    }
  }
}
