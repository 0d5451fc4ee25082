import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import SQLite from 'better-sqlite3';
import net from 'node:net';
import { once } from 'node:events';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { openDatabase } from '../src/db/database.ts';
import { DIALECTS } from './support/db.ts';
import { bearer, testApp, tokenRequest, type TestApp } from './support/app.ts';
import { PROBE_URL, registerProbe } from './support/probe-route.ts';
import { loadConfig, ConfigError } from '../src/config.ts';

for (const dialect of DIALECTS) {
  describe(`request machinery [${dialect}]`, () => {
    let t: TestApp;
    let token: string;
    before(async () => {
      t = await testApp(dialect, {}, registerProbe);
      token = await t.login();
    });
    after(() => t.close());
    const get = (query: string, headers: Record<string, string> = {}) =>
      t.app.inject({ url: `${PROBE_URL}${query}`, headers: { ...bearer(token), ...headers } });

    it('limit defaults to 20 and offset to 0', async () => {
      const res = await get('');
      assert.equal(res.statusCode, 200);
      assert.equal(res.json()[0].Id, 20 * 1000 + 0);
      assert.equal((await get('?limit=100&offset=7')).json()[0].Id, 100 * 1000 + 7);
    });

    for (const [query, key, value] of [
      ['?limit=0', 'limit', "'0'"],
      ['?limit=101', 'limit', "'101'"],
      ['?limit=-1', 'limit', "'-1'"],
      ['?limit=abc', 'limit', "'abc'"],
      ['?limit=2147483648', 'limit', "'2147483648'"],
      ['?offset=-1', 'offset', "'-1'"],
      ['?offset=2147483648', 'offset', "'2147483648'"],
      ['?limit=1.5', 'limit', "'1.5'"],
      ['?limit=1&limit=2', 'limit', "is given more than once ('1', '2'); give it once."],
      ['?Limit=1&limit=2', 'limit', "is given more than once ('1', '2'); give it once."],
      ['?limit=1&LIMIT=2', 'limit', "is given more than once ('1', '2'); give it once."],
      // Messages quote the value as sent, not as a number it was read as.
      ['?offset=99999999999999999999999', 'offset', "'99999999999999999999999'"],
      ['?limit=99999999999999999999', 'limit', "'99999999999999999999'"],
      ['?offset=9007199254740993', 'offset', "'9007199254740993'"],
      ['?showNullValues=maybe', 'showNullValues', "'maybe'"],
    ] as const) {
      it(`400 with an error map for ${query}`, async () => {
        const res = await get(query);
        assert.equal(res.statusCode, 400);
        const body = res.json();
        assert.deepEqual(Object.keys(body), [key]);
        assert.ok(body[key][0].includes(value), `message names the value: ${body[key][0]}`);
      });
    }

    it('ignores unknown query parameters', async () => {
      assert.equal((await get('?whatever=1&limit=5')).statusCode, 200);
    });

    it('leaves null properties out at every depth unless showNullValues=true', async () => {
      assert.deepEqual(Object.keys((await get('')).json()[0]).sort(), ['Id', 'Nested', 'Scope']);
      assert.deepEqual((await get('')).json()[0].Nested, {});
      const shown = (await get('?showNullValues=true')).json()[0];
      assert.equal(shown.Name, null);
      assert.deepEqual(shown.Nested, { Code: null });
    });

    it('offers application/json, text/json and text/plain', async () => {
      assert.match(String((await get('')).headers['content-type']), /^application\/json/);
      assert.match(String((await get('', { accept: 'text/json' })).headers['content-type']), /^text\/json/);
      const plain = await get('', { accept: 'text/plain' });
      assert.match(String(plain.headers['content-type']), /^text\/plain/);
      assert.equal(JSON.parse(plain.body)[0].Id, 20000);
      assert.equal(plain.headers.vary, 'Accept');
    });

    it('chooses among the three by the Accept header q-values, and falls back to application/json', async () => {
      const typeFor = async (accept: string) =>
        String((await get('', { accept })).headers['content-type']).split(';')[0];
      assert.equal(await typeFor('text/plain, */*;q=0.1'), 'text/plain');
      assert.equal(await typeFor('text/json, */*;q=0.5'), 'text/json');
      assert.equal(await typeFor('application/json;q=0.1, text/json;q=0.9'), 'text/json');
      assert.equal(await typeFor('application/json;q=0, text/plain'), 'text/plain');
      assert.equal(await typeFor('*/*'), 'application/json');
      // equal q-values: the more specific range, then the header's order (docs/auth.md)
      assert.equal(await typeFor('text/json, application/json'), 'text/json');
      assert.equal(await typeFor('text/*, text/plain'), 'text/plain');
      assert.equal(await typeFor('text/*'), 'text/json');
      assert.equal(await typeFor('text/html'), 'application/json');
      assert.equal(await typeFor('text/plain;q=0'), 'application/json');
      // a range with the answers' own charset matches them; one with another charset matches none
      assert.equal(await typeFor('text/plain;charset=utf-8, application/json;q=0.1'), 'text/plain');
      assert.equal(await typeFor('text/json; charset=UTF-8'), 'text/json');
      assert.equal(await typeFor('text/*;charset=utf-8'), 'text/json');
      assert.equal(await typeFor('text/plain;charset=latin1'), 'application/json');
      assert.equal(
        String((await get('', { accept: 'text/plain;charset=utf-8' })).headers['content-type']),
        'text/plain; charset=utf-8',
      );
    });

    it('matches paths case-insensitively', async () => {
      assert.equal((await t.app.inject({ url: PROBE_URL.toLowerCase(), headers: bearer(token) })).statusCode, 200);
    });

    it('body errors: malformed JSON, wrong type, unknown property, missing property, wrong content type, too large', async () => {
      const post = (payload: string, type = 'application/json') =>
        t.app.inject({ method: 'POST', url: PROBE_URL, payload, headers: { ...bearer(token), 'content-type': type } });
      const malformed = await post('{"Name": ');
      assert.equal(malformed.statusCode, 400);
      assert.ok(malformed.json().$[0].length > 0);
      const wrong = await post(JSON.stringify({ Name: 'x', Count: 'three', Items: [1, 'two'] }));
      assert.equal(wrong.statusCode, 400);
      assert.match(wrong.json().Count[0], /'three'/);
      assert.match(wrong.json()['Items[1]'][0], /'two'/);
      const unknown = await post(JSON.stringify({ name: 'x', Name: 'x', Count: 1 }));
      assert.equal(unknown.statusCode, 400);
      assert.match(unknown.json().name[0], /Unknown property/);
      const missing = await post(JSON.stringify({ Name: 'x' }));
      assert.deepEqual(missing.json(), { Count: ['Count is required.'] });
      const xml = await post('<a/>', 'application/xml');
      assert.equal(xml.statusCode, 400);
      assert.ok(xml.json().$);
      const big = await post(JSON.stringify({ Name: 'x'.repeat(2 * 1024 * 1024), Count: 1 }));
      assert.equal(big.statusCode, 413);
      assert.ok(big.json().$[0].includes('limit'));
    });

    it('404 with an error map for an unknown route', async () => {
      const res = await t.app.inject({ url: '/service/v1.2/Nope', headers: bearer(token) });
      assert.equal(res.statusCode, 404);
      assert.match(res.json().$[0], /Nope/);
    });

    it('health, metrics and the OpenAPI document', async () => {
      assert.deepEqual((await t.app.inject({ url: '/health/live' })).json(), { status: 'ok' });
      assert.deepEqual((await t.app.inject({ url: '/health/ready' })).json(), { status: 'ok', database: dialect });
      const metrics = await t.app.inject({ url: '/metrics' });
      assert.match(
        metrics.body,
        /http_requests_total\{method="GET",route="\/service\/v1.2\/Probe\/Items",status="200"\}/,
      );
      assert.match(metrics.body, /http_request_duration_seconds_bucket/);
      // PostgreSQL: the pool's state (docs/deployment.md: raise DATABASE_POOL_MAX only when requests wait)
      for (const name of ['db_pool_connections', 'db_pool_idle_connections', 'db_pool_waiting_requests'])
        if (dialect === 'postgres') assert.match(metrics.body, new RegExp(`^${name} \\d+$`, 'm'), name);
        else assert.ok(!metrics.body.includes(name), name);
      const doc = (await t.app.inject({ url: '/service/openapi.json' })).json();
      assert.equal(doc.openapi, '3.0.3');
      assert.equal(doc.info.title, 'V1.2', 'interface.md, Versioning 1: the schema title of version 1.2');
      assert.ok(doc.paths['/oauth2/token']);
      assert.ok(!Object.keys(doc.paths).some((p) => p.startsWith('/openwowi')));
      const docs = await t.app.inject({ url: '/docs/' });
      assert.equal(docs.statusCode, 200);
      assert.match(docs.body, /swagger/i);
    });
  });
}

