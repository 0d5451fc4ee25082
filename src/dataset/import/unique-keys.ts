// Keys the database would refuse (or silently allow) that the importer reports as problems instead: a master-data
// catalogue entry's (Kind, KindId) is unique (decisions §7: ids per kind), buildings and land share one id space
// (a Building and a Land with the same Id), and so do allocation groups, combined groups and bases. Checked per batch
// against the batch itself and the rows already stored (earlier batches of the file included, since valid records are
// written as they come). A record with such a clash is not written; the import fails with every problem listed.
import type { BulkWriter } from '../../db/bulk.ts';
import { inChunks, placeholders, q } from '../../db/bulk.ts';
import type { CollectionSpec } from '../format/fields.ts';
import type { Parsed } from './record.ts';
import { collectionOf } from './lookup.ts';

type Report = (p: Parsed, path: string, message: string) => void;

/** Tables that share one id space (a record of one may not take the Id of a row of another), and how it is named. */
const ID_SPACES: { tables: string[]; name: string }[] = [
  { tables: ['buildings', 'lands'], name: 'buildings and land' },
  // interface.md: the Ids of AllocationGroup differ from those of AllocationGroupBase; the combined (cost
  // association) groups are allocation groups the AllocationGroups endpoint leaves out, so they share the space
  {
    tables: ['allocation_groups', 'combined_allocation_groups', 'allocation_group_bases'],
    name: 'allocation groups, combined allocation groups and bases',
  },
];

/** The records of the batch that clash with another record's key; each clash reported. */
export async function keyClashes(
  bulk: BulkWriter,
  spec: CollectionSpec,
  batch: Parsed[],
  report: Report,
): Promise<Set<Parsed>> {
  const out = new Set<Parsed>();
  if (spec.table === 'catalog_entries') {
    const key = (p: Parsed) => `${String(p.row.kind)}\u0000${String(p.row.kind_id)}`;
    const stored = new Map<string, number>();
    await inChunks([...new Set(batch.map((p) => p.row.kind_id as number))], 5000, async (slice) => {
      const rows = await bulk.run<{ id: number; kind: string; kind_id: number }>(
        `select id, kind, kind_id from ${q('catalog_entries')} where kind_id in (${placeholders(slice.length)})`,
        slice,
      );
      for (const r of rows) stored.set(`${r.kind}\u0000${Number(r.kind_id)}`, Number(r.id));
    });
    const inBatch = new Map<string, Parsed>();
    for (const p of batch) {
      const k = key(p);
      const earlier = inBatch.get(k);
      const storedId = stored.get(k);
      const other = earlier?.id ?? (storedId !== undefined && storedId !== p.id ? storedId : undefined);
      if (other !== undefined) {
        report(
          p,
          'KindId',
          `duplicate catalogue key: CatalogEntries ${other} already has Kind ${String(p.row.kind)} with KindId ${String(p.row.kind_id)} (ids are unique per kind)`,
        );
        out.add(p);
      } else inBatch.set(k, p);
    }
  }
  const space = ID_SPACES.find((s) => s.tables.includes(spec.table));
  for (const other of space?.tables.filter((t) => t !== spec.table) ?? []) {
    const taken = new Set<number>();
    await inChunks(
      batch.map((p) => p.id),
      5000,
      async (slice) => {
        const rows = await bulk.run<{ id: number }>(
          `select id from ${q(other)} where id in (${placeholders(slice.length)})`,
          slice,
        );
        for (const r of rows) taken.add(Number(r.id));
      },
    );
    for (const p of batch)
      if (taken.has(p.id)) {
        report(
          p,
          'Id',
          `Id ${p.id} is taken by ${collectionOf(other)} ${p.id}: ${space?.name ?? ''} share one id space`,
        );
        out.add(p);
      }
  }
  return out;
}
