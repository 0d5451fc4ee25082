// Building blocks of the benchmark: child processes (CLI, server, load generators), RSS sampling, tables.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../scripts/pg-cluster.ts';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);
export const ROOT = new URL('..', import.meta.url).pathname;
const BIN = `${ROOT}bin/wohnapi.js`;

export { freePort };

/** Runs the real CLI; returns stdout; throws with stderr on a non-zero exit. */
export async function cli(args: string[], env: Record<string, string>): Promise<string> {
  const { stdout } = await execFileP(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  stop(): Promise<void>;
}

/** Starts a process and waits until `ready(url)` answers true. */
export async function startProcess(
  command: string[],
  env: Record<string, string>,
  readyUrl: string,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, command, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(readyUrl);
      if (res.ok) return child;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`${command.join(' ')} exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`${command.join(' ')} did not become ready`);
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = await startProcess(
    [BIN, 'serve'],
    { ...env, PORT: String(port), LOG_LEVEL: 'warn' },
    `${base}/health/ready`,
  );
  return { child, base, stop: () => stopProcess(child) };
}

/** Resident set size in kB of a process and all its descendants (`serve` runs the server in a child). */
function treeRssKb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const own = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    const children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    return own + children.reduce((sum, c) => sum + treeRssKb(c), 0);
  } catch {
    return 0; // process gone
  }
}

/** Samples the resident set size of a process tree while `work` runs; returns the work's result and the peak in MB. */
export async function withPeakRss<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peakRssMb: number }> {
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, treeRssKb(pid) / 1024);
  };
  sample();
  const timer = setInterval(sample, 50);
  try {
    const result = await work();
    sample();
    return { result, peakRssMb: Math.round(peak) };
  } finally {
    clearInterval(timer);
  }
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx?: number;
  errors: number;
  /** Answers with `x-cache: hit` (page cache). */
  hits?: number;
  /** Requests the load made (the divisor of the server CPU time); `ok + non2xx` when not given. */
  requests?: number;
  /** Extra figures of a scenario's own load script (records, seconds, …). */
  extra?: Record<string, number>;
}

/** The machine's CPU time counters (all cores, in ticks) from the first line of /proc/stat: total and stolen. */
export function machineTicks(): { total: number; steal: number } {
  try {
    const [, ...fields] = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
    // user nice system idle iowait irq softirq steal guest guest_nice (guest time is already in user)
    const n = fields.slice(0, 8).map(Number);
    return { total: n.reduce((a, b) => a + b, 0), steal: n[7] ?? 0 };
  } catch {
    return { total: 0, steal: 0 }; // not Linux
  }
}

/**
 * Per cent of the machine's CPU time the hypervisor gave to other guests between two readings of machineTicks():
 * on a shared virtual machine this moves requests/s by 2x between runs of the same code, so every row reports it.
 */
export function stealPercent(before: { total: number; steal: number }): number {
  const after = machineTicks();
  const total = after.total - before.total;
  return total > 0 ? Math.round(((after.steal - before.steal) * 100) / total) : 0;
}

const CLK_TCK = 100; // Linux USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s on every common kernel

/** CPU time (user + system) in ms of a process and all its descendants, from /proc/<pid>/stat. */
export function treeCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK; // utime, stime (fields 14, 15)
    const children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    return own + children.reduce((sum, c) => sum + treeCpuMs(c), 0);
  } catch {
    return 0; // process gone
  }
}

/** Runs a load generator script (bench/load.ts, bench/projects-load.ts, bench/sync-load.ts) in its own process. */
export async function runLoad(script: string, options: object): Promise<LoadResult> {
  const file = path.join(os.tmpdir(), `wohnapi-load-${process.pid}-${++loads}.json`);
  fs.writeFileSync(file, JSON.stringify(options));
  try {
    const { stdout } = await execFileP(process.execPath, ['--import', 'tsx', `${ROOT}bench/${script}`, `@${file}`], {
      maxBuffer: 16 * 1024 * 1024,
    });
    return JSON.parse(stdout.trim().split('\n').pop() as string) as LoadResult;
  } finally {
    fs.rmSync(file, { force: true });
  }
}
let loads = 0;

export function table(rows: Array<Record<string, string | number>>): string {
  const cols = Object.keys(rows[0] ?? {});
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(width[i] ?? 0)).join('  ');
  return [
    line(cols),
    line(width.map((w) => '-'.repeat(w))),
    ...rows.map((r) => line(cols.map((c) => String(r[c])))),
  ].join('\n');
}
