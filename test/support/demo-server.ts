// The real server process started as a new user would (`wohnapi serve --demo` on a fresh SQLite file), with the demo
// login and API key it prints. For the end-to-end tests of the docs page, the client package and the examples.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../bench/harness.ts';

const BIN = new URL('../../bin/wohnapi.js', import.meta.url).pathname;

export interface DemoServer {
  base: string;
  user: string;
  password: string;
  key: string;
  /** Everything the process printed (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

export async function startDemoServer(env: Record<string, string> = {}): Promise<DemoServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wohnapi-demo-'));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--demo'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${path.join(dir, 'demo.sqlite')}`,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  for (let i = 0; i < 600 && !output.includes('Try:') && child.exitCode === null; i++)
    await new Promise((r) => setTimeout(r, 100));
  const printed = (pattern: RegExp) => {
    const value = pattern.exec(output)?.[1];
    if (!value) throw new Error(`the demo server did not print ${pattern.source}; it printed:\n${output}`);
    return value;
  };
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    return {
      base: `http://127.0.0.1:${port}`,
      user: printed(/user: +(\S+)/),
      password: printed(/password: +(\S+)/),
      key: printed(/API key: +(\S+)/),
      output: () => output,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
