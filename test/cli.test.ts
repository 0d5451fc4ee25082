import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { cli } from './support/cli.ts';
import { at } from './support/lists.ts';
import { DIALECTS, createEmptyDatabaseUrl } from './support/db.ts';
import { envExample } from '../src/config.ts';

for (const dialect of DIALECTS) {
  describe(`CLI [${dialect}]`, () => {
    let env: Record<string, string>;
    let remove: () => Promise<void>;
    before(async () => {
      const db = await createEmptyDatabaseUrl(dialect);
      env = { DATABASE_URL: db.url };
      remove = db.remove;
      const migrated = await cli(['migrate'], env);
      assert.equal(migrated.code, 0, migrated.stderr);
      assert.match(migrated.stdout, /applied \d+ migration/);
    });
    after(() => remove());

    it('user add, list, disable, passwd', async () => {
      const add = await cli(
        [
          'user',
          'add',
          'ops',
          '--password',
          'long enough',
          '--permission',
          'Mietenbuchhaltung-lesen',
          '--permission',
          'Web Hook',
        ],
        env,
      );
      assert.equal(add.code, 0, add.stderr);
      const dup = await cli(['user', 'add', 'ops', '--password', 'long enough'], env);
      assert.equal(dup.code, 1);
      assert.match(
        dup.stderr,
        /^wohnapi: error: user 'ops' already exists; choose another name, or set its password with 'wohnapi user passwd ops'\n$/,
      );
      const badPerm = await cli(['user', 'add', 'x', '--password', 'long enough', '--permission', 'Root'], env);
      assert.equal(badPerm.code, 1);
      assert.match(badPerm.stderr, /unknown permission\(s\): Root/);
      const list = await cli(['user', 'list'], env);
      assert.match(list.stdout, /^ops\tactive\tall\tMietenbuchhaltung-lesen, Web Hook$/m);
      assert.equal((await cli(['user', 'passwd', 'ops', '--password', 'another one'], env)).code, 0);
      assert.equal((await cli(['user', 'disable', 'ops'], env)).code, 0);
      assert.match((await cli(['user', 'list'], env)).stdout, /^ops\tdisabled/m);
      const enabled = await cli(['user', 'enable', 'ops'], env);
      assert.deepEqual([enabled.code, enabled.stdout], [0, "user 'ops' enabled\n"]);
      assert.match((await cli(['user', 'list'], env)).stdout, /^ops\tactive/m);
      assert.equal((await cli(['user', 'enable', 'ghost'], env)).code, 1);
      const missing = await cli(['user', 'disable', 'ghost'], env);
      assert.deepEqual(
        [missing.code, missing.stderr],
        [1, "wohnapi: error: no user 'ghost'; see the users with 'wohnapi user list'\n"],
      );
    });

    it('apikey create prints the key alone on the last line; list never shows it; revoke', async () => {
      const created = await cli(['apikey', 'create', '--name', 'partner', '--all-ledgers'], env);
      assert.equal(created.code, 0, created.stderr);
      const lines = created.stdout.trimEnd().split('\n');
      const key = at(lines, -1);
      assert.match(key, /^wk_[A-Za-z0-9_-]{43}$/);
      const list = await cli(['apikey', 'list'], env);
      assert.match(list.stdout, /^partner\tall\t\d{4}-\d\d-\d\dT[^\t]+\tactive$/m);
      assert.ok(!list.stdout.includes(key));
      const neither = await cli(['apikey', 'create', '--name', 'other'], env);
      assert.equal(neither.code, 1);
      assert.match(neither.stderr, /--ledger/);
      const unknownLedger = await cli(['apikey', 'create', '--name', 'other', '--ledger', '999'], env);
      assert.equal(unknownLedger.code, 1);
      assert.match(unknownLedger.stderr, /unknown company code id\(s\): 999/);
      assert.equal((await cli(['apikey', 'revoke', 'partner'], env)).code, 0);
      assert.match((await cli(['apikey', 'list'], env)).stdout, /^partner\tall\t\S+\trevoked$/m);
      assert.equal((await cli(['apikey', 'revoke', 'partner'], env)).code, 1);
    });
  });
}

describe('CLI without a database', () => {
  it('--help on every command', async () => {
    for (const args of [
      [],
      ['serve'],
      ['migrate'],
      ['user'],
      ['user', 'add'],
      ['user', 'list'],
      ['user', 'disable'],
      ['user', 'passwd'],
      ['apikey'],
      ['apikey', 'create'],
      ['apikey', 'list'],
      ['apikey', 'revoke'],
    ]) {
      const res = await cli([...args, '--help'], {});
      assert.equal(res.code, 0, args.join(' '));
      assert.match(res.stdout, /^Usage: wohnapi/, args.join(' '));
    }
  });

  it('a bad configuration value exits non-zero with one line naming the variable', async () => {
    const res = await cli(['serve'], { PORT: 'abc' });
    assert.equal(res.code, 1);
    assert.equal(
      res.stderr,
      'wohnapi: error: Invalid configuration: PORT="abc" must be a whole number between 0 and 65535 (TCP port the HTTP server listens on); set PORT to a valid value, or unset it for the default "8080"\n',
    );
    // an invalid DATABASE_URL is named with its password as *** (an unencoded '#' in it, a port out of range)
    for (const url of ['postgres://app:Tr0ub4dor#3@db.internal:5432/w', 'postgres://u:s3cretPW@h:99999/db']) {
      const bad = await cli(['migrate'], { DATABASE_URL: url });
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /Invalid configuration: DATABASE_URL="postgres:\/\/(app|u):\*\*\*@/);
      assert.doesNotMatch(bad.stderr, /Tr0ub4dor|s3cretPW/);
    }
    // a password given as a parameter of the query string (libpq and pg read it there too), and an '@' in the query
    for (const url of [
      'postgres://postgres@127.0.0.1:1/db?password=s3cretQ',
      'postgres://127.0.0.1:1/db?user=a@b&sslmode=disable&Password=s3cretQ',
    ]) {
      const unreachable = await cli(['migrate'], { DATABASE_URL: url });
      assert.equal(unreachable.code, 1);
      assert.match(unreachable.stderr, /DATABASE_URL=postgres:\/\/[^ ]*(p|P)assword=\*\*\*/);
      assert.match(unreachable.stderr, /127\.0\.0\.1:1\/db/, 'the host stays readable');
      assert.doesNotMatch(unreachable.stderr, /s3cretQ/);
    }
  });

  it('an unknown command exits non-zero', async () => {
    const res = await cli(['frobnicate'], {});
    assert.notEqual(res.code, 0);
    assert.match(res.stderr, /unknown command/);
  });

  it('.env.example lists every variable with its default', () => {
    assert.equal(fs.readFileSync(new URL('../.env.example', import.meta.url), 'utf8'), envExample());
  });
});
