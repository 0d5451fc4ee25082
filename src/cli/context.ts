// What every CLI command shares: config from the environment, an open and migrated database, one-line errors.
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { INT32_MAX } from '../http/int32.ts';
import { UsageError } from './errors.ts';

/**
 * A SQLite DATABASE_URL naming a file that does not exist is refused (a mistyped path would otherwise silently
 * become a new, empty database); only `serve`, `migrate` and `demo load` (which needs an empty database) create one.
 */
export function requireExistingDatabase(url: string): void {
  if (!url.startsWith('sqlite:')) return;
  const file = url.slice('sqlite:'.length);
  if (file === '' || file === ':memory:' || fs.existsSync(file)) return;
  throw new UsageError(
    `no database at ${path.resolve(file)} (DATABASE_URL=${url}): set DATABASE_URL to an existing database, or create this one with 'wohnapi migrate'`,
  );
}

/** Runs `fn` on the migrated database. The database modules load only here, so that `--help` stays fast. */
export async function withDatabase<T>(
  fn: (database: Database, config: Readonly<Config>) => Promise<T>,
  options: { create?: boolean } = {},
): Promise<T> {
  const config = loadConfig();
  if (options.create !== true) requireExistingDatabase(config.databaseUrl);
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
