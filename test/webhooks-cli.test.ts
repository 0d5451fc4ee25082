// The webhook CLI, run as the real binary against a database of either engine and a real receiver.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../bench/harness.ts';
import { cli } from './support/cli.ts';
import { at } from './support/lists.ts';
import { DIALECTS, createEmptyDatabaseUrl } from './support/db.ts';
import { startReceiver, type Receiver } from './support/receiver.ts';
import { openDatabase } from '../src/db/database.ts';

const BIN = new URL('../bin/wohnapi.js', import.meta.url).pathname;
const FAST = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '20', LOG_LEVEL: 'warn' };

async function serve(env: Record<string, string>): Promise<ChildProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString())); // the start banner is on stderr
  for (let i = 0; i < 300 && !output.includes('listening'); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(output.includes('listening'), output);
  return child;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

describe('webhook CLI help', () => {
  it('every subcommand has --help', async () => {
    const subs = ['add', 'list', 'remove', 'test', 'deliveries', 'retry'];
    const helps = await Promise.all(subs.map((sub) => cli(['webhook', sub, '--help'])));
    subs.forEach((sub, i) => {
      assert.equal(helps[i]?.code, 0);
      assert.match(helps[i]?.stdout ?? '', new RegExp(`Usage: wohnapi webhook ${sub}`));
    });
  });
});

for (const dialect of DIALECTS) {
  describe(`webhook CLI [${dialect}]`, () => {
    let env: Record<string, string>;
    let remove: () => Promise<void>;
    let receiver: Receiver;
    let hookId: string;
    const children: ChildProcess[] = [];

    before(async () => {
      const db = await createEmptyDatabaseUrl(dialect);
      env = { DATABASE_URL: db.url, ...FAST };
      remove = db.remove;
      receiver = await startReceiver();
      assert.equal((await cli(['apikey', 'create', '--name', 'partner', '--all-ledgers'], env)).code, 0);
      const add = await cli(
        ['webhook', 'add', '--key', 'partner', '--url', `${receiver.url}/e2e`, '--entity', 'Loan', '--name', 'ERP'],
        env,
      );
      assert.equal(add.code, 0, add.stderr);
      assert.match(at(add.stdout.trimEnd().split('\n'), -1), /^whsec_[A-Za-z0-9+/]{43}=$/);
      hookId = /webhook (\d+) created/.exec(add.stdout)?.[1] ?? '';
    });
    after(async () => {
      for (const c of children) await stop(c);
      await receiver.close();
      await remove();
    });

    it('CLI: a header value an HTTP header cannot carry is refused in one line, nothing stored', async () => {
      const bad = await cli(
        [
          ...['webhook', 'add', '--key', 'partner', '--url', `${receiver.url}/bad-header`, '--entity', 'Loan'],
          ...['--auth', 'custom', '--header-name', 'X-Ok', '--header-value', 'a\rb'],
        ],
        env,
      );
      assert.equal(bad.code, 1);
      assert.match(
        bad.stderr,
        /^wohnapi: error: Authentication\.HeaderValue contains a carriage return \(U\+000D\), which an HTTP header cannot carry as it is; use visible ASCII characters, spaces and tabs only; correct the value and run the command again .*\n$/,
      );
      assert.ok(!(await cli(['webhook', 'list'], env)).stdout.includes('bad-header'));
    });

    it('CLI: list, test, deliveries, retry, remove; secrets never printed; one-line errors', async () => {
      const list = await cli(['webhook', 'list', '--key', 'partner'], env);
      assert.equal(list.code, 0, list.stderr);
      assert.match(
        list.stdout,
        new RegExp(
          `^${hookId}\\tpartner\\tERP\\t${receiver.url}/e2e\\tLoan\\tcreated,updated,deleted\\tEcht\\tactive\\tNone$`,
          'm',
        ),
      );
      assert.ok(!list.stdout.includes('whsec_'));

      const withAuth = await cli(
        [
          'webhook',
          'add',
          '--key',
          'partner',
          '--url',
          `${receiver.url}/cli`,
          '--entity',
          'All',
          '--auth',
          'bearer',
          '--token',
          'tok-123',
        ],
        env,
      );
      assert.equal(withAuth.code, 0, withAuth.stderr);
      assert.ok(!withAuth.stdout.includes('tok-123'));
      const authId = /webhook (\d+) created/.exec(withAuth.stdout)?.[1] ?? '';
      assert.ok(!(await cli(['webhook', 'list'], env)).stdout.includes('tok-123'));

      receiver.answer = (r) => (r.path === '/cli' ? 500 : 200);
      const failedTest = await cli(['webhook', 'test', authId], env);
      assert.equal(failedTest.code, 1);
      assert.match(
        failedTest.stderr,
        /^wohnapi: error: test delivery \S+ failed: HTTP 500 \(\d+ ms\); make the receiver answer 2xx, then run 'wohnapi webhook test \d+' again\n$/,
      );
      const eventId = /test delivery (\S+) failed/.exec(failedTest.stderr)?.[1] ?? '';
      receiver.answer = () => 200;
      const okTest = await cli(['webhook', 'test', authId], env);
      assert.equal(okTest.code, 0, okTest.stderr);
      assert.match(okTest.stdout, /HTTP 200/);
      const sent = receiver.received.filter((r) => r.path === '/cli');
      assert.equal(sent.at(-1)?.headers.authorization, 'Bearer tok-123');

      const log = await cli(['webhook', 'deliveries', authId], env);
      assert.equal(log.code, 0, log.stderr);
      const rows = log.stdout.trimEnd().split('\n');
      assert.equal(rows.length, 3);
      assert.match(
        at(rows, 2),
        new RegExp(`\\t${eventId}\\tWebHook ${authId}\\tupdated\\t1\\t.*\\tHTTP 500\\t\\d+\\tfailed$`),
      );

      // Retry by event id: the failed test delivery is delivered by the dispatcher of a running server.
      const retry = await cli(['webhook', 'retry', eventId], env);
      assert.equal(retry.code, 0, retry.stderr);
      assert.match(retry.stdout, /1 delivery scheduled again/);
      const server = await serve(env);
      children.push(server);
      await receiver.waitFor(
        1,
        20_000,
        (r) => r.headers['webhook-id'] === eventId && r.path === '/cli' && sent.indexOf(r) === -1,
      );
      await stop(server);
      // The retried delivery is delivered now: retrying it again sends nothing.
      const delivered = await cli(['webhook', 'retry', eventId], env);
      assert.deepEqual(
        [delivered.code, delivered.stderr],
        [
          1,
          `wohnapi: error: no failed delivery '${eventId}' to retry; see them with 'wohnapi webhook deliveries <webhook id>'\n`,
        ],
      );
      const okEvent = /test delivery (\S+): HTTP 200/.exec(okTest.stdout)?.[1] ?? '';
      assert.equal((await cli(['webhook', 'retry', okEvent], env)).code, 1);
      const again = await cli(['webhook', 'retry', 'no-such-event'], env);
      assert.deepEqual(
        [again.code, again.stderr],
        [
          1,
          "wohnapi: error: no failed delivery 'no-such-event' to retry; see them with 'wohnapi webhook deliveries <webhook id>'\n",
        ],
      );

      const bad = await cli(['webhook', 'add', '--key', 'partner', '--url', 'ftp://x', '--entity', 'Loan'], env);
      assert.equal(bad.code, 1);
      assert.match(
        bad.stderr,
        /^wohnapi: error: The URL 'ftp:\/\/x' must use http or https, not 'ftp'; correct the value and run the command again .*\n$/,
      );
      const badEntity = await cli(
        ['webhook', 'add', '--key', 'partner', '--url', `${receiver.url}/x`, '--entity', 'Invoice'],
        env,
      );
      assert.match(badEntity.stderr, /^wohnapi: error: The value 'Invoice' is not valid for EntityName/);
      const noKey = await cli(
        ['webhook', 'add', '--key', 'ghost', '--url', `${receiver.url}/x`, '--entity', 'Loan'],
        env,
      );
      assert.deepEqual(
        [noKey.code, noKey.stderr],
        [1, "wohnapi: error: no active API key named 'ghost'; see the keys with 'wohnapi apikey list'\n"],
      );
      const strict = await cli(
        ['webhook', 'add', '--key', 'partner', '--url', 'http://127.0.0.1/x', '--entity', 'Loan'],
        {
          ...env,
          WEBHOOK_ALLOW_PRIVATE: 'false',
        },
      );
      assert.equal(strict.code, 1);
      assert.match(strict.stderr, /non-public address/);

      assert.equal((await cli(['webhook', 'remove', authId], env)).code, 0);
      const gone = await cli(['webhook', 'remove', authId], env);
      assert.deepEqual(
        [gone.code, gone.stderr],
        [1, `wohnapi: error: Webhook ${authId} does not exist; see the webhooks with 'wohnapi webhook list'\n`],
      );
    });

    it('CLI: retry by event id schedules only its failed deliveries and counts them', async () => {
      const database = openDatabase(env.DATABASE_URL!);
      try {
        const second = await cli(
          ['webhook', 'add', '--key', 'partner', '--url', `${receiver.url}/second`, '--entity', 'Loan'],
          env,
        );
        assert.equal(second.code, 0, second.stderr);
        const secondId = Number(/webhook (\d+) created/.exec(second.stdout)?.[1]);
        // One event, delivered to one webhook and failed for good at the other.
        const event = crypto.randomUUID();
        const stamp = new Date().toISOString();
        const row = (webhookId: number, status: 'delivered' | 'failed') => ({
          ...{ webhook_id: webhookId, event_id: event, entity_type: 'Loan', entity_id: 7, action: 'created' },
          ...{ user_id: null, event_created_at: stamp, status, attempts: status === 'failed' ? 11 : 1 },
          ...{ next_attempt_at: stamp, created_at: stamp, finished_at: stamp },
        });
        await database.db
          .insertInto('webhook_deliveries')
          .values([row(Number(hookId), 'delivered'), row(secondId, 'failed')])
          .execute();
        const retry = await cli(['webhook', 'retry', event], env);
        assert.equal(retry.code, 0, retry.stderr);
        assert.equal(retry.stdout, '1 delivery scheduled again\n');
        const rows = await database.db
          .selectFrom('webhook_deliveries')
          .select(['webhook_id', 'status', 'attempts'])
          .where('event_id', '=', event)
          .orderBy('webhook_id')
          .execute();
        assert.deepEqual(
          rows.map((r) => [Number(r.webhook_id), r.status, Number(r.attempts)]),
          [
            [Number(hookId), 'delivered', 1],
            [secondId, 'pending', 0],
          ],
        );
      } finally {
        await database.close();
      }
    });

    it('CLI: list shows the webhook of a revoked key as not delivered', async () => {
      assert.equal((await cli(['apikey', 'create', '--name', 'gone', '--all-ledgers'], env)).code, 0);
      const add = await cli(
        ['webhook', 'add', '--key', 'gone', '--url', `${receiver.url}/gone`, '--entity', 'Loan'],
        env,
      );
      assert.equal(add.code, 0, add.stderr);
      const id = /webhook (\d+) created/.exec(add.stdout)?.[1] ?? '';
      assert.match(
        (await cli(['webhook', 'list'], env)).stdout,
        new RegExp(`^${id}\\tgone\\t.*\\tactive\\tNone$`, 'm'),
      );
      assert.equal((await cli(['apikey', 'revoke', 'gone'], env)).code, 0);
      const list = await cli(['webhook', 'list'], env);
      assert.equal(list.code, 0, list.stderr);
      assert.match(list.stdout, new RegExp(`^${id}\\tgone\\t.*\\tinactive \\(key revoked\\)\\tNone$`, 'm'));
    });
  });
}
