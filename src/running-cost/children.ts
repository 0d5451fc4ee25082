// Child rows of a page of groups, bases or combined groups: one query per kind for the whole page
// (`where parent in (...)` on the parent's index), returned grouped by parent id.
import type { Executor } from '../db/database.ts';

export interface UseUnitChild {
  parent: number;
  id: number;
  use_unit_number: string | null;
}
export interface CodeChild {
  parent: number;
  id: number;
  code: string | null;
}
export interface ExplanationChild {
  parent: number;
  id: number;
  text: string | null;
  group_id: number | null;
  group_name: string | null;
}
export interface OptionTaxChild {
  parent: number;
  option_tax: string;
  valid_from: string;
  valid_to: string | null;
}

export type ByParent<T> = Map<number, T[]>;

function byParent<T extends { parent: number }>(rows: T[]): ByParent<T> {
  const map: ByParent<T> = new Map();
  for (const row of rows) {
    const list = map.get(row.parent);
    if (list) list.push(row);
    else map.set(row.parent, [row]);
  }
  return map;
}

const unique = (ids: number[]) => [...new Set(ids)];

/** Use units of allocation groups, by use unit id. */
export async function groupUseUnits(db: Executor, groupIds: number[]): Promise<ByParent<UseUnitChild>> {
  if (groupIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('allocation_group_use_units as x')
    .innerJoin('use_units as u', 'u.id', 'x.use_unit_id')
    .select(['x.allocation_group_id as parent', 'u.id', 'u.use_unit_number'])
    .where('x.allocation_group_id', 'in', unique(groupIds))
    .orderBy('x.allocation_group_id')
    .orderBy('x.use_unit_id')
    .execute();
  return byParent(rows);
}

/** Cost types (catalogue kind AllocationGroupCostType) of allocation groups, by id. */
export async function groupCostTypes(db: Executor, groupIds: number[]): Promise<ByParent<CodeChild>> {
  if (groupIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('allocation_group_cost_types as x')
    .leftJoin('catalog_codes as k', 'k.id', 'x.cost_type_id')
    .select(['x.allocation_group_id as parent', 'x.cost_type_id as id', 'k.code'])
    .where('x.allocation_group_id', 'in', unique(groupIds))
    .orderBy('x.allocation_group_id')
    .orderBy('x.cost_type_id')
    .execute();
  return byParent(rows);
}

/** Cost types of allocation-group bases, by id. */
export async function baseCostTypes(db: Executor, baseIds: number[]): Promise<ByParent<CodeChild>> {
  if (baseIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('allocation_group_base_cost_types as x')
    .leftJoin('catalog_codes as k', 'k.id', 'x.cost_type_id')
    .select(['x.allocation_group_base_id as parent', 'x.cost_type_id as id', 'k.code'])
    .where('x.allocation_group_base_id', 'in', unique(baseIds))
    .orderBy('x.allocation_group_base_id')
    .orderBy('x.cost_type_id')
    .execute();
  return byParent(rows);
}

/** Explanations of allocation groups, by id. */
export async function groupExplanations(db: Executor, groupIds: number[]): Promise<ByParent<ExplanationChild>> {
  if (groupIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('allocation_group_explanations as x')
    .leftJoin('explanation_groups as eg', 'eg.id', 'x.explanation_group_id')
    .select([
      'x.allocation_group_id as parent',
      'x.id',
      'x.text',
      'x.explanation_group_id as group_id',
      'eg.name as group_name',
    ])
    .where('x.allocation_group_id', 'in', unique(groupIds))
    .orderBy('x.allocation_group_id')
    .orderBy('x.id')
    .execute();
  return byParent(rows);
}

/** Explanations of combined allocation groups, by id. */
export async function combinedExplanations(db: Executor, combinedIds: number[]): Promise<ByParent<ExplanationChild>> {
  if (combinedIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('combined_allocation_group_explanations as x')
    .leftJoin('explanation_groups as eg', 'eg.id', 'x.explanation_group_id')
    .select([
      'x.combined_allocation_group_id as parent',
      'x.id',
      'x.text',
      'x.explanation_group_id as group_id',
      'eg.name as group_name',
    ])
    .where('x.combined_allocation_group_id', 'in', unique(combinedIds))
    .orderBy('x.combined_allocation_group_id')
    .orderBy('x.id')
    .execute();
  return byParent(rows);
}

/** Option taxes of allocation groups, by ValidFrom. */
export async function groupOptionTaxes(db: Executor, groupIds: number[]): Promise<ByParent<OptionTaxChild>> {
  if (groupIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('allocation_group_option_taxes as x')
    .select(['x.allocation_group_id as parent', 'x.option_tax', 'x.valid_from', 'x.valid_to'])
    .where('x.allocation_group_id', 'in', unique(groupIds))
    .orderBy('x.allocation_group_id')
    .orderBy('x.valid_from')
    .execute();
  return byParent(rows);
}

/** Option taxes of allocation-group bases, by ValidFrom. */
export async function baseOptionTaxes(db: Executor, baseIds: number[]): Promise<ByParent<OptionTaxChild>> {
  if (baseIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('allocation_group_base_option_taxes as x')
    .select(['x.allocation_group_base_id as parent', 'x.option_tax', 'x.valid_from', 'x.valid_to'])
    .where('x.allocation_group_base_id', 'in', unique(baseIds))
    .orderBy('x.allocation_group_base_id')
    .orderBy('x.valid_from')
    .execute();
  return byParent(rows);
}

/** Which child arrays a request asked for (the include flags). */
export interface Includes {
  useUnits: boolean;
  costTypes: boolean;
  explanations: boolean;
  optionTaxes: boolean;
}

/** Child rows for a page; a kind that was not asked for is undefined (its array is then null on the wire). */
export interface Children {
  useUnits?: ByParent<UseUnitChild>;
  costTypes?: ByParent<CodeChild>;
  explanations?: ByParent<ExplanationChild>;
  combinedExplanations?: ByParent<ExplanationChild>;
  optionTaxes?: ByParent<OptionTaxChild>;
}

const when = <T>(flag: boolean, load: () => Promise<T>): Promise<T | undefined> =>
  flag ? load() : Promise.resolve(undefined);

/** The children of a page of allocation groups. */
export async function loadGroupChildren(db: Executor, groupIds: number[], inc: Includes): Promise<Children> {
  const [useUnits, costTypes, explanations, optionTaxes] = await Promise.all([
    when(inc.useUnits, () => groupUseUnits(db, groupIds)),
    when(inc.costTypes, () => groupCostTypes(db, groupIds)),
    when(inc.explanations, () => groupExplanations(db, groupIds)),
    when(inc.optionTaxes, () => groupOptionTaxes(db, groupIds)),
  ]);
  return { useUnits, costTypes, explanations, optionTaxes };
}

/** The children of a page of bases: their groups' use units and explanations, their combined groups' explanations. */
export async function loadBaseChildren(
  db: Executor,
  page: { id: number; group_id: number; combined_id: number }[],
  inc: Includes,
): Promise<Children> {
  const groupIds = page.map((b) => b.group_id);
  const [useUnits, costTypes, explanations, combined, optionTaxes] = await Promise.all([
    when(inc.useUnits, () => groupUseUnits(db, groupIds)),
    when(inc.costTypes, () =>
      baseCostTypes(
        db,
        page.map((b) => b.id),
      ),
    ),
    when(inc.explanations, () => groupExplanations(db, groupIds)),
    when(inc.explanations, () =>
      combinedExplanations(
        db,
        page.map((b) => b.combined_id),
      ),
    ),
    when(inc.optionTaxes, () =>
      baseOptionTaxes(
        db,
        page.map((b) => b.id),
      ),
    ),
  ]);
  return { useUnits, costTypes, explanations, combinedExplanations: combined, optionTaxes };
}
