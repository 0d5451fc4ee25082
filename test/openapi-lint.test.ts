// The served OpenAPI document passes Redocly's recommended rules and Spectral's spectral:oas with no error and no
// warning. Both linters run from devDependencies, offline (telemetry off), on the document a real server serves.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { testApp, type TestApp } from './support/app.ts';

const exec = promisify(execFile);
const ROOT = new URL('..', import.meta.url).pathname;
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);
const OFFLINE = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

/** Runs a linter; its exit code is not the verdict (the parsed report is), so a non-zero exit is not thrown. */
async function run(command: string, args: string[]): Promise<string> {
  try {
    return (await exec(command, args, { cwd: ROOT, env: OFFLINE, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    if (!e.stdout) throw err;
    return e.stdout;
  }
}

describe('OpenAPI document lint', () => {
  let t: TestApp;
  let dir: string;
  let file: string;
  before(async () => {
    t = await testApp('sqlite');
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${address}/service/openapi.json`);
    assert.equal(res.status, 200);
    dir = mkdtempSync(join(tmpdir(), 'wohnapi-openapi-'));
    file = join(dir, 'openapi.json');
    writeFileSync(file, await res.text());
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('Redocly (recommended): 0 errors, 0 warnings', async () => {
    const out = await run(bin('redocly'), ['lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json']);
    const report = JSON.parse(out.slice(out.indexOf('{'))) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string }[];
    };
    const problems = report.problems.map((p) => `${p.ruleId}: ${p.message}`);
    assert.deepEqual(problems, []);
    assert.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 });
  });

  it('Spectral (spectral:oas): no problem of any severity', async () => {
    const out = await run(bin('spectral'), [
      'lint',
      file,
      '--ruleset',
      join(ROOT, '.spectral.yaml'),
      '--format',
      'json',
      '--quiet',
    ]);
    const problems = (JSON.parse(out.trim() || '[]') as { code: string; message: string; path: string[] }[]).map(
      (p) => `${p.code}: ${p.message} at ${p.path.join('.')}`,
    );
    assert.deepEqual(problems, []);
  });
});
