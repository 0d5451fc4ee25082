// The options of a load script: its one argument, a JSON text or `@file` holding it (long path lists exceed argv).
import fs from 'node:fs';

export function readOptions<T>(script: string): T {
  const [arg] = process.argv.slice(2);
  if (arg === undefined) throw new Error(`usage: node --import tsx bench/${script} '<json options>' | @<file>`);
  return JSON.parse(arg.startsWith('@') ? fs.readFileSync(arg.slice(1), 'utf8') : arg) as T;
}
