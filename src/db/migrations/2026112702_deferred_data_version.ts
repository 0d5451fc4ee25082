// PostgreSQL: a transaction may defer its data-version bump to its end (`wohnapi.defer_data_version`, set LOCAL). The
// import writes for minutes; its first write used to lock the one counter row (data_version, id 1) until it
// committed, and every login meanwhile (whose token insert moves auth_version on the same row) waited for it. The
// import now bumps the version once, just before it commits (src/dataset/import/importer.ts). Without the setting
// the function does what it did, so the previous release runs on this schema unchanged.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database.ts';

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`CREATE OR REPLACE FUNCTION bump_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF current_setting('wohnapi.defer_data_version', true) = 'on' THEN RETURN NULL; END IF;
      UPDATE data_version SET version = version + 1 WHERE id = 1;
      RETURN NULL;
    END $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`CREATE OR REPLACE FUNCTION bump_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; RETURN NULL; END $$`.execute(db);
}