describe('configuration', () => {
  it('fails fast with a message naming the variable', () => {
    assert.throws(
      () => loadConfig({ PORT: 'abc' }),
      (e: Error) => e instanceof ConfigError && /PORT/.test(e.message),
    );
    assert.throws(() => loadConfig({ PORT: '70000' }), /PORT/);
    assert.throws(() => loadConfig({ DATABASE_URL: 'mysql://x' }), /DATABASE_URL/);
    assert.throws(() => loadConfig({ LOG_LEVEL: 'loud' }), /LOG_LEVEL/);
    assert.throws(() => loadConfig({ NOW: '2026-13-45' }), /NOW="2026-13-45" is not a real date/);
    assert.throws(() => loadConfig({ NOW: '2026-02-30' }), /NOW/);
    assert.equal(loadConfig({ NOW: '2027-01-01' }).now, '2027-01-01');
    // Empty is unset: the default, as `PORT=` in an env file means.
    assert.equal(loadConfig({ PORT: '' }).port, 8080);
    assert.equal(loadConfig({ DATABASE_URL: '', LOG_LEVEL: '' }).databaseUrl, 'sqlite:./data/wohnapi.sqlite');
    assert.throws(() => loadConfig({ MAX_HEAP_MB: '10' }), /MAX_HEAP_MB/);
    // values only the server's parts refused later, naming no variable
    assert.throws(() => loadConfig({ DATABASE_URL: 'postgres://u:p@127.0.0.1:99999/db' }), /DATABASE_URL=/);
    for (const bad of ['999.1.1.1', '10.0.0.0/99', '10.0.0.1,nohost', 'fd00::/129'])
      assert.throws(() => loadConfig({ TRUST_PROXY: bad }), /TRUST_PROXY=/, bad);
    for (const good of [
      'true',
      'false',
      '2',
      '10.0.0.1',
      '10.0.0.0/8, 192.168.1.1',
      'fd00::/8,::1',
      '10.0.0.0/255.0.0.0',
    ])
      assert.doesNotThrow(() => loadConfig({ TRUST_PROXY: good }), good);
    assert.equal(loadConfig({}).port, 8080);
    assert.equal(loadConfig({}).databaseUrl, 'sqlite:./data/wohnapi.sqlite');
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After and an error map past RATE_LIMIT_PER_MINUTE', async () => {
    const t = await testApp('sqlite', { RATE_LIMIT_PER_MINUTE: '3' }, registerProbe);
    try {
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 4; i++) {
        last = await t.app.inject({ url: PROBE_URL });
        statuses.push(last.statusCode);
      }
      assert.deepEqual(statuses, [401, 401, 401, 429]);
      assert.ok(last);
      assert.ok(Number(last.headers['retry-after']) > 0);
      assert.match(last.json().$[0], /limit is 3 per minute/);
      // probes and the metrics scrape stay outside the limit; other paths do not
      for (const url of ['/health/live', '/health/ready', '/health', '/metrics', '/HEALTH/live', '/Metrics'])
        assert.equal((await t.app.inject({ url })).statusCode, 200, url);
      assert.equal((await t.app.inject({ url: '/healthz' })).statusCode, 429);
      assert.deepEqual((await t.app.inject({ url: '/health' })).json(), { status: 'ok', database: 'sqlite' });
    } finally {
      await t.close();
    }
  });
});

