// The production runtime through the real binary (compiled build): --version, `serve --workers` bad input, the
// SQLite refusal, a primary that gives up on workers failing at start, restart of a dying worker, and a graceful
// stop of every worker on SIGTERM.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { cli } from './support/cli.ts';
import { createEmptyDatabaseUrl } from './support/db.ts';
import { isReady, spawnServe, startServe, waitFor } from './support/serve.ts';
import { startReceiver } from './support/receiver.ts';
import { freePort } from '../scripts/pg-cluster.ts';

const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
  engines: { node: string };
};

describe('release basics', () => {
  it('--version and -V print the semantic version of package.json', async () => {
    assert.match(pkg.version, /^\d+\.\d+\.\d+$/);
    for (const flag of ['--version', '-V']) {
      const res = await cli([flag]);
      assert.deepEqual([res.code, res.stdout, res.stderr], [0, `${pkg.version}\n`, '']);
    }
  });

  it('the tests run on a Node version that package.json engines claims', () => {
    const [major, minor] = process.versions.node.split('.').map(Number);
    const claimed = /^\^(\d+)\.(\d+)\.\d+$/.exec(pkg.engines.node);
    assert.ok(claimed, `engines.node is a caret range: ${pkg.engines.node}`);
    assert.equal(major, Number(claimed[1]));
    assert.ok((minor ?? 0) >= Number(claimed[2]));
  });

  it('CHANGELOG.md has a section for the current version', () => {
    const changelog = fs.readFileSync(new URL('../CHANGELOG.md', import.meta.url), 'utf8');
    assert.match(changelog, new RegExp(`^## \\[${pkg.version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'));
  });
});

describe('serve --workers: bad input', () => {
  let env: Record<string, string>;
  let remove: () => Promise<void>;
  before(async () => {
    const db = await createEmptyDatabaseUrl('sqlite');
    env = { DATABASE_URL: db.url };
    remove = db.remove;
  });
  after(() => remove());

  it('0, negative, non-numeric, fractional or above 64: one line, exit 1', async () => {
    for (const value of ['0', '-1', 'abc', '2.5', '65', '']) {
      const res = await cli(['serve', `--workers=${value}`], env);
      assert.deepEqual(
        [res.code, res.stderr],
        [1, `wohnapi: error: --workers must be a whole number from 1 to 64 (got '${value}')\n`],
        value,
      );
    }
  });

  it('WORKERS out of range: the usual configuration error', async () => {
    const res = await cli(['serve'], { ...env, WORKERS: '65' });
    assert.equal(res.code, 1);
    assert.match(res.stderr, /^wohnapi: error: Invalid configuration: WORKERS="65" must be between 1 and 64 .*\n$/);
  });

  it('more than one worker on SQLite is refused with the reason, by flag or by WORKERS', async () => {
    for (const [args, extra, named] of [
      [['--workers', '2'], {}, '--workers 2'],
      [[], { WORKERS: '3' }, 'WORKERS=3'],
    ] as const) {
      const res = await cli(['serve', ...args], { ...env, ...extra });
      assert.equal(res.code, 1);
      assert.match(res.stderr, new RegExp(`^wohnapi: error: ${named}: SQLite .*PostgreSQL for several workers\\n$`));
    }
  });
});

describe('serve: a database that cannot be reached', () => {
  it('fails in the prepare step with its error on one line, exit 1, without starting workers', async () => {
    const port = await freePort(); // nothing listens there
    const res = await cli(['serve', '--workers', '1'], { DATABASE_URL: `postgres://u:p@127.0.0.1:${port}/none` });
    assert.equal(res.code, 1);
    assert.match(res.stderr, /^wohnapi: error: .*ECONNREFUSED.*\n$/);
    assert.doesNotMatch(res.stdout, /worker/);
  });
});

describe('serve: a worker that cannot start', () => {
  it('is retried a few times, then the primary exits 1 with the worker error', async () => {
    const db = await createEmptyDatabaseUrl('sqlite');
    const port = await freePort();
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      const server = await spawnServe(['--workers', '1'], { DATABASE_URL: db.url }, port);
      const { code } = await server.exited;
      assert.equal(code, 1);
      const errors = server
        .output()
        .split('\n')
        .filter((l) => l.startsWith('wohnapi: error:'));
      assert.equal(errors.length, 1, server.output());
      assert.match(
        errors[0]!,
        new RegExp(
          `cannot listen: 127\\.0\\.0\\.1:${port} is already in use; stop what listens there, or set PORT to a free port ` +
            '\\(workers failed to start 3 times in a row; giving up\\)$',
        ),
      );
      assert.equal(server.output().match(/"msg":"worker failed at start; restarting"/g)?.length, 2);
    } finally {
      blocker.close();
      await db.remove();
    }
  });

  it('--demo on an empty database: the demo login is printed even when the server cannot start', async () => {
    const db = await createEmptyDatabaseUrl('sqlite');
    const port = await freePort();
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      const failed = await spawnServe(['--demo', '--workers', '1'], { DATABASE_URL: db.url }, port);
      assert.equal((await failed.exited).code, 1);
      const output = failed.output();
      assert.match(output, /The server did not start, but the demo set-up is done: keep these\./);
      const password = /password: (\S+)/.exec(output)?.[1];
      assert.ok(password, output);
      assert.equal(output.split('\n').filter((l) => l.startsWith('wohnapi: error:')).length, 1);
      blocker.close();
      // the printed login works once a server runs on that database (whose second start prints no login)
      const server = await startServe(['--demo', '--workers', '1'], { DATABASE_URL: db.url });
      try {
        assert.doesNotMatch(server.output(), /password:/);
        assert.match(
          server.output(),
          /--demo: set up on an earlier start; log in as 'demo' with the password printed then/,
        );
        const res = await fetch(`${server.base}/oauth2/token`, {
          method: 'POST',
          body: new URLSearchParams({ grant_type: 'password', username: 'demo', password }),
        });
        assert.equal(res.status, 200);
      } finally {
        await server.stop();
      }
    } finally {
      blocker.close();
      await db.remove();
    }
  });

  it('an address that is not of this machine: exit 1 at once, the error naming HOST', async () => {
    const db = await createEmptyDatabaseUrl('sqlite');
    try {
      // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of a real machine
      const res = await cli(['serve', '--workers', '1'], { DATABASE_URL: db.url, HOST: '192.0.2.1' });
      assert.equal(res.code, 1);
      assert.match(
        res.stderr,
        /^wohnapi: error: cannot listen: 192\.0\.2\.1:\d+ is not an address of this machine; set HOST /m,
      );
      assert.doesNotMatch(res.stdout + res.stderr, /restarting/);
    } finally {
      await db.remove();
    }
  });
});

