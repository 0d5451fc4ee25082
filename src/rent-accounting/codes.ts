// Catalogue codes (catalog_codes) shown by the rent-accounting presenters: looked up once per page or chunk,
// then read through the small reference shapes of the interface.
import type { Selectable } from 'kysely';
import type { Executor } from '../db/database.ts';
import type { CatalogCodesTable } from '../master-data/tables.ts';
import { bool } from '../http/present.ts';

type CatalogRow = Selectable<CatalogCodesTable>;
type MaybeId = number | null | undefined;

export class Codes {
  private constructor(private readonly rows: Map<number, CatalogRow>) {}

  /** The catalogue rows of these ids, in one query (none for no ids). */
  static async load(db: Executor, ids: Iterable<MaybeId>): Promise<Codes> {
    const wanted = [...new Set([...ids].filter((id): id is number => typeof id === 'number'))];
    if (wanted.length === 0) return new Codes(new Map());
    const rows = await db.selectFrom('catalog_codes').selectAll().where('id', 'in', wanted).execute();
    return new Codes(new Map(rows.map((r) => [r.id, r])));
  }

  private at(id: number): Partial<CatalogRow> {
    return this.rows.get(id) ?? {};
  }

  /** Ref / CodeRef {Id, Code}. */
  ref(id: MaybeId): { Id: number; Code: string | null } | null {
    return id == null ? null : { Id: id, Code: this.at(id).code ?? null };
  }

  /** {Id, Name, ShortCode} (ContractPositionType, CalculationBase). */
  named(id: MaybeId): { Id: number; Name: string | null; ShortCode: string | null } | null {
    if (id == null) return null;
    const r = this.at(id);
    return { Id: id, Name: r.name ?? null, ShortCode: r.short_code ?? null };
  }

  /** {Id, Code, ShortCode} (DistributionCostType, StandardDistributionKey). */
  coded(id: MaybeId): { Id: number; Code: string | null; ShortCode: string | null } | null {
    if (id == null) return null;
    const r = this.at(id);
    return { Id: id, Code: r.code ?? null, ShortCode: r.short_code ?? null };
  }

  /** {Id, Name, Code, ArgeCode} (BillingUnitValue). */
  billingUnit(id: MaybeId): { Id: number; Name: string | null; Code: string | null; ArgeCode: string | null } | null {
    if (id == null) return null;
    const r = this.at(id);
    return { Id: id, Name: r.name ?? null, Code: r.code ?? null, ArgeCode: r.arge_code ?? null };
  }

  /** DistributionSpecialChargeType {Id, Code, and its three flags}. */
  chargeType(id: MaybeId) {
    if (id == null) return null;
    const r = this.at(id);
    return {
      Id: id,
      Code: r.code ?? null,
      IsFixCostsPerDistributionKeyUnit: bool(r.is_fix_costs_per_distribution_key_unit),
      IsPercentOfContractPosition: bool(r.is_percent_of_contract_position),
      IsUpperLimit: bool(r.is_upper_limit),
    };
  }

  /** ReasonOfWaiver {Id, Code, NodeId}. */
  node(id: MaybeId): { Id: number; Code: string | null; NodeId: number | null } | null {
    if (id == null) return null;
    const r = this.at(id);
    return { Id: id, Code: r.code ?? null, NodeId: r.node_id ?? null };
  }

  /** The code alone (version 1.0 string fields next to an …Id field). */
  code(id: MaybeId): string | null {
    return id == null ? null : (this.at(id).code ?? null);
  }

  /** The name alone (version 1.0 ContractPositionType, CalculationBasis: their Ref has no Code). */
  name(id: MaybeId): string | null {
    return id == null ? null : (this.at(id).name ?? null);
  }
}

/** Values of the given columns over rows (catalogue ids to look up). */
export function columnValues<R>(rows: Iterable<R>, ...columns: (keyof R)[]): MaybeId[] {
  const out: MaybeId[] = [];
  for (const r of rows) for (const c of columns) out.push(r[c] as MaybeId);
  return out;
}