describe('request details for vendor clients', () => {
  it('reads boolean query parameters case-insensitively, rejects text/plain bodies and names the JSON error position', async () => {
    const t = await testApp('sqlite', {}, registerProbe);
    try {
      const token = await t.login();
      const shown = await t.app.inject({ url: `${PROBE_URL}?showNullValues=True`, headers: bearer(token) });
      assert.equal(shown.statusCode, 200);
      assert.equal(shown.json()[0].Name, null);
      assert.equal(
        (await t.app.inject({ url: `${PROBE_URL}?showNullValues=FALSE`, headers: bearer(token) })).json()[0].Name,
        undefined,
      );
      /** A POST of `payload` to the probe, as JSON unless `headers` say otherwise. */
      const post = (payload: string, headers: Record<string, string> = {}) =>
        t.app.inject({
          method: 'POST',
          url: PROBE_URL,
          payload,
          headers: { ...bearer(token), 'content-type': 'application/json', ...headers },
        });
      const plain = await post('{"Name":"x","Count":1}', { 'content-type': 'text/plain' });
      assert.equal(plain.statusCode, 400);
      assert.match(plain.json().$[0], /content type 'text\/plain'/);
      const bad = await post('{"Name": x}');
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json().$[0], /not valid JSON: Unexpected token 'x'/);
      const proto = await post('{"Name":"x","Count":1,"__proto__":{"a":1}}');
      assert.equal(proto.statusCode, 400);
      assert.equal(proto.body, '{"__proto__":["Unknown property \'__proto__\' at __proto__: it may not be sent."]}');
      const nested = await post(
        '{"Name":"x","Count":1,"Items":[1,{"__proto__":{"a":1}}],"constructor":{"prototype":{"a":1}}}',
      );
      assert.equal(nested.statusCode, 400);
      assert.deepEqual(Object.keys(nested.json()).sort(), ['Items[1].__proto__', 'constructor']);
      assert.equal(({} as Record<string, unknown>).a, undefined, 'no prototype was touched');
      for (const encoding of ['gzip', 'br']) {
        const compressed = await post('{"Name":"x","Count":1}', { 'content-encoding': encoding });
        assert.equal(compressed.statusCode, 400, compressed.body);
        assert.match(compressed.json().$[0], new RegExp(`Content-Encoding '${encoding}', which is not supported`));
      }
      const huge = await post('{"Name":"x","Count":1e400,"Items":[1,-1e999]}');
      assert.equal(huge.statusCode, 400);
      assert.deepEqual(huge.json(), {
        Count: ['The value of Count is a number beyond ±1.8e308, which no field takes.'],
        'Items[1]': ['The value of Items[1] is a number beyond ±1.8e308, which no field takes.'],
      });
      const openwowi = await tokenRequest(
        t.app,
        { grant_type: 'password', username: 'nobody', password: 'x-x-x-x-x' },
        '/openWowi/oauth2/token',
      );
      assert.equal(openwowi.json().error, 'invalid_grant');
    } finally {
      await t.close();
    }
  });
});

