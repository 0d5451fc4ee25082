// Liveness and readiness probes.
import { sql } from 'kysely';
import { Type } from '@sinclair/typebox';
import type { App } from '../app-types.ts';

const Status = Type.Object({ status: Type.String(), database: Type.Optional(Type.String()) });

export default async function healthRoutes(app: App) {
  app.get('/health/live', { schema: { tags: ['Operations'], response: { 200: Status } } }, async () => ({
    status: 'ok',
  }));
  app.get(
    '/health/ready',
    { schema: { tags: ['Operations'], response: { 200: Status, 503: Status } } },
    async (request, reply) => {
      try {
        await sql`select 1`.execute(app.db);
        return { status: 'ok', database: app.database.dialect };
      } catch (err) {
        request.log.warn({ err }, 'readiness check failed');
        return reply.code(503).send({ status: 'unavailable', database: app.database.dialect });
      }
    },
  );
}
