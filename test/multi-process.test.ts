// Several servers, one database: two real `wohnapi serve` processes (as on two machines behind a load balancer) on
// one PostgreSQL database behave as one system: concurrent project writes through both are each stored exactly once,
// a project code stays unique in its ledger however the writes are spread, and a read through one server right after
// a write through the other sees the write, and failed logins through both count together. SQLite is not in the matrix on purpose: several processes on one SQLite
// file are refused (docs/deployment.md; the refusal is tested in runtime.test.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEmptyDatabaseUrl } from './support/db.ts';
import { startServe, type ServeProcess } from './support/serve.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { buildWorld } from '../src/dataset/factories.ts';
import { addUser } from '../src/auth/users.ts';
import { createApiKey } from '../src/auth/api-keys.ts';
import { PERMISSIONS } from '../src/auth/permissions.ts';

const PROJECTS = '/service/v1.2/AccountancyProjectEdit/Project';

describe('two server processes on one PostgreSQL database', () => {
  let url: string;
  let remove: () => Promise<void>;
  let a: ServeProcess;
  let b: ServeProcess;
  let token: string;
  let key: string;
  let ledger: number;

  before(async () => {
    ({ url, remove } = await createEmptyDatabaseUrl('postgres'));
    const database = openDatabase(url);
    try {
      await migrateToLatest(database);
      const world = await buildWorld(database.db, { ledgers: 1 });
      ledger = world.ledgers[0]!.companyCodeId;
      await addUser(database.db, { name: 'ops', password: 'long enough', permissions: [PERMISSIONS.projectEdit] });
      key = await createApiKey(database.db, { name: 'both', ledgers: 'all' });
    } finally {
      await database.close();
    }
    [a, b] = await Promise.all([
      startServe(['--workers', '1'], { DATABASE_URL: url }),
      startServe(['--workers', '1'], { DATABASE_URL: url }),
    ]);
    const res = await fetch(`${b.base}/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'password', username: 'ops', password: 'long enough' }),
    });
    assert.equal(res.status, 200, 'a token issued by B');
    token = ((await res.json()) as { access_token: string }).access_token;
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await remove();
  });

  const call = async (server: ServeProcess, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.base}${PROJECTS}${path}?apiKey=${encodeURIComponent(key)}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const create = (server: ServeProcess, code: string) =>
    call(server, 'POST', '', { CompanyCodeId: ledger, ProjectLifeTimeFrom: '2026-01-01', Code: code, Name: code });

  it('concurrent writes through both: every acknowledged write stored exactly once, codes unique per ledger', async () => {
    // 40 distinct codes spread over both servers, and 12 codes each sent to both servers at the same time.
    const distinct = Array.from({ length: 40 }, (_, i) => ({ code: `D${i}`, server: i % 2 ? a : b }));
    const contested = Array.from({ length: 12 }, (_, i) => `C${i}`);
    const [distinctRes, contestedRes] = await Promise.all([
      Promise.all(distinct.map(({ code, server }) => create(server, code))),
      Promise.all(contested.map((code) => Promise.all([create(a, code), create(b, code)]))),
    ]);
    for (const [i, res] of distinctRes.entries()) assert.equal(res.status, 201, `D${i}: ${JSON.stringify(res.body)}`);
    for (const [i, pair] of contestedRes.entries()) {
      const statuses = pair.map((r) => r.status).sort();
      assert.deepEqual(statuses, [201, 400], `C${i}: one server wins the code, the other answers 400`);
      const loser = pair.find((r) => r.status === 400)!;
      assert.ok(Array.isArray(loser.body.Code), `C${i}: the error map names Code: ${JSON.stringify(loser.body)}`);
    }

    const acknowledged = [...distinctRes, ...contestedRes.flat()].filter((r) => r.status === 201);
    assert.equal(acknowledged.length, 52);
    const database = openDatabase(url);
    try {
      const rows = await database.db
        .selectFrom('projects')
        .select(['id', 'code'])
        .where('company_code_id', '=', ledger)
        .execute();
      const byId = new Map(rows.map((r) => [r.id, r.code]));
      assert.equal(rows.length, 52, 'no write lost, none doubled');
      for (const res of acknowledged)
        assert.equal(byId.get(res.body.Id as number), res.body.Code, 'stored as answered');
      const codes = rows.map((r) => r.code);
      assert.equal(new Set(codes).size, codes.length, 'each code once in its ledger');
    } finally {
      await database.close();
    }
  });

  it('a read through one server right after a write through the other sees the write', async () => {
    for (let i = 0; i < 10; i++) {
      const [writer, reader] = i % 2 ? [a, b] : [b, a];
      const created = await create(writer, `R${i}`);
      assert.equal(created.status, 201);
      const id = created.body.Id as number;
      const read = await call(reader, 'GET', `/${id}`);
      assert.equal(read.status, 200);
      assert.equal(read.body.Code, `R${i}`);
      const changed = await call(reader, 'PUT', `/${id}`, { Name: `renamed ${i}` });
      assert.equal(changed.status, 200);
      const reread = await call(writer, 'GET', `/${id}`);
      assert.equal(reread.body.Name, `renamed ${i}`, 'the change through the other server is seen at once');
      const deleted = await call(writer, 'DELETE', `/${id}`);
      assert.equal(deleted.status, 200);
      assert.equal((await call(reader, 'GET', `/${id}`)).status, 404, 'the delete is seen at once');
    }
  });

  it('the login throttle counts failures through both servers together', async () => {
    // LOGIN_MAX_FAILURES (5) failures for one name make the next attempt wait (1 s, then 2 s, ...). Alternating
    // between the servers, counters shared through the database throttle by the sixth attempt (a few more if a
    // wait has already run out under load); counted per process, neither server would throttle before the 11th.
    const login = (server: ServeProcess, password: string) =>
      fetch(`${server.base}/oauth2/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'password', username: 'ops', password }),
      });
    let firstThrottled = 0;
    for (let attempt = 1; attempt <= 12 && !firstThrottled; attempt++) {
      const res = await login(attempt % 2 ? a : b, `wrong ${attempt}`);
      if (res.status === 429) {
        firstThrottled = attempt;
        assert.ok(Number(res.headers.get('retry-after')) >= 1, 'Retry-After says how long to wait');
      } else assert.equal(res.status, 400, `attempt ${attempt} is an invalid_grant`);
    }
    assert.ok(firstThrottled >= 6, `not throttled before five failures (first 429 at attempt ${firstThrottled})`);
    assert.ok(firstThrottled <= 8, `failures through both servers count together (first 429 at ${firstThrottled})`);
  });
});
