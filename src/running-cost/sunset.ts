// Withdrawal of the AllocationGroups endpoint (decisions §3): until 2026-12-31 (UTC) it answers with Deprecation
// (RFC 9745), Sunset (RFC 8594) and a Link to its successor; from 2027-01-01 it answers 410 Gone. The server clock
// (app.now()) decides, so tests and operators (env NOW) can move it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.ts';

/** Since when the endpoint is deprecated (RFC 9745 date; the interface marks it without a date, so we chose this one). */
export const DEPRECATED_SINCE = new Date('2025-01-01T00:00:00Z');
/** The last moment the endpoint answers (the Sunset header), and the first moment it is gone. */
export const SUNSET = new Date('2026-12-31T23:59:59Z');
export const GONE_FROM = new Date('2027-01-01T00:00:00Z');
const SUCCESSOR = 'AllocationGroupBases';

const LINK = {
  type: 'string',
  description: `The successor: <.../${SUCCESSOR}>; rel="successor-version" (same prefix and version).`,
};

/** The headers of the route's answers, for the OpenAPI document (`responseHeaders` of the route schema). */
export const WITHDRAWAL_HEADERS = {
  '*': {
    Deprecation: {
      type: 'string',
      description: `Since when the endpoint is deprecated (RFC 9745): @${Math.floor(DEPRECATED_SINCE.getTime() / 1000)}.`,
    },
    Sunset: { type: 'string', description: `When it is withdrawn (RFC 8594): ${SUNSET.toUTCString()}.` },
    Link: LINK,
  },
  410: { Link: LINK },
};

/** The successor's path under the same prefix and version as the route that was called. */
function successorLink(request: FastifyRequest): string {
  const path = request.routeOptions.url ?? '';
  return `<${path.replace(/[^/]*$/, SUCCESSOR)}>; rel="successor-version"`;
}

/**
 * The route's hooks, reading the given clock: preValidation (after authentication, before the parameter checks)
 * answers 410 once the endpoint is gone; onSend puts the deprecation headers on every answer before that, errors
 * (401, 403, 400) included, since a client learns of the withdrawal from whatever answer it gets.
 */
export const allocationGroupsWithdrawal = (now: () => Date) => ({
  preValidation: async (request: FastifyRequest): Promise<void> => {
    if (now().getTime() < GONE_FROM.getTime()) return;
    throw new ApiError(
      410,
      'gone',
      {
        $: [`AllocationGroups was withdrawn on ${SUNSET.toISOString().slice(0, 10)}; use ${SUCCESSOR} instead.`],
      },
      { Link: successorLink(request) },
    );
  },
  onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    if (now().getTime() < GONE_FROM.getTime())
      reply.headers({
        Deprecation: `@${Math.floor(DEPRECATED_SINCE.getTime() / 1000)}`,
        Sunset: SUNSET.toUTCString(),
        Link: successorLink(request),
      });
    return payload;
  },
});
