// Runs the migrations in src/db/migrations (frozen history, timestamped names) on either engine.
import { inspect } from 'node:util';
import { Migrator, type Migration, type MigrationProvider } from 'kysely';
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
};

class StaticProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return MIGRATIONS;
  }
}

export interface MigrateResult {
  applied: string[];
}

/** Brings the schema up to date; throws (with the failing migration's name) on any failure. */
export async function migrateToLatest(database: Database): Promise<MigrateResult> {
  const migrator = new Migrator({ db: database.db, provider: new StaticProvider() });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const msg = error instanceof Error ? error.message : typeof error === 'string' ? error : inspect(error);
    // No migration named: the database itself could not be used (the callers say how: not reachable, ...).
    throw new Error(failed ? `migration ${failed.migrationName} failed: ${msg}` : msg, { cause: error });
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}
