#!/usr/bin/env node
// The operator CLI. Runs the TypeScript sources through tsx (no build step).
// `serve` runs the server in a child process with a bounded V8 heap (MAX_HEAP_MB, default 256) and fewer malloc
// arenas, so that its memory stays flat under load; signals are passed on and its exit code is returned.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
if (args[0] === 'serve' && !process.env.WOHNAPI_SERVER_PROCESS) {
  const heap = Number(process.env.MAX_HEAP_MB ?? '256');
  // Only a plausible value becomes the flag; an invalid MAX_HEAP_MB is then reported by the child's configuration
  // check (src/config.ts) in its usual one-line form instead of V8 failing on a tiny heap.
  const flags = Number.isInteger(heap) && heap >= 64 ? [`--max-old-space-size=${heap}`] : [];
  const child = spawn(process.execPath, [...flags, ...process.execArgv, fileURLToPath(import.meta.url), ...args], {
    stdio: 'inherit',
    env: { ...process.env, WOHNAPI_SERVER_PROCESS: '1', MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' },
  });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
