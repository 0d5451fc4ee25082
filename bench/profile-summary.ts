// Summarises a V8 CPU profile (node --cpu-prof) by where the time is spent: self time per category (by script
// URL and function) and the top functions. Usage: node --import tsx bench/profile-summary.ts <file.cpuprofile>
// [--after <seconds>] (samples of the first seconds left out: a server's start-up) [--inclusive <regex>] (also the
// total time, callees included, of the functions whose `name@url` matches, e.g. 'dist/(pipeline|projects|auth)/').
import fs from 'node:fs';
import { parseArgs } from 'node:util';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: { after: { type: 'string', default: '0' }, inclusive: { type: 'string' } },
});
const [file] = positionals;
if (file === undefined) throw new Error('usage: node --import tsx bench/profile-summary.ts <file.cpuprofile>');
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
const skipUs = Number(opts.after) * 1e6;
let elapsed = 0;
profile.samples.forEach((id, i) => {
  elapsed += profile.timeDeltas[i] ?? 0;
  if (elapsed >= skipUs) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});

const CATEGORIES: Array<[string, RegExp]> = [
  ['idle', /^\(idle\)/],
  ['garbage collection', /^\(garbage collector\)/],
  ['SQLite (better-sqlite3 native calls)', /better-sqlite3/],
  ['pg driver', /node_modules\/(pg|pg-protocol|pg-pool)\//],
  ['Kysely (query building, compiling, result handling)', /node_modules\/kysely\//],
  [
    'serialization (fast-json-stringify / compiled serializer)',
    /fast-json-stringify|src\/http\/serializer|^serialize@/,
  ],
  ['null stripping', /src\/http\/response\.ts/],
  ['presenters (rows to objects)', /presenters?\.ts|src\/http\/present\.ts|kinds-|contracts\.ts|codes\.ts/],
  ['queries and child loading (our code)', /queries\.ts|children\.ts|engine\.ts|src\/db\//],
  ['validation (ajv)', /node_modules\/ajv/],
  [
    'Fastify and pipeline',
    /node_modules\/(fastify|@fastify|find-my-way|avvio|light-my-request)|src\/pipeline|src\/auth/,
  ],
  [
    'HTTP and streams (node internals)',
    /^node:(_http|http|net|stream|internal\/streams|internal\/http)|_http_|net\.js/,
  ],
  ['JSON (JSON.stringify / parse)', /^JSON\./],
];

const totals = new Map<string, number>();
const fns = new Map<string, number>();
let all = 0;
for (const [id, t] of self) {
  const n = byId.get(id);
  if (!n) continue;
  const { functionName, url, lineNumber } = n.callFrame;
  const key = `${functionName || '(anonymous)'}@${url.replace(/^.*\/(node_modules|src)\//, '$1/')}:${lineNumber}`;
  const subject = `${functionName}@${url}`;
  const cat = CATEGORIES.find(([, re]) => re.test(subject) || re.test(url) || re.test(functionName))?.[0] ?? 'other';
  totals.set(cat, (totals.get(cat) ?? 0) + t);
  if (cat !== 'idle') {
    fns.set(key, (fns.get(key) ?? 0) + t);
    all += t;
  }
}
const pct = (t: number) => `${((100 * t) / all).toFixed(1)}%`;
console.log(`busy ${(all / 1000).toFixed(0)} ms (idle ${((totals.get('idle') ?? 0) / 1000).toFixed(0)} ms)`);
for (const [cat, t] of [...totals].filter(([c]) => c !== 'idle').sort((a, b) => b[1] - a[1]))
  console.log(`${pct(t).padStart(6)}  ${cat}`);
console.log('\ntop functions (self time):');
for (const [k, t] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${pct(t).padStart(6)}  ${k}`);

if (opts.inclusive) {
  // Total time per matching function: the self time of its node and of every node below it, each node counted once
  // per function even when the function recurses.
  const match = new RegExp(opts.inclusive);
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const nameOf = (n: Node) =>
    `${n.callFrame.functionName || '(anonymous)'}@${n.callFrame.url.replace(/^.*\/(node_modules|src|dist)\//, '$1/')}:${n.callFrame.lineNumber}`;
  const inclusive = new Map<string, number>();
  for (const [id, t] of self) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur);
      if (!n || !match.test(`${n.callFrame.functionName}@${n.callFrame.url}`)) continue;
      const name = nameOf(n);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + t);
    }
  }
  console.log(`\ninclusive time of /${opts.inclusive}/ (callees included):`);
  for (const [k, t] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 40))
    console.log(`${pct(t).padStart(6)}  ${k}`);
}
