// The front door (src/http/front-door.ts) over real HTTP: a repeated page-cache hit is answered before Fastify with
// the pipeline's exact bytes, headers in the same order, the same metrics and log lines; and it never answers when
// any check of the pipeline would now decide otherwise (another commit, a disabled user, a revoked key, an expired
// token, another Accept header, rate limiting).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { ledgerProbe } from './support/probe-route.ts';
import { DIALECTS, freshDatabase, type TestDatabase } from './support/db.ts';
import { testApp, type TestApp } from './support/app.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { loggerOptions } from '../src/server.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { PERMISSIONS } from '../src/auth/permissions.ts';
import { addUser, disableUser } from '../src/auth/users.ts';
import { revokeApiKey } from '../src/auth/api-keys.ts';
import type { App } from '../src/app-types.ts';

const PATH = '/service/v1.2/Probe/FrontDoorLedgers';

const registerLedgerRoute = ledgerProbe(PATH);

interface Answer {
  status: number;
  /** Header lines as sent, in order, without Date (which moves with the clock). */
  head: string[];
  headers: Record<string, string>;
  body: string;
}

/** One GET over a fresh connection, read raw: header order and bytes as the server wrote them. */
function get(port: number, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const [status = '', ...lines] = text.slice(0, end).split('\r\n');
      const head = lines.filter((l) => !/^date:/i.test(l));
      const all = Object.fromEntries(
        head.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(status.split(' ')[1]), head, headers: all, body: text.slice(end + 4) });
    });
    const lines = Object.entries({ host: 'x', connection: 'close', ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
    socket.write(`GET ${path} HTTP/1.1\r\n${lines.join('')}\r\n`);
  });
}

async function frontDoorAnswers(port: number): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  const text = await res.text();
  return Number(/^http_front_door_answers_total (\d+)$/m.exec(text)?.[1]);
}

async function seedLedgers(db: App['db']) {
  await db
    .insertInto('company_codes')
    .values([
      { id: 1, code: '1', name: 'One' },
      { id: 2, code: '2', name: 'Two' },
    ])
    .execute();
}

for (const dialect of DIALECTS) {
  describe(`front door [${dialect}]`, () => {
    let t: TestApp;
    let other: Database;
    let port: number;
    let token: string;
    const auth = () => ({ authorization: `Bearer ${token}` });
    before(async () => {
      t = await testApp(dialect, {}, registerLedgerRoute);
      other = openDatabase(t.database.url); // another server process's connection
      await seedLedgers(t.database.db);
      token = await t.login({ name: 'door' });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as AddressInfo).port;
    });
    after(async () => {
      await other.close();
      await t.close();
    });

    it('answers a repeated hit before the pipeline with the same status, headers in order, bytes and metrics', async () => {
      const miss = await get(port, PATH, auth());
      assert.equal(miss.headers['x-cache'], 'miss');
      const before = await frontDoorAnswers(port);
      const hits = [await get(port, PATH, auth()), await get(port, PATH, auth())];
      assert.equal((await frontDoorAnswers(port)) - before, 2, 'the repeats were answered by the front door');
      const head = (answer: Answer) =>
        answer.head.map((l) =>
          l.replace(/^x-request-id: .*/, 'x-request-id: *').replace('x-cache: miss', 'x-cache: hit'),
        );
      for (const hit of hits) {
        assert.equal(hit.status, 200);
        assert.equal(hit.body, miss.body);
        assert.deepEqual(head(hit), [
          'content-type: application/json; charset=utf-8',
          'x-cache: hit',
          'x-request-id: *',
          'vary: Accept',
          `content-length: ${Buffer.byteLength(miss.body)}`,
          'Connection: close',
        ]);
      }
      assert.notEqual(hits[0]!.headers['x-request-id'], hits[1]!.headers['x-request-id']);
      // The caller's request id is kept, as step 1 keeps it.
      const named = await get(port, PATH, { ...auth(), 'x-request-id': 'trace-42' });
      assert.equal(named.headers['x-request-id'], 'trace-42');
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      const counted = new RegExp(`http_requests_total\\{method="GET",route="${PATH}",status="200"\\} (\\d+)`);
      assert.equal(Number(counted.exec(metrics)?.[1]), 4, 'every answer counted once in the request metrics');
    });

    it('never answers with data older than the last commit of any connection', async () => {
      await get(port, PATH, auth());
      await get(port, PATH, auth());
      await other.db.updateTable('company_codes').set({ name: 'Renamed' }).where('id', '=', 1).execute();
      const after = await get(port, PATH, auth());
      assert.equal(after.headers['x-cache'], 'miss');
      assert.equal((JSON.parse(after.body) as Array<{ Name: string }>)[0]!.Name, 'Renamed');
    });

    it('checks credentials again when they change: disabled user, revoked key, expired token', async () => {
      const key = await t.apiKey([2], 'door-key');
      const path = `${PATH}?apiKey=${key}`;
      await get(port, path, auth());
      assert.equal((await get(port, path, auth())).headers['x-cache'], 'hit');
      await revokeApiKey(other.db, 'door-key');
      assert.equal((await get(port, path, auth())).status, 401);

      const second = await t.login({ name: 'door-2' });
      const as2 = { authorization: `Bearer ${second}` };
      await get(port, PATH, as2);
      assert.equal((await get(port, PATH, as2)).headers['x-cache'], 'hit');
      await disableUser(other.db, 'door-2');
      assert.equal((await get(port, PATH, as2)).status, 401);

      await get(port, PATH, auth());
      assert.equal((await get(port, PATH, auth())).headers['x-cache'], 'hit');
      t.clock.advance(3601);
      assert.equal((await get(port, PATH, auth())).status, 401, 'an expired token is refused');
      t.clock.advance(-3601);
    });

    it('keeps answers for another Accept header or another token apart', async () => {
      await get(port, PATH, auth());
      const plain = await get(port, PATH, { ...auth(), accept: 'text/plain' });
      assert.equal(plain.headers['content-type'], 'text/plain; charset=utf-8');
      const plainAgain = await get(port, PATH, { ...auth(), accept: 'text/plain' });
      assert.equal(plainAgain.headers['content-type'], 'text/plain; charset=utf-8');
      assert.equal((await get(port, PATH, auth())).headers['content-type'], 'application/json; charset=utf-8');
      assert.equal((await get(port, PATH, { authorization: 'Bearer not-a-token' })).status, 401);
    });

    // Last: logging in on the moved clock prunes the tokens that expired by then, the other tests' token included.
    it("leaves answers with headers of their own to Fastify: AllocationGroups' Deprecation, Sunset, Link, then 410", async () => {
      const saved = t.clock.now;
      t.clock.now = new Date('2026-12-31T23:59:00Z');
      try {
        const as = { authorization: `Bearer ${await t.login()}` };
        const url = '/service/v1.2/RunningCostDistributionRead/AllocationGroups?limit=3';
        const before = await frontDoorAnswers(port);
        const answers = [await get(port, url, as), await get(port, url, as), await get(port, url, as)];
        assert.deepEqual(
          answers.map((a) => a.headers['x-cache']),
          ['miss', 'hit', 'hit'],
        );
        for (const a of answers) {
          assert.equal(a.status, 200);
          assert.ok(a.headers.deprecation && a.headers.sunset, `${a.head.join('; ')}`);
          assert.match(a.headers.link ?? '', /AllocationGroupBases>; rel="successor-version"/);
        }
        assert.equal(await frontDoorAnswers(port), before, 'the pipeline answered every repeat');
        t.clock.advance(120); // 2027-01-01T00:01:00Z
        const gone = await get(port, url, as);
        assert.equal(gone.status, 410, 'a repeat after the sunset is gone');
        assert.ok(JSON.parse(gone.body).$);
      } finally {
        t.clock.now = saved;
      }
    });
  });
}

