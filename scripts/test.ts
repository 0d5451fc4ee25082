// `npm test` runner: compiles the build (the CLI and end-to-end tests run the real binary, which runs dist/; this
// also checks that the build compiles), makes sure a PostgreSQL server is there for the dialect matrix, then runs
// node's test runner. Uses WOHNAPI_TEST_PG (an admin URL) when set; otherwise starts a throwaway cluster and stops
// it afterwards.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startCluster, type PgCluster } from './pg-cluster.ts';
import { build } from './build.ts';

/** Every *.test.ts in or below the given files and folders (Node 20's test runner does not expand globs). */
function testFiles(dirs: string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.test.ts')) found.push(p);
    }
  };
  for (const d of dirs.filter((x) => fs.existsSync(x))) {
    if (fs.statSync(d).isDirectory()) walk(d);
    else found.push(d);
  }
  return found.sort();
}

// Arguments: test files or folders (default: src and test).
const patterns = testFiles(process.argv.slice(2).length ? process.argv.slice(2) : ['src', 'test']);
if (build() !== 0) {
  console.error('test: the build (tsconfig.build.json) does not compile');
  process.exit(1);
}
let cluster: PgCluster | undefined;
const env = { ...process.env };
if (!env.WOHNAPI_TEST_PG) {
  cluster = await startCluster();
  env.WOHNAPI_TEST_PG = cluster.url;
  console.log(`test: started PostgreSQL at ${cluster.url}`);
}
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=600000', ...patterns],
  {
    stdio: 'inherit',
    env,
  },
);
const stop = () => cluster?.stop();
process.on('SIGINT', () => child.kill('SIGINT'));
child.on('exit', (code, signal) => {
  stop();
  process.exit(code ?? (signal ? 1 : 0));
});
