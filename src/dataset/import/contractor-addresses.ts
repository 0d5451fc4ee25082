// Every contractor has a non-null DefaultAddress (decisions §7: clients index into it; vendor-master-data.md §2.6:
// "persons with contractor rows need a main address"), so a file may not make a contractor of a person without an
// address, nor leave a contractor's person without one. Persons come before Contractors in the file, so a written
// batch of Contractors is checked against its persons at once; a written person left without an address is noted
// (such persons are few) and checked against every stored contractor row when the whole file is in.
import { inChunks, placeholders, type BulkWriter } from '../../db/bulk.ts';
import type { CollectionSpec } from '../format/fields.ts';
import type { ImportProblem } from './lookup.ts';
import type { Parsed } from './record.ts';

type Report = (p: Parsed, path: string, message: string) => void;

interface Noted {
  spec: CollectionSpec;
  position: number;
  line?: number;
  id: number;
}

/** Of these persons, the ones without any address. */
async function withoutAddress(bulk: BulkWriter, ids: number[]): Promise<Set<number>> {
  const out = new Set<number>();
  await inChunks(ids, 5000, async (slice) => {
    const rows = await bulk.run<{ id: number }>(
      `select p.id from persons p where p.id in (${placeholders(slice.length)}) and not exists (select 1 from person_addresses a where a.person_id = p.id)`,
      slice,
    );
    for (const r of rows) out.add(Number(r.id));
  });
  return out;
}

export class ContractorAddresses {
  private persons: Noted[] = [];

  /** A written batch: Contractors checked against their persons, Persons without an address noted. */
  async written(bulk: BulkWriter, spec: CollectionSpec, batch: Parsed[], report: Report): Promise<void> {
    if (batch.length === 0) return;
    if (spec.table === 'contractors') {
      const bare = await withoutAddress(bulk, [...new Set(batch.map((p) => Number(p.row.person_id)))]);
      for (const p of batch) {
        const person = Number(p.row.person_id);
        if (bare.has(person)) report(p, 'PersonId', noAddress(person));
      }
    } else if (spec.table === 'persons') {
      const bare = await withoutAddress(
        bulk,
        batch.map((p) => p.id),
      );
      for (const p of batch)
        if (bare.has(p.id)) this.persons.push({ spec, position: p.position, line: p.line, id: p.id });
    }
  }

  /** Reports the noted persons that are contractors (of rows stored before or written by this file). */
  async check(bulk: BulkWriter, problem: (p: ImportProblem) => void): Promise<void> {
    if (this.persons.length === 0) return;
    const contractors = new Map<number, number[]>();
    await inChunks([...new Set(this.persons.map((n) => n.id))], 5000, async (slice) => {
      const rows = await bulk.run<{ person_id: number; license_agreement_id: number }>(
        `select person_id, license_agreement_id from contractors where person_id in (${placeholders(slice.length)}) order by license_agreement_id`,
        slice,
      );
      for (const r of rows) {
        const list = contractors.get(Number(r.person_id)) ?? [];
        list.push(Number(r.license_agreement_id));
        contractors.set(Number(r.person_id), list);
      }
    });
    for (const n of this.persons) {
      const agreements = contractors.get(n.id);
      if (!agreements) continue;
      problem({
        collection: n.spec.name,
        position: n.position,
        line: n.line,
        id: n.id,
        path: 'Addresses',
        message: `person ${n.id} is a contractor (license agreement ${[...new Set(agreements)].join(', ')}) and needs an address: clients read a contractor's DefaultAddress`,
      });
    }
  }
}

const noAddress = (person: number) =>
  `person ${person} has no address: a contractor's person needs one (clients read a contractor's DefaultAddress)`;
