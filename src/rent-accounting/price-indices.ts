// Version 1.2 PriceIndex and PriceIndexValue: shared catalogues, visible to every ledger.
import type { Executor } from '../db/database.ts';
import { dec } from '../http/present.ts';
import { windowed } from './contracts.ts';
import type { Reader, Window } from './engine.ts';
import type { Filters } from './params.ts';
import { DateField, Int32, Ref, Str, Num } from './wire.ts';

interface PriceIndexRow {
  id: number;
  code: string;
  note: string | null;
}

export const priceIndexReader: Reader<PriceIndexRow, null> = {
  summary: 'Stored price indices',
  description: 'Stored price indices (a shared catalogue, the same for every ledger).',
  filters: ['priceIndexId', 'priceIndexCode'],
  fields: { Id: Int32(), Code: Str(), Note: Str() },
  rows(db: Executor, f: Filters, _scope, w: Window) {
    let qb = db.selectFrom('price_indices').select(['id', 'code', 'note']);
    if (f.priceIndexId !== undefined) qb = qb.where('id', '=', f.priceIndexId);
    if (f.priceIndexCode !== undefined) qb = qb.where('code', '=', f.priceIndexCode);
    return windowed(qb, 'price_indices.id', w).execute();
  },
  related: async () => null,
  present: (r) => ({ Id: r.id, Code: r.code, Note: r.note }),
};

interface PriceIndexValueRow {
  id: number;
  index_value: string;
  reference_date: string;
  price_index_id: number;
  price_index_code: string;
}

export const priceIndexValueReader: Reader<PriceIndexValueRow, null> = {
  summary: 'Values of the price indices',
  description:
    'Values of the price indices, each with its reference date (a shared catalogue, the same for every ledger).',
  filters: ['priceIndexId', 'referenceDateFrom', 'referenceDateTo'],
  fields: { Id: Int32(), IndexValue: Num(), ReferenceDate: DateField(), PriceIndex: Ref },
  rows(db: Executor, f: Filters, _scope, w: Window) {
    let qb = db
      .selectFrom('price_index_values as v')
      .innerJoin('price_indices as pi', 'pi.id', 'v.price_index_id')
      .select(['v.id', 'v.index_value', 'v.reference_date', 'v.price_index_id', 'pi.code as price_index_code']);
    if (f.priceIndexId !== undefined) qb = qb.where('v.price_index_id', '=', f.priceIndexId);
    if (f.referenceDateFrom !== undefined) qb = qb.where('v.reference_date', '>=', f.referenceDateFrom);
    if (f.referenceDateTo !== undefined) qb = qb.where('v.reference_date', '<=', f.referenceDateTo);
    return windowed(qb, 'v.id', w).execute();
  },
  related: async () => null,
  present: (r) => ({
    Id: r.id,
    IndexValue: dec(r.index_value),
    ReferenceDate: r.reference_date,
    PriceIndex: { Id: r.price_index_id, Code: r.price_index_code },
  }),
};
