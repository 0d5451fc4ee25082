// Every error of the CLI is one line on stderr, exit code 1, and ends with what to do next: the real binary on a
// real SQLite file, an unreachable PostgreSQL server and files that are not what they claim to be.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli } from './support/cli.ts';
import { freePort } from '../bench/harness.ts';

/** The last clause of an error (or the whole of it): an instruction, i.e. an imperative verb. */
const NEXT_STEP =
  /([;:] |^wohnapi: error: )((run|set|fix|create|see|choose|check|start|give|correct|make|type)\b|e\.g\. )[^;]*$/;

describe('CLI errors name the next step', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wohnapi-cli-errors-'));
  const env = { DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}` };
  before(async () => {
    assert.equal((await cli(['migrate'], env)).code, 0);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('usage, configuration, database, import, user, key and webhook errors: one line each, with a next step', async () => {
    const notSqlite = path.join(dir, 'notes.txt');
    fs.writeFileSync(notSqlite, 'this is not a database, just a text file that is long enough to have a header\n');
    const badJson = path.join(dir, 'bad.json');
    fs.writeFileSync(badJson, '{"CompanyCodes":[\n{"Id":1,"Name":"Nord"}\n{"Id":2}]}');
    const port = await freePort(); // nothing listens there
    const cases: Array<[args: string[], extra: Record<string, string>, expected: RegExp]> = [
      [['frobnicate'], {}, /unknown command 'frobnicate'; run 'wohnapi --help' for the usage/],
      [[], {}, /^wohnapi: error: missing command; run 'wohnapi --help' for the usage$/],
      [['webhook'], {}, /^wohnapi: error: missing command; run 'wohnapi webhook --help' for the usage$/],
      [['user', 'add', 'x', '--bogus'], {}, /unknown option '--bogus'; run 'wohnapi user add --help' for the usage/],
      [['user', 'list'], { PORT: 'abc' }, /PORT="abc" .*; set PORT to a valid value, or unset it/],
      [
        ['user', 'list'],
        { DATABASE_URL: `sqlite:${path.join(dir, 'nope.sqlite')}` },
        /no database at .*'wohnapi migrate'/,
      ],
      [
        ['user', 'list'],
        { DATABASE_URL: `sqlite:${notSqlite}` },
        /cannot open the SQLite database .*; set DATABASE_URL/,
      ],
      [
        ['user', 'list'],
        { DATABASE_URL: `postgres://ops:secret@127.0.0.1:${port}/none` },
        /cannot reach the database server \(DATABASE_URL=postgres:\/\/ops:\*\*\*@127\.0\.0\.1:\d+\/none\): .*ECONNREFUSED.*; start the database server/,
      ],
      [
        ['import', badJson],
        {},
        /import failed with 1 problem\(s\); nothing was stored: .+; fix the file and run the import again/,
      ],
      [['import', path.join(dir, 'missing.json')], {}, /no such file: .*; check the path/],
      [['import', dir], {}, /is not a file \(a folder or a device\); give the path of the JSON file to import/],
      [['export', dir], {}, /exists and is not a file \(a folder or a device\); choose a file path for the export/],
      [
        ['export', path.join(dir, 'no', 'such', 'folder', 'out.json')],
        {},
        /; create the folder or choose another path/,
      ],
      [['demo', 'load', '--scale', '0'], {}, /--scale must be a positive integer, got '0'; e\.g\. --scale 10/],
      [['user', 'disable', 'ghost'], {}, /no user 'ghost'; see the users with 'wohnapi user list'/],
      [['user', 'add', 'ops', '--password', 'short'], {}, /at least 8 characters; choose a longer one/],
      [
        ['user', 'add', 'Jürgen', '--password', 'long enough'],
        {},
        /invalid user name 'Jürgen'; choose 1 to 100 characters, each an ASCII letter \(A-Z, a-z\), a digit or one of \. _ @ -/,
      ],
      [['apikey', 'revoke', 'ghost'], {}, /no active API key named 'ghost'; see the keys with 'wohnapi apikey list'/],
      [['apikey', 'create', '--name', 'k'], {}, /give --ledger <companyCodeId> \(repeatable\) or --all-ledgers/],
      [['apikey', 'create', '--name', ' ', '--all-ledgers'], {}, /invalid key name ' '; .*\(no space first or last\)/],
      [['webhook', 'deliveries', '99'], {}, /no webhook 99; see the webhooks with 'wohnapi webhook list'/],
      [['webhook', 'remove', 'x'], {}, /'x' is not a valid id .*; give the id as the list commands print it/],
    ];
    for (const [args, extra, expected] of cases) {
      const res = await cli(args, { ...env, ...extra });
      const what = `wohnapi ${args.join(' ')}: ${res.stderr}`;
      assert.equal(res.code, 1, what);
      const lines = res.stderr.trimEnd().split('\n');
      const last = lines[0] ?? '';
      assert.match(last, /^wohnapi: error: /, what);
      assert.match(last, expected, what);
      assert.match(last, NEXT_STEP, what);
      assert.equal(lines.length, 1, what);
    }
    assert.equal(fs.existsSync(path.join(dir, 'nope.sqlite')), false);
  });

  it('an import with a syntax error names its line and column, and the record it was in', async () => {
    const file = path.join(dir, 'syntax.json');
    fs.writeFileSync(file, '{"CompanyCodes":[\r\n{"Id":1,"Name":"Nord"},\r\n{"Id":2,"Name":"Süd"}\r\n{"Id":3}]}');
    const res = await cli(['import', file], env);
    const problem = `CompanyCodes[2]: the file is not valid JSON at line 4, column 1: expected ',' or ']' after a record, found '{'`;
    assert.equal(res.stdout, `${problem}\n`);
    assert.equal(
      res.stderr,
      `wohnapi: error: import failed with 1 problem(s); nothing was stored: ${problem}; fix the file and run the import again\n`,
    );
  });
});
