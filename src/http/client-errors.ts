// Answers the server writes before a request reaches the pipeline, in the documented error map like every other
// answer: node's 'clientError' (malformed HTTP, headers over the limit, a client too slow to send its request)
// gets a proper HTTP/1.1 response with Connection: close on the raw socket; Fastify's router errors (a path that
// is not valid URL text, an over-long path parameter) go through the error handler (errors.ts).
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorHandler } from './errors.ts';

interface ClientError extends Error {
  code?: string;
  reason?: string;
}

function statusOf(err: ClientError): [number, string] {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'The request was not received in time; the connection is closed.'];
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'The request line and headers are larger than the limit of 16 KiB.'];
    default: {
      const reason = (err.reason ?? '').replace(/[^\x20-\x7e]/g, '').slice(0, 200);
      return [400, `The request is not valid HTTP/1.1${reason ? ` (${reason})` : ''}.`];
    }
  }
}

/** Fastify's clientErrorHandler: the answer node would write, as an error map, then the connection ends. */
export function clientErrorHandler(err: ClientError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // A response already under way on this socket cannot be followed by another one.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const [status, message] = statusOf(err);
    const body = JSON.stringify({ $: [message] });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    setTimeout(() => socket.destroy(), 1000).unref();
  } else socket.destroy();
}

const ROUTER_ERRORS: Record<string, (err: FastifyError) => [number, string]> = {
  FST_ERR_BAD_URL: () => [400, 'The path is not valid URL text (a malformed %-escape or a non-ASCII character).'],
  FST_ERR_MAX_PARAM_LENGTH: () => [414, 'A path parameter is longer than 100 characters.'],
};

/** Fastify's frameworkErrors: router failures as error maps; anything else through the error handler. */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const known = err.code ? ROUTER_ERRORS[err.code] : undefined;
  if (!known) {
    void errorHandler(err, request, reply);
    return;
  }
  const [status, message] = known(err);
  void reply.code(status).send({ $: [message] });
}
