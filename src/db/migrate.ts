// Runs the migrations in src/db/migrations (frozen history, timestamped names) on either engine.
import { inspect } from 'node:util';
import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './database.ts';
import * as m001 from './migrations/2026112201_foundation.ts';
import * as m002 from './migrations/2026112202_domain.ts';
import * as m003 from './migrations/2026112203_data_version.ts';
import * as m004 from './migrations/2026112204_auth_version.ts';
import * as m005 from './migrations/2026112301_hardening.ts';
import * as m006 from './migrations/2026112302_webhooks.ts';
import * as m007 from './migrations/2026112303_master_data.ts';
import * as m008 from './migrations/2026112401_read_model.ts';
import * as m009 from './migrations/2026112402_loans.ts';
import * as m010 from './migrations/2026112501_contract_read_model.ts';
import * as m011 from './migrations/2026112502_read_model_full.ts';
import * as m012 from './migrations/2026112601_sqlite_auth_version.ts';
import * as m013 from './migrations/2026112701_webhooks_unique_per_registrant.ts';
import * as m014 from './migrations/2026112702_deferred_data_version.ts';
import * as m015 from './migrations/2026112801_webhook_urls_normalized.ts';
import * as m016 from './migrations/2026112901_long_text_indexes.ts';
import * as m017 from './migrations/2026113001_read_model_texts_uncompressed.ts';

/** Every migration, in order. Add new ones at the end; never edit a released one. */
const MIGRATIONS: Record<string, Migration> = {
  '2026112201_foundation': m001,
  '2026112202_domain': m002,
  '2026112203_data_version': m003,
  '2026112204_auth_version': m004,
  '2026112301_hardening': m005,
  '2026112302_webhooks': m006,
  '2026112303_master_data': m007,
  '2026112401_read_model': m008,
  '2026112402_loans': m009,
  '2026112501_contract_read_model': m010,
  '2026112502_read_model_full': m011,
  '2026112601_sqlite_auth_version': m012,
  '2026112701_webhooks_unique_per_registrant': m013,
  '2026112702_deferred_data_version': m014,
  '2026112801_webhook_urls_normalized': m015,
  '2026112901_long_text_indexes': m016,
  '2026113001_read_model_texts_uncompressed': m017,
};

class StaticProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return MIGRATIONS;
  }
}

export interface MigrateResult {
  applied: string[];
  /** Migrations of a newer release the database already has (this release does not know them): the schema is
   *  newer, which the previous release meets during a rolling upgrade or a rollback (docs/deployment.md). */
  newer: string[];
}

/** A database of another line of releases: it has migrations this release does not know and lacks some it needs. */
export class SchemaMismatch extends Error {
  override name = 'SchemaMismatch';
}

/** The migrations the database has run, or none if it never was migrated. */
async function executed(database: Database): Promise<string[]> {
  try {
    const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(database.db);
    return rows.rows.map((r) => r.name);
  } catch (err) {
    // no migration table yet: a new database (any other failure shows again when the migrator runs)
    if (/kysely_migration|no such table|does not exist/i.test((err as Error).message)) return [];
    throw err;
  }
}

/** Brings the schema up to date; throws (with the failing migration's name) on any failure. A database that a newer
 *  release has migrated further is left as it is, as long as it holds every migration this release knows. */
export async function migrateToLatest(database: Database): Promise<MigrateResult> {
  const done = await executed(database);
  const newer = done.filter((name) => !Object.hasOwn(MIGRATIONS, name));
  if (newer.length) {
    const missing = Object.keys(MIGRATIONS).filter((name) => !done.includes(name));
    if (missing.length)
      throw new SchemaMismatch(
        `the database has migrations this release does not know (${newer.join(', ')}) and lacks some it needs ` +
          `(${missing.join(', ')}): it belongs to another line of releases; point DATABASE_URL at this release's database`,
      );
    return { applied: [], newer };
  }
  const migrator = new Migrator({ db: database.db, provider: new StaticProvider() });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const msg = error instanceof Error ? error.message : typeof error === 'string' ? error : inspect(error);
    // No migration named: the database itself could not be used (the callers say how: not reachable, ...).
    throw new Error(failed ? `migration ${failed.migrationName} failed: ${msg}` : msg, { cause: error });
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName), newer: [] };
}
