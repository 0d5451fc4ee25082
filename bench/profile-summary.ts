// Summarises a V8 CPU profile (node --cpu-prof) by where the time is spent: self time per category (by script
// URL and function) and the top functions. Usage: node --import tsx bench/profile-summary.ts <file.cpuprofile>
import fs from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const [file] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: node --import tsx bench/profile-summary.ts <file.cpuprofile>');
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

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
