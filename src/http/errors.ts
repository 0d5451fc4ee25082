// The one error type of the API and the edge handler that turns every failure into the documented answer:
// a status and an error map { key: [messages] } (key = query parameter, body property path, or '$').
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { validationErrorMap } from './validation.ts';
import { MAX_PROBLEMS, boundErrorMap, messagesAt, problemsIn } from './input-rules.ts';

export type ErrorMap = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly errors: ErrorMap = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(`${code}: ${JSON.stringify(errors)}`);
  }
}

/** Collects messages per key (the first MAX_PROBLEMS, the rest counted); `throwIfAny` raises one 400 with them. */
export class ErrorCollector {
  readonly errors: ErrorMap = {};
  private total = 0;
  add(key: string, message: string): this {
    const n = problemsIn(message); // a "... and N more" message of a bounded map counts N, and is not listed
    if (n !== 1 || /^\.\.\. and /.test(message)) {
      this.total += n;
      return this;
    }
    const list = messagesAt(this.errors, key); // the key is kept past the limit: rules ask whether a key has errors
    if (++this.total <= MAX_PROBLEMS) list.push(message);
    return this;
  }
  get empty(): boolean {
    return this.total === 0;
  }
  throwIfAny(): void {
    if (!this.empty) throw new ApiError(400, 'bad_request', boundErrorMap(this.errors, this.total));
  }
}

export const badRequest = (key: string, message: string) => new ApiError(400, 'bad_request', { [key]: [message] });
export const forbidden = (message: string) => new ApiError(403, 'forbidden', { $: [message] });
export const notFound = (key: string, message: string) => new ApiError(404, 'not_found', { [key]: [message] });

/**
 * 401 without a body, with the RFC 6750 challenge: `Bearer` alone when no credentials were sent (decisions §2), else
 * with `error` (and a description where it helps).
 */
export function unauthorized(error?: 'invalid_token' | 'invalid_request', description?: string): ApiError {
  const params = [error && `error="${error}"`, description && `error_description="${description}"`].filter(Boolean);
  const challenge = params.length ? `Bearer ${params.join(', ')}` : 'Bearer';
  return new ApiError(401, 'unauthorized', {}, { 'WWW-Authenticate': challenge });
}

export function sendApiError(reply: FastifyReply, err: ApiError): FastifyReply {
  reply.code(err.status).headers(err.headers);
  if (err.status === 401) return reply.send();
  return reply.send(boundErrorMap(err.errors));
}

const CLIENT_ERRORS: Record<string, (err: FastifyError, req: FastifyRequest) => [number, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: (_e, req) => [
    413,
    `The request body is larger than the limit of ${req.routeOptions.bodyLimit ?? 1048576} bytes.`,
  ],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (_e, req) => [
    400,
    `The content type '${req.headers['content-type'] ?? ''}' is not supported; send application/json.`,
  ],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => [400, 'The Content-Length header does not match the body.'],
};

/** SQLite's codes for a write lock it could not get within the busy timeout (better-sqlite3's SqliteError.code). */
const DATABASE_BUSY = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY', 'SQLITE_BUSY_TIMEOUT']);
const BUSY_RETRY_AFTER_S = 5;
/** PostgreSQL's query_canceled: a statement past statement_timeout. */
const STATEMENT_TIMEOUT = '57014';
/**
 * A database out of reach (PostgreSQL stopped or restarting, the network gone): the socket's error codes, SQLSTATE
 * class 08 (connection exception), 57P01-57P03 (shut down, crashed, starting), 53300 (too many connections), and
 * pg's own errors without a code. Not a bug: the client may retry.
 */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
const UNREACHABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;
const UNREACHABLE_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout|Client was closed and is not queryable)/;

/**
 * A database that did not take the request and may take it again (503 with Retry-After), logged; undefined for any
 * other error. Its message for the answer's body (the token endpoint's is in RFC 6749's shape, the API's a map).
 */
export function databaseTrouble(
  err: FastifyError,
  request: FastifyRequest,
): { message: string; retryAfter: string } | undefined {
  const retryAfter = String(BUSY_RETRY_AFTER_S);
  if (err.code && DATABASE_BUSY.has(err.code)) {
    // Not a bug: another connection (an import, a second process) held SQLite's write lock past the busy timeout.
    // The request's transaction was rolled back; the client may retry.
    request.log.warn({ err }, 'database busy');
    const message = `The database is busy with another writer (an import, say) and did not take this request; nothing was changed: retry in ${BUSY_RETRY_AFTER_S} s.`;
    return { message, retryAfter };
  }
  if (err.code === STATEMENT_TIMEOUT) {
    // PostgreSQL cancelled a statement past the server's statement timeout (src/db/database.ts): rolled back
    request.log.warn({ err }, 'database statement timeout');
    const message = `The database did not finish this request in time (a long lock, an import); nothing was changed: retry in ${BUSY_RETRY_AFTER_S} s.`;
    return { message, retryAfter };
  }
  if (databaseUnreachable(err)) {
    request.log.error({ err }, 'database unreachable');
    return { message: `The database cannot be reached just now: retry in ${BUSY_RETRY_AFTER_S} s.`, retryAfter };
  }
  return undefined;
}

function databaseUnreachable(err: FastifyError): boolean {
  const code = err.code as string | undefined;
  // A socket's own error carries its syscall (connect, read); a client's aborted upload (ECONNRESET 'aborted') not.
  if (code && UNREACHABLE.has(code)) return typeof (err as { syscall?: unknown }).syscall === 'string';
  if (code) return UNREACHABLE_SQLSTATE.test(code);
  return UNREACHABLE_MESSAGE.test(err.message);
}

export function errorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (err instanceof ApiError) return sendApiError(reply, err);
  if (err.validation) {
    return reply.code(400).send(boundErrorMap(validationErrorMap(err.validation)));
  }
  const known = err.code ? CLIENT_ERRORS[err.code] : undefined;
  if (known) {
    const [status, message] = known(err, request);
    return reply.code(status).send({ $: [message] });
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return reply.code(err.statusCode).send({ $: [err.message] });
  }
  const trouble = databaseTrouble(err, request);
  if (trouble)
    return reply
      .code(503)
      .header('retry-after', trouble.retryAfter)
      .send({ $: [trouble.message] });
  request.log.error({ err }, 'unhandled error');
  return reply.code(500).send({ $: ['Internal server error. The incident has been logged.'] });
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split('?')[0];
  return reply.code(404).send({ $: [`No endpoint ${request.method} ${path}.`] });
}
