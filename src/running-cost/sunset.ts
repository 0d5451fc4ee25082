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

/** The successor's path under the same prefix and version as the route that was called. */
function successorLink(request: FastifyRequest): string {
  const path = request.routeOptions.url ?? '';
  return `<${path.replace(/[^/]*$/, SUCCESSOR)}>; rel="successor-version"`;
}

/** The route hook (preValidation: after authentication, before the parameter checks) reading the given clock. */
export const allocationGroupsWithdrawal =
  (now: () => Date) =>
  async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const link = successorLink(request);
    if (now().getTime() >= GONE_FROM.getTime()) {
      throw new ApiError(
        410,
        'gone',
        {
          $: [`AllocationGroups was withdrawn on ${SUNSET.toISOString().slice(0, 10)}; use ${SUCCESSOR} instead.`],
        },
        { Link: link },
      );
    }
    reply.headers({
      Deprecation: `@${Math.floor(DEPRECATED_SINCE.getTime() / 1000)}`,
      Sunset: SUNSET.toUTCString(),
      Link: link,
    });
  };