// SQLite only: PostgreSQL has no database-wide write lock to wait for.
describe('a write while another connection holds the SQLite write lock (an import, a second process)', () => {
  it('answers 503 with Retry-After past the busy timeout, stores nothing, and takes the retry', async () => {
    const t = await testApp('sqlite');
    const other = new SQLite(t.database.url.slice('sqlite:'.length));
    try {
      await t.database.db.insertInto('company_codes').values({ id: 1, code: '1', name: 'One' }).execute();
      const token = await t.login();
      const key = await t.apiKey('all');
      const create = () =>
        t.app.inject({
          method: 'POST',
          url: `/service/v1.2/AccountancyProjectEdit/Project?apiKey=${key}`,
          headers: bearer(token),
          payload: { CompanyCodeId: 1, ProjectLifeTimeFrom: '2025-01-01', Code: 'BUSY' },
        });
      t.database.sqlite!.pragma('busy_timeout = 50'); // instead of 10 s
      other.exec('BEGIN IMMEDIATE');
      const busy = await create();
      other.exec('ROLLBACK');
      assert.equal(busy.statusCode, 503, busy.body);
      assert.equal(busy.headers['retry-after'], '5');
      assert.match(busy.json().$[0], /database is busy with another writer .* nothing was changed/);
      assert.deepEqual(await t.database.db.selectFrom('projects').select('id').execute(), []);
      assert.equal((await create()).statusCode, 201);
    } finally {
      other.close();
      await t.close();
    }
  });
});

/** A TCP proxy to the PostgreSQL server of `url`: close it to take the server away, `stall` to stop its bytes. */
async function pgProxy(url: string) {
  const target = new URL(url);
  const sockets = new Set<net.Socket>();
  let stalled = false;
  const proxy = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
    // after pipe(), which resumes its sources: a connection opened during a stall stalls too
    if (stalled) for (const s of [client, upstream]) s.pause();
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  const port = (proxy.address() as net.AddressInfo).port;
  const via = new URL(url);
  via.port = String(port);
  const stall = (on: boolean) => {
    stalled = on;
    for (const s of sockets)
      if (on) s.pause();
      else s.resume();
  };
  return { proxy, sockets, port, via: via.toString(), stall };
}

