// Processes of the runtime benchmark (bench/runtime.ts): `serve --workers N` started and awaited, its children,
// their memory, the load generators' CPU time, start-up medians, and the few reads the scenarios need.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { ROOT, freePort, stopProcess } from './harness.ts';
import { openDatabase } from '../src/db/database.ts';

const BIN = `${ROOT}bin/wohnapi.js`;
const TICKS = 100; // USER_HZ of /proc/<pid>/stat on Linux

export interface Server {
  pid: number;
  base: string;
  stop(): Promise<void>;
}

/** Starts `serve --workers N` and waits until all workers run and it answers; its log goes to `logFile` if given. */
export async function startServe(env: Record<string, string>, workers: number, logFile?: string): Promise<Server> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [BIN, 'serve', '--workers', String(workers)], {
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', logFile ? fs.openSync(logFile, 'a') : 'ignore', 'inherit'],
  });
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`serve --workers ${workers} exited with ${child.exitCode}`);
    if (childrenOf(child.pid as number).length === workers && (await ready(base))) break;
    await sleep(50);
  }
  return { pid: child.pid as number, base, stop: () => stopProcess(child) };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function ready(base: string): Promise<boolean> {
  try {
    return (await fetch(`${base}/health/ready`)).ok;
  } catch {
    return false;
  }
}

export function childrenOf(pid: number): number[] {
  try {
    const text = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return text ? text.split(/\s+/).map(Number) : [];
  } catch {
    return [];
  }
}

/** CPU seconds of this process's waited-for children (the load generators), from /proc/self/stat. */
export function reapedChildrenCpuSeconds(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / TICKS; // cutime, cstime
}

export const rssMb = (pid: number) =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Median wall time of `wohnapi --help`, and of `serve --workers 1` until /health/ready answers (migrated database). */
export async function startUp(env: Record<string, string>, runs: number) {
  const help: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [BIN, '--help'], { stdio: 'ignore' });
    if (r.status !== 0) throw new Error('wohnapi --help failed');
    help.push(performance.now() - t0);
  }
  const serve: number[] = [];
  for (let i = 0; i < Math.max(3, Math.ceil(runs / 2)); i++) {
    const port = await freePort();
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, 'serve', '--workers', '1'], {
      env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    while (!(await ready(`http://127.0.0.1:${port}`))) {
      if (child.exitCode !== null) throw new Error('serve exited');
      await sleep(5);
    }
    serve.push(performance.now() - t0);
    await stopProcess(child);
  }
  return { helpMedianMs: Math.round(median(help)), serveReadyMedianMs: Math.round(median(serve)), runs };
}

export async function projectTarget(url: string) {
  const database = openDatabase(url);
  try {
    return await database.db
      .selectFrom('use_units')
      .select(['id', 'economic_unit_id', 'building_id', 'company_code_id'])
      .where('building_id', 'is not', null)
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
  } finally {
    await database.close();
  }
}
