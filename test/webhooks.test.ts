// Webhooks end to end: real server processes and the real CLI on one database of either engine, a real receiver.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../bench/harness.ts';
import { cli } from './support/cli.ts';
import { at } from './support/lists.ts';
import { DIALECTS, createEmptyDatabaseUrl } from './support/db.ts';
import { startReceiver, type Receiver } from './support/receiver.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { recordEvents } from '../src/events/outbox.ts';
import { verify } from '../src/webhooks/signing.ts';

const BIN = new URL('../bin/wohnapi.js', import.meta.url).pathname;
const FAST = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_POLL_MS: '20',
  WEBHOOK_RETRY_BASE_MS: '50',
  WEBHOOK_TIMEOUT_MS: '1000',
  LOG_LEVEL: 'warn',
};

/** A `serve` process run directly (no wrapper process), so that SIGKILL hits the server itself. */
async function serve(env: Record<string, string>): Promise<ChildProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, ...FAST, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  for (let i = 0; i < 300 && !output.includes('listening'); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(output.includes('listening'), output);
  return child;
}

function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

async function until(check: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

for (const dialect of DIALECTS) {
  describe(`webhooks end to end [${dialect}]`, () => {
    let env: Record<string, string>;
    let remove: () => Promise<void>;
    let receiver: Receiver;
    let database: Database;
    let secret: string;
    const children: ChildProcess[] = [];

    before(async () => {
      const db = await createEmptyDatabaseUrl(dialect);
      env = { DATABASE_URL: db.url, ...FAST };
      remove = db.remove;
      receiver = await startReceiver();
      assert.equal((await cli(['migrate'], env)).code, 0);
      assert.equal((await cli(['apikey', 'create', '--name', 'partner', '--all-ledgers'], env)).code, 0);
      const add = await cli(
        ['webhook', 'add', '--key', 'partner', '--url', `${receiver.url}/e2e`, '--entity', 'Loan', '--name', 'ERP'],
        env,
      );
      assert.equal(add.code, 0, add.stderr);
      secret = at(add.stdout.trimEnd().split('\n'), -1);
      assert.match(secret, /^whsec_/);
      database = openDatabase(db.url);
    });
    after(async () => {
      for (const c of children) await stop(c, 'SIGKILL');
      await database.close();
      await receiver.close();
      await remove();
    });

    const loans = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        entityType: 'Loan',
        entityId: from + i,
        action: 'created' as const,
        companyCodeId: null,
      }));

    it('two dispatcher processes on one database deliver 1,000 events exactly once each', async () => {
      // The default timeout: a receipt the busy test process answers late must not count as a failure (and a retry).
      const slowOk = { ...env, WEBHOOK_TIMEOUT_MS: '10000' };
      const [a, b] = await Promise.all([serve(slowOk), serve(slowOk)]);
      children.push(a, b);
      // Events commit while both processes are dispatching.
      for (let i = 0; i < 1000; i += 50)
        await database.db.transaction().execute((trx) => recordEvents(trx, loans(i, 50)));
      const events = await database.db.selectFrom('outbox_events').select('event_id').execute();
      assert.equal(events.length, 1000);
      await receiver.waitFor(1000, 60_000, (r) => r.path === '/e2e');
      await until(async () => {
        const left = await database.db
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('status', '!=', 'delivered')
          .execute();
        return left.length === 0;
      });
      await Promise.all([stop(a), stop(b)]);
      const got = receiver.received.filter((r) => r.path === '/e2e');
      const ids = got.map((r) => String(r.headers['webhook-id']));
      assert.equal(new Set(ids).size, 1000);
      const retried = await database.db
        .selectFrom('webhook_attempts')
        .select(['attempt', 'error', 'status_code'])
        .where('attempt', '>', 1)
        .execute();
      assert.equal(
        ids.length,
        1000,
        `no event was delivered twice (repeated attempts: ${JSON.stringify(retried.slice(0, 5))})`,
      );
      assert.deepEqual(new Set(ids), new Set(events.map((e) => e.event_id)));
      for (const r of got.slice(0, 20))
        assert.ok(
          verify(
            secret,
            String(r.headers['webhook-id']),
            Number(r.headers['webhook-timestamp']),
            r.body,
            String(r.headers['webhook-signature']),
          ),
        );
    });

    it('a server killed with SIGKILL between commit and delivery delivers after restart', async () => {
      receiver.received.length = 0;
      // The receiver holds the first request: the server has taken the delivery but not recorded it when it dies.
      receiver.answer = () => (receiver.received.length === 1 ? 'hang' : 200);
      const first = await serve(env);
      children.push(first);
      await database.db.transaction().execute((trx) => recordEvents(trx, loans(5000, 1)));
      await receiver.waitFor(1, 20_000);
      await stop(first, 'SIGKILL');
      // Committed while no server runs.
      await database.db.transaction().execute((trx) => recordEvents(trx, loans(5001, 1)));
      const second = await serve(env);
      children.push(second);
      const got = await receiver.waitFor(3, 30_000);
      const ids = got.map((r) => String(r.headers['webhook-id']));
      assert.equal(
        ids[0],
        ids.find((id, i) => i > 0 && id === ids[0]),
        'the interrupted delivery is repeated with its webhook-id',
      );
      assert.equal(new Set(ids).size, 2);
      await stop(second);
      receiver.answer = () => 200;
    });
  });
}
