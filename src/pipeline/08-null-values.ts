// Step 8 (serialization): properties whose value is null are left out at every depth unless the request says
// showNullValues=true. Applies to API routes (config.auth) except fixed-shape answers (config.keepNulls), whose nulls
// the route decides.
// A 200 answer whose response schema compiles (src/http/serializer.ts) is written by that route's compiled
// serializer, with the null omission compiled in; other answers get the `stripNulls` pass before Fastify's own.
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { App } from '../app-types.ts';
import { stripNulls } from '../http/response.ts';
import { compileSerializers, type Serializers } from '../http/serializer.ts';

/** Compiled serializers by 200-response schema object (compiled on the first answer; null = not compilable). */
const compiled = new WeakMap<object, Serializers | null>();

function serializersFor(schema: unknown): Serializers | null {
  if (schema === null || typeof schema !== 'object') return null;
  let s = compiled.get(schema);
  if (s === undefined) {
    s = compileSerializers(schema) ?? null;
    compiled.set(schema, s);
  }
  return s;
}

const responseSchema = (request: FastifyRequest): unknown =>
  (request.routeOptions.schema?.response as Record<string, unknown> | undefined)?.[200];

export default fp(
  async (app: App) => {
    app.addHook('preSerialization', async (request, reply, payload) => {
      const config = request.routeOptions.config;
      if (!config.auth) return payload;
      if (config.keepNulls) {
        // The route decides which nulls are shown: its compiled serializer writes the payload as it is.
        const s = reply.statusCode === 200 ? serializersFor(responseSchema(request)) : null;
        if (s) reply.serializer(s.keep);
        return payload;
      }
      const show = (request.query as { showNullValues?: unknown } | undefined)?.showNullValues === true;
      if (reply.statusCode === 200) {
        const s = serializersFor(responseSchema(request));
        if (s) {
          reply.serializer(show ? s.keep : s.omit);
          return payload;
        }
      }
      return show ? payload : stripNulls(payload);
    });
  },
  { name: 'null-values', dependencies: ['authentication', 'route-config'] },
);