describe('serve: SIGTERM while a webhook delivery is under way', () => {
  it('waits for the delivery (recorded, within WEBHOOK_TIMEOUT_MS) instead of killing the worker: exit 0', async () => {
    const db = await createEmptyDatabaseUrl('sqlite');
    const receiver = await startReceiver();
    receiver.answer = () => 'hang';
    const env = { DATABASE_URL: db.url, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '20' };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wohnapi-drain-'));
    try {
      assert.equal((await cli(['migrate'], env)).code, 0);
      assert.equal((await cli(['apikey', 'create', '--name', 'partner', '--all-ledgers'], env)).code, 0);
      const add = await cli(
        ['webhook', 'add', '--key', 'partner', '--url', `${receiver.url}/hang`, '--entity', 'All'],
        env,
      );
      assert.equal(add.code, 0, add.stderr);
      const server = await startServe([], {
        ...env,
        LOG_LEVEL: 'info',
        SHUTDOWN_TIMEOUT_MS: '100',
        WEBHOOK_TIMEOUT_MS: '6000',
      });
      // an import records an event, which the dispatcher sends to a receiver that does not answer
      const file = path.join(dir, 'ledger.json');
      fs.writeFileSync(
        file,
        JSON.stringify({
          CompanyCodes: [{ Id: 1, Code: '1000', Name: 'Nord' }],
          EconomicUnits: [{ Id: 2, CompanyCodeId: 1, Number: '1' }],
        }),
      );
      assert.equal((await cli(['import', file], env)).code, 0);
      await receiver.waitFor(1);
      const { code } = await server.stop('SIGTERM');
      // the drain covers the delivery (6 s), not only the requests (0.1 s) and 5 s: the worker was not killed
      assert.equal(code, 0, server.output());
      assert.match(
        server.output(),
        /"msg":"draining workers".*"timeoutMs":11000|"timeoutMs":11000.*"msg":"draining workers"/,
      );
      assert.doesNotMatch(server.output(), /killing them/);
      // the attempt ran to its own timeout and was recorded before the worker exited
      const log = await cli(['webhook', 'deliveries', '1'], env);
      assert.match(
        log.stdout,
        /\tEconomicUnit 2\tcreated\t1\t[^\t]+\tNo answer within 6000 ms\.\t/,
        `the attempt is recorded: ${log.stdout}`,
      );
    } finally {
      await receiver.close();
      fs.rmSync(dir, { recursive: true, force: true });
      await db.remove();
    }
  });
});

