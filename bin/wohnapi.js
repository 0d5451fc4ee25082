#!/usr/bin/env node
// The operator CLI: runs the compiled build in dist/ (`npm run build`; `npm install` runs it through `prepare`).
// `serve` runs the server in worker processes (src/runtime/cluster.ts), each with a bounded V8 heap (MAX_HEAP_MB).
import fs from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!fs.existsSync(main)) {
  process.stderr.write('wohnapi: error: no compiled build in dist/: run `npm run build` (or `npm install`) first\n');
  process.exit(1);
}
await import(main.href);
