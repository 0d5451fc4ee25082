// One delivery over HTTP: resolves and checks the target (src/webhooks/ssrf.ts), connects to the checked address,
// never follows a redirect, gives up after the timeout. Answers what happened; never throws: a request that cannot be
// built or sent (e.g. a stored header value Node refuses) is a failed attempt like a refused connection.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { UrlRefused, checkTarget } from './ssrf.ts';
import { sign } from './signing.ts';

export interface Outgoing {
  url: string;
  eventId: string;
  body: string;
  signingSecret: string;
  auth: { type: string; name: string | null; secret: string | null };
}

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface SendOptions {
  allowPrivate: boolean;
  timeoutMs: number;
}

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
};

/** The headers of the configured callback authentication. */
export function authHeaders(auth: Outgoing['auth']): Record<string, string> {
  if (auth.type === 'Bearer' && auth.secret) return { authorization: `Bearer ${auth.secret}` };
  if (auth.type === 'Basic' && auth.name !== null && auth.secret !== null)
    return { authorization: `Basic ${Buffer.from(`${auth.name}:${auth.secret}`).toString('base64')}` };
  if (auth.type === 'Custom' && auth.name && auth.secret !== null) return { [auth.name.toLowerCase()]: auth.secret };
  return {};
}

export async function send(out: Outgoing, options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): SendResult => ({
    ok: statusCode !== null && statusCode >= 200 && statusCode < 300,
    statusCode,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  let target;
  let limit: NodeJS.Timeout | undefined;
  try {
    // Name resolution counts against the timeout too.
    target = await Promise.race([
      checkTarget(out.url, options.allowPrivate),
      new Promise<never>((_, reject) => {
        limit = setTimeout(
          () => reject(new UrlRefused(`No answer within ${options.timeoutMs} ms.`)),
          options.timeoutMs,
        );
      }),
    ]);
  } catch (err) {
    return done(null, err instanceof UrlRefused ? err.message : 'The URL could not be checked.');
  } finally {
    clearTimeout(limit);
  }
  try {
    return await post(out, options, target, done);
  } catch (err) {
    return done(null, `The request could not be sent: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The POST itself, to the checked address. Throws when the request cannot be built (bad header content). */
function post(
  out: Outgoing,
  options: SendOptions,
  target: Awaited<ReturnType<typeof checkTarget>>,
  done: (statusCode: number | null, error: string | null) => SendResult,
): Promise<SendResult> {
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    ...authHeaders(out.auth),
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(out.body)),
    'user-agent': 'wohnapi-webhooks/1',
    'webhook-id': out.eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': sign(out.signingSecret, out.eventId, timestamp, out.body),
  };
  // Connect to the checked address (no second resolution, no DNS-rebinding window); SNI and Host stay the name.
  const lookup: LookupFunction = (_host, opts, callback) => {
    if ((opts as { all?: boolean }).all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const isHttps = target.url.protocol === 'https:';
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (r: SendResult) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        resolve(r);
      }
    };
    // Throws here (so the promise rejects) on header content Node refuses.
    const request = (isHttps ? https : http).request(
      target.url,
      { method: 'POST', headers, lookup, agent: isHttps ? agents.https : agents.http },
      (response) => {
        // The body is not used; read it so the connection can be reused, but never wait on it beyond the timeout.
        response.on('data', () => {});
        response.on('end', () => finish(done(response.statusCode ?? null, null)));
        response.on('error', () => finish(done(response.statusCode ?? null, null)));
      },
    );
    const timer = setTimeout(() => {
      finish(done(null, `No answer within ${options.timeoutMs} ms.`));
      request.destroy();
    }, options.timeoutMs);
    request.on('error', (err: NodeJS.ErrnoException) =>
      finish(done(null, `Connection failed: ${err.code ?? err.message}`)),
    );
    request.end(out.body);
  });
}
