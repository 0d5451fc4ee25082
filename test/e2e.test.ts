// End to end: the real server process over a real socket, as a new user would start it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../bench/harness.ts';

const BIN = new URL('../bin/wohnapi.js', import.meta.url).pathname;

describe('the server process', () => {
  let child: ChildProcess;
  let base: string;
  let output = '';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wohnapi-e2e-'));

  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [BIN, 'serve', '--demo'], {
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: `sqlite:${path.join(dir, 'e2e.sqlite')}`,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString())); // the start banner
    for (let i = 0; i < 300 && !output.includes('Try:'); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(output.includes('Try:'), `start-up output: ${output}`);
  });
  after(() => {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('prints the address, docs URL, demo login and key at start', () => {
    assert.match(output, new RegExp(`wohnapi listening on ${base}`));
    assert.match(output, /docs: +http:\/\/127\.0\.0\.1:\d+\/docs/);
    assert.match(output, /user: +demo/);
    assert.match(output, /API key: +wk_/);
  });

  it('logs in over a real socket and calls a protected route with the printed key', async () => {
    const printed = (pattern: RegExp): string => {
      const value = pattern.exec(output)?.[1];
      assert.ok(value, `${pattern.source} in the output`);
      return value;
    };
    const password = printed(/password: +(\S+)/);
    const key = printed(/API key: +(\S+)/);
    const tokenRes = await fetch(`${base}/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'password', username: 'demo', password }),
    });
    assert.equal(tokenRes.status, 200);
    const { access_token } = (await tokenRes.json()) as { access_token: string };
    const url = `${base}/openWowi/v1.2/RunningCostDistributionRead/DistributionPeriods?apiKey=${key}`;
    const denied = await fetch(url);
    assert.equal(denied.status, 401);
    const res = await fetch(url, { headers: { authorization: `Bearer ${access_token}` } });
    assert.equal(res.status, 200);
    const body = (await res.json()) as Array<{ Id: number }>;
    assert.ok(Array.isArray(body) && body.length > 0, 'demo data is served');
    assert.ok(res.headers.get('x-request-id'));
    await new Promise((r) => setTimeout(r, 200));
    const logLines = output.split('\n').filter((l) => l.startsWith('{'));
    assert.ok(
      logLines.some((l) => l.includes('DistributionPeriods')),
      'requests are logged as JSON lines',
    );
    for (const line of logLines) {
      assert.ok(
        !line.includes(key) && !line.includes(access_token) && !line.includes(password),
        `no secret in: ${line}`,
      );
    }
  });

  it('stops gracefully on SIGTERM with exit code 0', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  });
});
