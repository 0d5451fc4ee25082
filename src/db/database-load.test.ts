// A process on SQLite does not load pg (openDatabase requires it for the first PostgreSQL database): every CLI
// command on SQLite starts that much sooner. Run in a process of its own, whose module cache nothing else has filled.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const loaded = (url: string) => {
  const module = JSON.stringify(new URL('./database.ts', import.meta.url).href);
  const script = [
    `const { openDatabase } = await import(${module});`,
    `const database = openDatabase(${JSON.stringify(url)});`,
    `const { createRequire } = await import('node:module');`,
    `const cache = createRequire(process.cwd() + '/').cache;`,
    `console.log(Object.keys(cache).some((k) => /[\\\\/]node_modules[\\\\/]pg[\\\\/]/.test(k)));`,
    `await database.close();`,
  ].join('\n');
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim();
};

it('opening a SQLite database does not load pg; opening a PostgreSQL one does', () => {
  assert.equal(loaded('sqlite::memory:'), 'false');
  // the pool connects on first use only: no server is needed to see that pg was loaded
  assert.equal(loaded('postgres://nobody@127.0.0.1:1/none'), 'true');
});
