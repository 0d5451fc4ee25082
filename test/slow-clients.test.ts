// Slow, stalled and malformed HTTP over a real socket (issue 11, items 4, 5 and 10's shutdown): every answer the
// server writes itself is the documented error map with Connection: close, and no client holds a connection or
// the shutdown past the configured timeouts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { DIALECTS, freshDatabase } from './support/db.ts';
import { testApp, type TestApp } from './support/app.ts';
import { rawExchange, type RawAnswer } from './support/raw-http.ts';
import { startServer } from '../src/server.ts';
import { loadConfig } from '../src/config.ts';

async function listening(env: Record<string, string>, dialect = DIALECTS[0]!): Promise<{ t: TestApp; port: number }> {
  const t = await testApp(dialect, env);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, port: (t.app.server.address() as AddressInfo).port };
}

function assertErrorMap(answer: RawAnswer, status: number, pattern: RegExp): void {
  assert.equal(answer.status, status, answer.text.slice(0, 300));
  assert.match(answer.headers['content-type'] ?? '', /^application\/json/);
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body), ['$'], answer.body);
  assert.match((body.$ as string[])[0]!, pattern);
}

const GET = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: x\r\n${extra}\r\n`;

describe('malformed requests over a real socket', () => {
  for (const dialect of DIALECTS) {
    it(`item 5: framework and parser errors answer in the error map [${dialect}]`, async () => {
      const { t, port } = await listening({}, dialect);
      try {
        const cases: Array<[string, string, number, RegExp]> = [
          [
            'over-long path parameter',
            GET(`/service/v1.2/AccountancyProjectEdit/Project/${'1'.repeat(500)}`, 'Connection: close\r\n'),
            414,
            /longer than 100/,
          ],
          ['malformed %-escape in the path', GET('/service/%zz', 'Connection: close\r\n'), 400, /not valid URL text/],
          [
            'bad chunk size',
            'POST /oauth2/token HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
            400,
            /not valid HTTP/,
          ],
          [
            'Content-Length with Transfer-Encoding',
            'POST /oauth2/token HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
            400,
            /not valid HTTP/,
          ],
          ['non-ASCII path', 'GET /ü HTTP/1.1\r\nHost: x\r\n\r\n', 400, /not valid HTTP/],
          ['garbage request line', 'HELLO THERE\r\n\r\n', 400, /not valid HTTP/],
          [
            'headers over the limit',
            GET('/health/live', `X-Big: ${'a'.repeat(20_000)}\r\n`),
            431,
            /larger than the limit/,
          ],
        ];
        for (const [what, request, status, pattern] of cases) {
          const answer = await rawExchange(port, [Buffer.from(request, 'utf8')]);
          assertErrorMap(answer, status, pattern);
          assert.equal(answer.headers.connection, 'close', what);
        }
      } finally {
        await t.close();
      }
    });
  }

  it(
    'item 4: unfinished headers and an unfinished body get 408 and the connection is closed',
    { timeout: 30_000 },
    async () => {
      const { t, port } = await listening({
        HEADERS_TIMEOUT_MS: '1000',
        REQUEST_TIMEOUT_MS: '2000',
        KEEP_ALIVE_TIMEOUT_MS: '500',
      });
      try {
        const headers = await rawExchange(port, ['GET /health/live HTTP/1.1\r\nHost: x\r\n']);
        assertErrorMap(headers, 408, /not received in time/);
        assert.equal(headers.headers.connection, 'close');
        const body = await rawExchange(port, [
          'POST /oauth2/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ngrant_type',
        ]);
        assertErrorMap(body, 408, /not received in time/);
        // An idle keep-alive connection is closed after KEEP_ALIVE_TIMEOUT_MS.
        const idle = await rawExchange(port, [GET('/health/live')]);
        assert.equal(idle.status, 200);
      } finally {
        await t.close();
      }
    },
  );

  it('item 10: shutdown with a stalled client ends after SHUTDOWN_TIMEOUT_MS', { timeout: 30_000 }, async () => {
    const database = await freshDatabase('sqlite');
    const signals = { SIGTERM: process.listeners('SIGTERM'), SIGINT: process.listeners('SIGINT') };
    const config = loadConfig({
      DATABASE_URL: database.url,
      PORT: '0',
      SHUTDOWN_TIMEOUT_MS: '300',
      REQUEST_TIMEOUT_MS: '600000',
      HEADERS_TIMEOUT_MS: '600000',
      LOG_LEVEL: 'silent',
    });
    const server = await startServer(config, { print: () => {} });
    const port = Number(new URL(server.url).port);
    try {
      const stalled = rawExchange(port, [
        'POST /oauth2/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ngrant',
      ]);
      await new Promise((r) => setTimeout(r, 100)); // the request is in flight
      await server.close(); // without the bound: waits for the client (10 minutes)
      await stalled;
    } finally {
      for (const [signal, before] of Object.entries(signals))
        for (const l of process.listeners(signal as NodeJS.Signals))
          if (!before.includes(l)) process.removeListener(signal, l);
      await database.drop();
    }
  });
});
