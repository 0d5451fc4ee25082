// What every CLI command shares: config from the environment, an open and migrated database, one-line errors.
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, redactUrl, type Config } from '../config.ts';
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

/** DATABASE_URL without its password, for messages. */

const UNREACHABLE = /\b(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|EAI_AGAIN|ECONNRESET)\b/;

/**
 * An error met while opening or migrating the database, as a one-line message that says what to do next (the
 * database's own words stay in it). Errors it does not recognise come back unchanged.
 */
export function databaseOpenError(err: unknown, url: string): unknown {
  if (!(err instanceof Error)) return err;
  const cause = err.cause as { code?: unknown; message?: unknown } | undefined;
  const raw = (err as { code?: unknown }).code ?? cause?.code;
  const code = typeof raw === 'string' ? raw : '';
  const text = `${err.message}${code && !err.message.includes(code) ? ` (${code})` : ''}`;
  const at = `DATABASE_URL=${redactUrl(url)}`;
  if (UNREACHABLE.test(text))
    return new UsageError(
      `cannot reach the database server (${at}): ${text}; start the database server or set DATABASE_URL to one that runs`,
    );
  if (code === '28P01' || code === '28000')
    return new UsageError(
      `the database refused the login (${at}): ${text}; fix the user name and password in DATABASE_URL`,
    );
  if (code === '3D000')
    return new UsageError(
      `the database does not exist (${at}): ${text}; create it (e.g. createdb) or fix the database name in DATABASE_URL`,
    );
  if (/^SQLITE_(NOTADB|CANTOPEN|CORRUPT|READONLY|PERM)/.test(code))
    return new UsageError(
      `cannot open the SQLite database (${at}): ${text}; set DATABASE_URL to a wohnapi database file you may write, or create one with 'wohnapi migrate'`,
    );
  if (err.name === 'SchemaMismatch') return new UsageError(`${err.message} (${at})`);
  if (err.message.startsWith('migration '))
    return new UsageError(`${err.message}; fix the cause named above and run 'wohnapi migrate' again`);
  return err;
}

/** Opens and migrates the database of `config`; failures become one-line errors naming the next step. */
export async function openMigrated(config: Readonly<Config>, poolSize: number): Promise<Database> {
  const { openDatabase } = await import('../db/database.ts');
  const { migrateToLatest } = await import('../db/migrate.ts');
  let database: Database | undefined;
  try {
    database = openDatabase(config.databaseUrl, { poolSize, sqliteCacheMb: config.sqliteCacheMb });
    await migrateToLatest(database);
    return database;
  } catch (err) {
    await database?.close().catch(() => {});
    throw databaseOpenError(err, config.databaseUrl);
  }
}

/** Runs `fn` on the migrated database. The database modules load only here, so that `--help` stays fast. */
export async function withDatabase<T>(
  fn: (database: Database, config: Readonly<Config>) => Promise<T>,
  options: { create?: boolean } = {},
): Promise<T> {
  const config = loadConfig();
  if (options.create !== true) requireExistingDatabase(config.databaseUrl);
  const database = await openMigrated(config, config.databasePoolMax);
  try {
    return await fn(database, config);
  } finally {
    await database.close();
  }
}

export const out = (line: string) => process.stdout.write(`${line}\n`);

/** Collects a repeatable option (`--permission a --permission b`). */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** A count option (`--limit 50`): a whole number from 1 to `max`. */
export function parseCount(option: string, value: string, max: number): number {
  if (!/^[0-9]{1,10}$/.test(value) || Number(value) < 1 || Number(value) > max)
    throw new UsageError(`${option} must be a whole number from 1 to ${max}, got '${value}'; e.g. ${option} 50`);
  return Number(value);
}

export function parseId(value: string): number {
  if (!/^[0-9]{1,10}$/.test(value) || Number(value) < 1 || Number(value) > INT32_MAX)
    throw new UsageError(
      `'${value}' is not a valid id (a whole number from 1 to ${INT32_MAX}); give the id as the list commands print it`,
    );
  return Number(value);
}
