// What every CLI command shares: config from the environment, an open and migrated database, one-line errors.
import { loadConfig, type Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { INT32_MAX } from '../http/int32.ts';
import { UsageError } from './errors.ts';

/** Runs `fn` on the migrated database. The database modules load only here, so that `--help` stays fast. */
export async function withDatabase<T>(fn: (database: Database, config: Readonly<Config>) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const { openDatabase } = await import('../db/database.ts');
  const { migrateToLatest } = await import('../db/migrate.ts');
  const database = openDatabase(config.databaseUrl, { poolSize: config.databasePoolMax });
  try {
    await migrateToLatest(database);
    return await fn(database, config);
  } finally {
    await database.close();
  }
}

export const out = (line: string) => process.stdout.write(`${line}\n`);

/** Collects a repeatable option (`--permission a --permission b`). */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

export function parseId(value: string): number {
  if (!/^[0-9]{1,10}$/.test(value) || Number(value) < 1 || Number(value) > INT32_MAX)
    throw new UsageError(`'${value}' is not a valid id (a whole number from 1 to ${INT32_MAX})`);
  return Number(value);
}

/** A progress line on a TTY (rewritten in place); silent otherwise. */
export function progress(label: string): (done: number, total?: number) => void {
  if (!process.stderr.isTTY) return () => {};
  let last = 0;
  return (done, total) => {
    const t = Date.now();
    if (t - last < 100 && done !== total) return;
    last = t;
    process.stderr.write(
      `\r${label}: ${done.toLocaleString('en')}${total ? ` / ${total.toLocaleString('en')}` : ''}${done === total ? '\n' : ''}`,
    );
  };
}
