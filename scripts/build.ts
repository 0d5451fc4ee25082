// `npm run build` (also run by `prepare`, `npm test` and `npm run bench`): compiles src/ (without its tests) to
// dist/ with tsc and tsconfig.build.json. dist/ is emptied first so that no file of a removed source stays behind.
// Data files the sources read at run time (*.json beside them, e.g. src/ops/openapi-examples.json) are copied along.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';

const ROOT = new URL('..', import.meta.url).pathname;

/** Compiles; returns tsc's exit code (its diagnostics go to stderr). */
export function build(): number {
  fs.rmSync(`${ROOT}dist`, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', `${ROOT}tsconfig.build.json`], { stdio: 'inherit' });
  if (result.status !== 0) return result.status ?? 1;
  copyAssets(`${ROOT}src`, `${ROOT}dist`);
  return 0;
}

/** Copies every *.json file below `from` to the same place below `to`. */
function copyAssets(from: string, to: string): void {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = `${from}/${entry.name}`;
    if (entry.isDirectory()) copyAssets(source, `${to}/${entry.name}`);
    else if (entry.name.endsWith('.json')) {
      fs.mkdirSync(to, { recursive: true });
      fs.copyFileSync(source, `${to}/${entry.name}`);
    }
  }
}

if (process.argv[1] && new URL(import.meta.url).pathname === fs.realpathSync(process.argv[1])) {
  process.exitCode = build();
}
