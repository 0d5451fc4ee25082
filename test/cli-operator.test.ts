// The CLI as an operator meets it, through the real binary: passwords not on the command line, no silently created
// database, progress on a terminal (a real pty via script(1)) and one summary line otherwise, the start banner on
// stderr with JSON log lines on stdout, LOG_FORMAT=pretty, and errors that say what to do next.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { cli } from './support/cli.ts';
import { freePort } from '../bench/harness.ts';

const exec = promisify(execFile);
const ERASE_LINE = `${String.fromCharCode(27)}[2K`;
const BIN = new URL('../bin/wohnapi.js', import.meta.url).pathname;

/** Runs the binary with the given standard input. */
function withStdin(args: string[], env: Record<string, string>, input: string) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** Serves until /health/live answers, calls it, stops; returns what went to stdout and stderr. */
async function serveOnce(env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'info' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  for (let i = 0; i < 300 && !stderr.includes('health:'); i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal((await fetch(`http://127.0.0.1:${port}/health/live`)).status, 200);
  await new Promise((r) => setTimeout(r, 300));
  const closed = new Promise((r) => child.once('close', r));
  child.kill('SIGTERM');
  await closed;
  return { stdout, stderr };
}

describe('the CLI for operators', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wohnapi-cli-op-'));
  const env = { DATABASE_URL: `sqlite:${path.join(dir, 'op.sqlite')}` };
  before(async () => {
    assert.equal((await cli(['migrate'], env)).code, 0);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('user add and user passwd read the password from standard input when --password is absent', async () => {
    const added = await withStdin(
      ['user', 'add', 'ops', '--permission', 'Umlageabrechnung-lesen'],
      env,
      'from stdin 1\n',
    );
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /user 'ops' created/);
    const changed = await withStdin(['user', 'passwd', 'ops'], env, 'from stdin 2\n');
    assert.equal(changed.code, 0, changed.stderr);
    const empty = await withStdin(['user', 'add', 'nobody'], env, '');
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /^wohnapi: error: no password given: .*--password\n$/);
  });

  it('Ctrl-C or Ctrl-D at the password prompt of a terminal: a one-line error and exit 1, nothing changed', async () => {
    for (const [key, what] of [
      ['\\003', 'interrupted'],
      ['\\004', 'input ended'],
    ]) {
      // script(1) runs the command on a real pty; the key reaches it once the prompt is up
      const { stdout } = await exec(
        'sh',
        [
          '-c',
          `(sleep 1.5; printf '${key}'; sleep 1) | script -qfec '${process.execPath} ${BIN} user passwd ops; echo EXIT=$?' /dev/null`,
        ],
        { env: { ...process.env, ...env } },
      );
      const lines = stdout.replace(/\r/g, '').trim().split('\n');
      assert.deepEqual(lines.slice(-3), [
        "password for 'ops': ",
        `wohnapi: error: ${what} at the password prompt; nothing was changed`,
        'EXIT=1',
      ]);
    }
  });

  it('a database a newer release migrated further is used as it is (rolling upgrades, rollbacks)', async () => {
    const file = path.join(dir, 'newer.sqlite');
    const at = { DATABASE_URL: `sqlite:${file}` };
    assert.equal((await cli(['migrate'], at)).code, 0);
    const db = new SQLite(file);
    db.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run('2099010101_future', '2099-01-01');
    db.close();
    const migrate = await cli(['migrate'], at);
    assert.equal(migrate.code, 0, migrate.stderr);
    assert.match(
      migrate.stdout,
      /up to date for this release; it also has a newer release's migrations \(2099010101_future\)/,
    );
    assert.equal((await cli(['user', 'list'], at)).code, 0);
    // one of this release's migrations missing as well: another line of releases, refused in one line
    const other = new SQLite(file);
    other.prepare('delete from kysely_migration where name = ?').run('2026112201_foundation');
    other.close();
    const refused = await cli(['user', 'list'], at);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /^wohnapi: error: the database has migrations this release does not know \(2099010101_future\) and lacks some it needs \(2026112201_foundation\).*\n$/,
    );
  });

  it('commands other than serve and migrate refuse a database file that does not exist', async () => {
    const missing = path.join(dir, 'typo.sqlite');
    for (const args of [
      ['user', 'list'],
      ['apikey', 'list'],
      ['user', 'add', 'x', '--password', 'long enough'],
      ['export', path.join(dir, 'x.json')],
    ]) {
      const res = await cli(args, { DATABASE_URL: `sqlite:${missing}` });
      assert.equal(res.code, 1, args.join(' '));
      assert.equal(res.stderr.split('\n').length, 2, 'one line');
      assert.match(
        res.stderr,
        new RegExp(`no database at ${missing} \\(DATABASE_URL=sqlite:${missing}\\).*wohnapi migrate`),
      );
      assert.equal(fs.existsSync(missing), false);
    }
  });

  it('demo load creates the database it fills (it needs an empty one)', async () => {
    const fresh = path.join(dir, 'fresh-demo.sqlite');
    const res = await cli(['demo', 'load'], { DATABASE_URL: `sqlite:${fresh}` });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /^demo data loaded: scale 1, seed 1, /m);
    assert.equal(fs.existsSync(fresh), true);
  });

  it('a missing import file: one line naming the full path and what to check', async () => {
    const res = await cli(['import', 'no-such-file.json'], env);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /^wohnapi: error: no such file: \/\S+\/no-such-file\.json; check the path .*\n$/);
  });

  it('demo load: one summary line when not on a terminal; on a terminal a progress line that is cleared', async () => {
    const plain = await cli(['demo', 'load'], env);
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.stderr, '');
    assert.match(plain.stdout, /^demo data loaded: scale 1, seed 1, [\d,]+ rows .*\n$/);
    const file = path.join(dir, 'export.json');
    const fresh = { DATABASE_URL: `sqlite:${path.join(dir, 'tty.sqlite')}` };
    assert.equal((await cli(['export', file], env)).code, 0);
    assert.equal((await cli(['migrate'], fresh)).code, 0);
    const { stdout } = await exec('script', ['-qfec', `${process.execPath} ${BIN} import ${file}`, '/dev/null'], {
      env: { ...process.env, ...fresh },
    });
    assert.match(stdout, /import \[[=-]+\] \d+% \| [\d,]+\/[\d,]+ KB \| [\d,]+ KB\/s \| ETA/);
    assert.ok(stdout.includes(`${ERASE_LINE}imported `), 'the bar line is erased before the summary');
  });

  it('serve rebuilds a read model that is not fresh before it starts, and says so in the banner', async () => {
    const file = path.join(dir, 'stale-read-model.sqlite');
    const at = { DATABASE_URL: `sqlite:${file}` };
    assert.equal((await cli(['demo', 'load'], at)).code, 0);
    const state = () => {
      const db = new SQLite(file, { readonly: true });
      try {
        return db.prepare("select stale from read_model_state where name = 'allocation_group_bases'").pluck().get();
      } finally {
        db.close();
      }
    };
    assert.equal(state(), 0, 'demo load builds it');
    const db = new SQLite(file);
    db.prepare('update distribution_periods set code = code').run(); // a write without a rebuild (by hand)
    db.close();
    assert.equal(state(), 1);
    const first = await serveOnce(at);
    assert.match(first.stderr, /^ {2}read model: rebuilt for \d+ AllocationGroupBases in [\d.]+ s$/m);
    assert.equal(state(), 0);
    const second = await serveOnce(at);
    assert.doesNotMatch(second.stderr, /read model/, 'a fresh read model is left alone');
  });

  it('serve: the banner on stderr, JSON lines on stdout; LOG_FORMAT=pretty for people', async () => {
    const json = await serveOnce(env);
    assert.match(json.stderr, /wohnapi listening on http/);
    const lines = json.stdout.split('\n').filter(Boolean);
    assert.ok(lines.length > 0);
    for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), line);
    const pretty = await serveOnce({ ...env, LOG_FORMAT: 'pretty' });
    assert.match(pretty.stdout, /INFO.*incoming request/);
    assert.throws(() => JSON.parse(pretty.stdout.split('\n')[0]!));
  });

  it('an invalid LOG_LEVEL or LOG_FORMAT lists the valid values', async () => {
    const level = await cli(['user', 'list'], { ...env, LOG_LEVEL: 'loud' });
    assert.match(level.stderr, /LOG_LEVEL="loud" must be one of fatal, error, warn, info, debug, trace, silent/);
    const format = await cli(['user', 'list'], { ...env, LOG_FORMAT: 'fancy' });
    assert.match(format.stderr, /LOG_FORMAT="fancy" must be one of json, pretty/);
  });
});
