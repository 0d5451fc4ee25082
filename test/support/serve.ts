// Runs `wohnapi serve` (the real binary, compiled build) as a child process on a free port and waits until it is
// ready; collects its output, lists its worker processes and stops it with a signal.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { freePort } from '../../scripts/pg-cluster.ts';

const BIN = new URL('../../bin/wohnapi.js', import.meta.url).pathname;

export interface ServeProcess {
  child: ChildProcess;
  base: string;
  port: number;
  /** Everything the process tree wrote to stdout and stderr so far. */
  output(): string;
  /** The pids of the primary's worker processes. */
  workers(): number[];
  /** Resolves with the exit code (or signal) once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM (or the given signal), then waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 100 ms until it returns true; fails after `seconds`. */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, seconds = 60): Promise<void> {
  for (let i = 0; i < seconds * 10; i++) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

export async function isReady(base: string): Promise<boolean> {
  try {
    return (await fetch(`${base}/health/ready`)).ok;
  } catch {
    return false;
  }
}

/** Starts `wohnapi serve <args>`; does not wait (see startServe). */
export async function spawnServe(args: string[], env: Record<string, string>, port?: number): Promise<ServeProcess> {
  const p = port ?? (await freePort());
  const child = spawn(process.execPath, [BIN, 'serve', ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(p) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    port: p,
    base: `http://127.0.0.1:${p}`,
    output: () => output,
    workers: () => {
      try {
        return fs
          .readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8')
          .trim()
          .split(/\s+/)
          .filter(Boolean)
          .map(Number);
      } catch {
        return [];
      }
    },
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Starts `wohnapi serve <args>` and waits until /health/ready answers 200 (and `workers` workers run). */
export async function startServe(args: string[], env: Record<string, string>, workers = 1): Promise<ServeProcess> {
  const server = await spawnServe(args, env);
  try {
    await waitFor(
      `serve ${args.join(' ')} to be ready`,
      async () => {
        if (server.child.exitCode !== null) throw new Error(`serve exited early: ${server.output()}`);
        return server.workers().length === workers && (await isReady(server.base));
      },
      120,
    );
  } catch (err) {
    await server.stop('SIGKILL');
    throw err;
  }
  return server;
}