describe('PostgreSQL out of reach (stopped, restarting, the network gone)', () => {
  it('answers 503 with Retry-After and an error map, and serves again once it is back', async () => {
    const t = await testApp('postgres');
    // The app reaches PostgreSQL through a TCP proxy that the test takes down and brings back.
    const { proxy, sockets, port, via } = await pgProxy(t.database.url);
    const database = openDatabase(via);
    const app = await buildApp({ database, config: loadConfig({}), now: () => t.clock.now });
    try {
      const token = await t.login();
      const get = () => app.inject({ url: '/service/v1.2/RentAccounting/PriceIndex', headers: bearer(token) });
      assert.equal((await get()).statusCode, 200);
      proxy.close();
      for (const s of sockets) s.destroy();
      const down = await get();
      assert.equal(down.statusCode, 503, down.body);
      assert.equal(down.headers['retry-after'], '5');
      assert.deepEqual(down.json(), { $: ['The database cannot be reached just now: retry in 5 s.'] });
      // the token endpoint too: not the client's fault, so no invalid_request
      const login = await app.inject({
        method: 'POST',
        url: '/oauth2/token',
        payload: 'grant_type=password&username=someone&password=some-password',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(login.statusCode, 503, login.body);
      assert.equal(login.headers['retry-after'], '5');
      assert.equal(login.headers['cache-control'], 'no-store');
      // in the token endpoint's own shape (RFC 6749 5.2), like its other errors
      assert.deepEqual(login.json(), {
        error: 'temporarily_unavailable',
        error_description: 'The database cannot be reached just now: retry in 5 s.',
      });
      // Once the pool has dropped its clients, a new connection is refused (ECONNREFUSED): the same answer.
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal((await get()).statusCode, 503);
      proxy.listen(port, '127.0.0.1');
      await once(proxy, 'listening');
      assert.equal((await get()).statusCode, 200);
    } finally {
      await app.close();
      await database.close();
      proxy.close();
      for (const s of sockets) s.destroy();
      await t.close();
    }
  });
  it('a statement stuck behind a lock is cancelled by the server: a 503, and no session is left waiting', async () => {
    const t = await testApp('postgres');
    const database = openDatabase(t.database.url, { queryTimeoutMs: 1000 });
    const app = await buildApp({ database, config: loadConfig({ PAGE_CACHE_MB: '0' }), now: () => t.clock.now });
    // another session (an import, an operator's psql) holds a lock the request's statement waits for
    const locker = new pg.Client({ connectionString: t.database.url });
    await locker.connect();
    try {
      const token = await t.login();
      const get = () => app.inject({ url: '/service/v1.2/RentAccounting/PriceIndex', headers: bearer(token) });
      assert.equal((await get()).statusCode, 200);
      await locker.query('begin');
      await locker.query('lock table price_indices in access exclusive mode');
      for (let i = 0; i < 3; i++) {
        const down = await get();
        assert.equal(down.statusCode, 503, down.body);
        assert.equal(down.headers['retry-after'], '5');
        assert.match(down.body, /did not finish this request in time/);
      }
      // cancelled by the server, the statements wait no more (a client that only stopped waiting left each one
      // waiting for the lock, a session and a connection more per retry)
      const waiting = await locker.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
      );
      assert.equal(waiting.rows[0]?.n, 0);
      await locker.query('rollback');
      assert.equal((await get()).statusCode, 200);
    } finally {
      await locker.end();
      await app.close();
      await database.close();
      await t.close();
    }
  });
  it('a server that stalls (no answer, the connection open) is a 503 too, and /health/ready says not ready', async () => {
    const t = await testApp('postgres');
    // A proxy that stops passing bytes both ways, as a network that drops packets or a stopped server process.
    const { proxy, sockets, via, stall } = await pgProxy(t.database.url);
    const database = openDatabase(via, { queryTimeoutMs: 1000 });
    const app = await buildApp({ database, config: loadConfig({}), now: () => t.clock.now });
    try {
      const token = await t.login();
      const get = () => app.inject({ url: '/service/v1.2/RentAccounting/PriceIndex', headers: bearer(token) });
      assert.equal((await get()).statusCode, 200);
      stall(true);
      const started = Date.now();
      const down = await get();
      assert.equal(down.statusCode, 503, down.body);
      assert.equal(down.headers['retry-after'], '5');
      assert.ok(Date.now() - started < 10_000, 'answered after the query timeout, not left hanging');
      const ready = await app.inject({ url: '/health/ready' });
      assert.equal(ready.statusCode, 503, ready.body);
      stall(false);
      let back = 0;
      for (let i = 0; i < 50 && back !== 200; i++) {
        back = (await get()).statusCode;
        if (back !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(back, 200, 'serves again once the server answers');
    } finally {
      await app.close();
      await database.close();
      proxy.close();
      for (const s of sockets) s.destroy();
      await t.close();
    }
  });
});