describe('serve --workers 2 on PostgreSQL', () => {
  it('serves from both workers, restarts a worker that dies, and drains all on SIGTERM (exit 0)', async () => {
    const db = await createEmptyDatabaseUrl('postgres');
    try {
      const server = await startServe(
        ['--workers', '2'],
        { DATABASE_URL: db.url, LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_MS: '30000' },
        2,
      );
      const readyLines = () => server.output().match(/"msg":"worker ready"/g)?.length ?? 0;
      await waitFor('both workers ready', () => readyLines() === 2);
      const [first, second] = server.workers();
      assert.ok(first && second);
      process.kill(first, 'SIGKILL');
      await waitFor('a new worker', () => {
        const now = server.workers();
        return now.length === 2 && !now.includes(first) && now.includes(second);
      });
      await waitFor('the new worker ready', () => readyLines() === 3);
      assert.ok(await isReady(server.base));
      assert.match(server.output(), /"exit":"signal SIGKILL".*"msg":"worker died; restarting"/);
      const workers = server.workers();
      const { code } = await server.stop('SIGTERM');
      assert.equal(code, 0, server.output());
      // the primary gives the workers SHUTDOWN_TIMEOUT_MS for their requests and 5 s to close, not a fixed 10 s
      assert.match(
        server.output(),
        /"timeoutMs":35000.*"msg":"draining workers"|"msg":"draining workers".*"timeoutMs":35000/,
      );
      for (const pid of workers) assert.ok(!fs.existsSync(`/proc/${pid}/status`), `worker ${pid} stopped`);
    } finally {
      await db.remove();
    }
  });

  it('/metrics answers for both workers: counters sum over them and never go back between scrapes', async () => {
    const db = await createEmptyDatabaseUrl('postgres');
    try {
      const server = await startServe(['--workers', '2'], { DATABASE_URL: db.url, LOG_LEVEL: 'info' }, 2);
      try {
        await waitFor('both workers ready', () => (server.output().match(/"msg":"worker ready"/g)?.length ?? 0) === 2);
        const url = `${server.base}/service/v1.2/RunningCostDistributionRead/DistributionPeriods`;
        // 40 requests, each on its own connection, so both workers answer some
        for (let i = 0; i < 40; i++) assert.equal((await fetch(url, { headers: { connection: 'close' } })).status, 401);
        const counted = async () => {
          const res = await fetch(`${server.base}/metrics`, { headers: { connection: 'close' } });
          const text = await res.text();
          const line =
            /^http_requests_total\{method="GET",route="\/service\/v1\.2\/RunningCostDistributionRead\/DistributionPeriods",status="401"\} (\d+)$/m;
          return Number(line.exec(text)?.[1]);
        };
        const scrapes: number[] = [];
        for (let i = 0; i < 6; i++) scrapes.push(await counted());
        assert.deepEqual(scrapes, Array<number>(6).fill(40), 'every scrape counts the requests of both workers');
      } finally {
        await server.stop();
      }
    } finally {
      await db.remove();
    }
  });

  it('divides RATE_LIMIT_PER_MINUTE among the workers (each process counts its own clients)', async () => {
    const db = await createEmptyDatabaseUrl('postgres');
    try {
      const server = await startServe(['--workers', '2'], { DATABASE_URL: db.url, RATE_LIMIT_PER_MINUTE: '6' }, 2);
      try {
        let limited: string | undefined;
        for (let i = 0; i < 10 && !limited; i++) {
          const res = await fetch(`${server.base}/service/v1.2/RunningCostDistributionRead/DistributionPeriods`);
          const text = await res.text();
          if (res.status === 429) limited = text;
          else assert.equal(res.status, 401);
        }
        assert.match(limited ?? 'never limited', /the limit is 3 per minute/);
      } finally {
        await server.stop();
      }
    } finally {
      await db.remove();
    }
  });
});
