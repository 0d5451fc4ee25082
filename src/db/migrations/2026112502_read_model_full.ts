// The AllocationGroupBases read model (2026112401) also keeps each base's complete text for the common request — all
// includes, nulls omitted, what a client syncing everything asks — so that such a page joins one column per base
// instead of splicing eleven pieces (docs/performance.md, "The read model of AllocationGroupBases"). Null until the
// next rebuild; the read model's format changed with it, so the old pieces are not used before that rebuild.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('allocation_group_base_fragments').addColumn('complete', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('allocation_group_base_fragments').dropColumn('complete').execute();
}