describe('front door: logs and rate limiting', () => {
  let database: TestDatabase;
  before(async () => {
    database = await freshDatabase(DIALECTS[0]!);
    await seedLedgers(database.db);
    await addUser(database.db, {
      name: 'logs',
      password: 'correct horse battery',
      permissions: [PERMISSIONS.runningCostRead],
    });
  });
  after(() => database.drop());

  async function serve(env: Record<string, string>, lines: string[]) {
    const config = loadConfig({ LOG_LEVEL: 'info', ...env });
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString().trim().split('\n'));
        done();
      },
    });
    const app = await buildApp({ database, config, logger: { ...(loggerOptions(config) as object), stream } });
    await registerLedgerRoute(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const login = await app.inject({
      method: 'POST',
      url: '/oauth2/token',
      payload: 'grant_type=password&username=logs&password=correct%20horse%20battery',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    return { app, port: (app.server.address() as AddressInfo).port, token: login.json().access_token as string };
  }

  it("writes Fastify's two request lines for its answers, with the same keys", async () => {
    const lines: string[] = [];
    const { app, port, token } = await serve({}, lines);
    try {
      const headers = { authorization: `Bearer ${token}` };
      await get(port, `${PATH}?apiKey=`, headers);
      const piped = await get(port, `${PATH}?apiKey=`, headers);
      const before = await frontDoorAnswers(port);
      const hit = await get(port, `${PATH}?apiKey=`, headers);
      assert.equal((await frontDoorAnswers(port)) - before, 1);
      const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      const of = (id: string | undefined) => logged.filter((l) => l.reqId === id);
      // The same lines as the pipeline writes for a hit, but for the id and times.
      const same = (l: Record<string, unknown>) =>
        JSON.stringify({ ...l, time: 0, reqId: '*', req: l.req && { ...l.req, id: '*' }, responseTime: 0 });
      const id = hit.headers['x-request-id'];
      assert.equal(of(id).length, 2);
      assert.deepEqual(of(id).map(same), of(piped.headers['x-request-id']).map(same));
      assert.deepEqual(of(id)[0]!.req, {
        id,
        method: 'GET',
        url: `${PATH}?apiKey=[redacted]`,
        remoteAddress: '127.0.0.1',
      });
    } finally {
      await app.close();
    }
  });

  it('stays shut while rate limiting counts every request', async () => {
    const { app, port, token } = await serve({ RATE_LIMIT_PER_MINUTE: '1000', LOG_LEVEL: 'warn' }, []);
    try {
      const headers = { authorization: `Bearer ${token}` };
      for (let i = 0; i < 3; i++) await get(port, PATH, headers);
      assert.equal(await frontDoorAnswers(port), 0);
      assert.equal((await get(port, PATH, headers)).headers['x-ratelimit-limit'], '1000');
    } finally {
      await app.close();
    }
  });
});
