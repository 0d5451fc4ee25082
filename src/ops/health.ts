// Liveness and readiness probes.
import { sql } from 'kysely';
import { Type } from '@sinclair/typebox';
import type { App } from '../app-types.ts';

/** How long the readiness probe waits for the database to answer before it says "not ready" (503). */
export const READY_TIMEOUT_MS = 3000;
const Status = Type.Object(
  {
    status: Type.String({ description: 'ok, or unavailable' }),
    database: Type.Optional(Type.String({ description: 'sqlite or postgres' })),
  },
  { title: 'HealthStatus' },
);

export default async function healthRoutes(app: App) {
  app.get(
    '/health/live',
    {
      schema: {
        tags: ['Operations'],
        summary: 'Liveness',
        description: 'Answers 200 while the process runs (no database access).',
        response: { 200: { ...Status, description: 'The process is alive.' } },
      },
    },
    async () => ({
      status: 'ok',
    }),
  );
  // `/health` is the readiness probe too: the path a load balancer or an operator tries first.
  for (const url of ['/health/ready', '/health'])
    app.get(
      url,
      {
        schema: {
          tags: ['Operations'],
          summary: url === '/health' ? 'Health (the readiness probe)' : 'Readiness',
          description: 'Answers 200 when the database answers, 503 when it does not.',
          response: {
            200: { ...Status, description: 'Ready: the database answers.' },
            503: { ...Status, description: 'Not ready: the database cannot be reached.' },
          },
        },
      },
      async (request, reply) => {
        try {
          // a database that does not answer within READY_TIMEOUT_MS is not ready (a stalled server, not only a gone one)
          let timer: NodeJS.Timeout | undefined;
          const late = new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error('the database did not answer in time')), READY_TIMEOUT_MS);
          });
          await Promise.race([sql`select 1`.execute(app.db), late]).finally(() => clearTimeout(timer));
          return { status: 'ok', database: app.database.dialect };
        } catch (err) {
          request.log.warn({ err }, 'readiness check failed');
          return reply.code(503).send({ status: 'unavailable', database: app.database.dialect });
        }
      },
    );
}
