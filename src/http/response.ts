// Response shaping shared by every route: null properties left out unless showNullValues=true, and the
// media types the interface offers (application/json, text/json, text/plain; all carry JSON).
import type { App } from '../app-types.ts';

/** Removes properties whose value is null, at every depth (arrays keep their elements). */
export function stripNulls(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      if (v !== null && typeof v === 'object') stripNulls(v);
    }
    return value;
  }
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    for (const k in obj) {
      const v = obj[k];
      if (v === null) delete obj[k];
      else if (typeof v === 'object') stripNulls(v);
    }
  }
  return value;
}

function mediaType(accept: string | undefined): string {
  if (!accept) return 'application/json; charset=utf-8';
  const a = accept.toLowerCase();
  if (a.includes('application/json') || a.includes('*/*') || a.includes('application/*'))
    return 'application/json; charset=utf-8';
  if (a.includes('text/json')) return 'text/json; charset=utf-8';
  if (a.includes('text/plain') || a.includes('text/*')) return 'text/plain; charset=utf-8';
  return 'application/json; charset=utf-8';
}

export function registerResponseShaping(app: App): void {
  app.addHook('preSerialization', async (request, _reply, payload) => {
    const config = request.routeOptions.config;
    if (!config.auth || config.keepNulls) return payload;
    const show = (request.query as { showNullValues?: unknown } | undefined)?.showNullValues;
    return show === true ? payload : stripNulls(payload);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json') && request.routeOptions.config.auth) {
      reply.header('content-type', mediaType(request.headers.accept));
    }
    return payload;
  });
}
