// Child rows of a page of groups, bases or combined groups: one query per kind for the whole page
// (`where parent in (...)` on the parent's index), returned grouped by parent id. Every kind is one row of
// CHILD_KINDS; one loader runs them all.
import { sql } from 'kysely';
import type { Executor } from '../db/database.ts';
import { groupBy } from '../db/group.ts';

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

interface ChildKind {
  /** Table (alias x) and its joins. */
  from: string;
  /** Column of x holding the parent id. */
  parent: string;
  /** The other columns, named as in the row type. */
  columns: string;
  /** Order of the children of one parent. */
  order: string;
}

const EXPLANATION_COLUMNS = 'x.id, x.text, x.explanation_group_id as group_id, eg.name as group_name';

/** Every kind of child row, with the row type it yields (ChildRows). */
const CHILD_KINDS = {
  groupUseUnits: {
    from: 'allocation_group_use_units x join use_units u on u.id = x.use_unit_id',
    parent: 'allocation_group_id',
    columns: 'u.id, u.use_unit_number',
    order: 'x.use_unit_id',
  },
  groupCostTypes: {
    from: 'allocation_group_cost_types x left join catalog_codes k on k.id = x.cost_type_id',
    parent: 'allocation_group_id',
    columns: 'x.cost_type_id as id, k.code',
    order: 'x.cost_type_id',
  },
  baseCostTypes: {
    from: 'allocation_group_base_cost_types x left join catalog_codes k on k.id = x.cost_type_id',
    parent: 'allocation_group_base_id',
    columns: 'x.cost_type_id as id, k.code',
    order: 'x.cost_type_id',
  },
  groupExplanations: {
    from: 'allocation_group_explanations x left join explanation_groups eg on eg.id = x.explanation_group_id',
    parent: 'allocation_group_id',
    columns: EXPLANATION_COLUMNS,
    order: 'x.id',
  },
  combinedExplanations: {
    from: 'combined_allocation_group_explanations x left join explanation_groups eg on eg.id = x.explanation_group_id',
    parent: 'combined_allocation_group_id',
    columns: EXPLANATION_COLUMNS,
    order: 'x.id',
  },
  groupOptionTaxes: {
    from: 'allocation_group_option_taxes x',
    parent: 'allocation_group_id',
    columns: 'x.option_tax, x.valid_from, x.valid_to',
    order: 'x.valid_from',
  },
  baseOptionTaxes: {
    from: 'allocation_group_base_option_taxes x',
    parent: 'allocation_group_base_id',
    columns: 'x.option_tax, x.valid_from, x.valid_to',
    order: 'x.valid_from',
  },
} satisfies Record<string, ChildKind>;

interface ChildRows {
  groupUseUnits: UseUnitChild;
  groupCostTypes: CodeChild;
  baseCostTypes: CodeChild;
  groupExplanations: ExplanationChild;
  combinedExplanations: ExplanationChild;
  groupOptionTaxes: OptionTaxChild;
  baseOptionTaxes: OptionTaxChild;
}

/** The children of one kind for the given parents, by parent id. */
async function loadChildren<K extends keyof ChildRows>(
  db: Executor,
  kind: K,
  parentIds: number[],
): Promise<ByParent<ChildRows[K]>> {
  if (parentIds.length === 0) return new Map();
  const k: ChildKind = CHILD_KINDS[kind];
  const parent = sql.raw(`x.${k.parent}`);
  const { rows } = await sql<ChildRows[K]>`select ${parent} as parent, ${sql.raw(k.columns)} from ${sql.raw(k.from)}
    where ${parent} in (${sql.join([...new Set(parentIds)])}) order by ${parent}, ${sql.raw(k.order)}`.execute(db);
  return groupBy(rows, 'parent');
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

const when = <K extends keyof ChildRows>(flag: boolean, db: Executor, kind: K, ids: number[]) =>
  flag ? loadChildren(db, kind, ids) : Promise.resolve(undefined);

/** The children of a page of allocation groups. */
export async function loadGroupChildren(db: Executor, groupIds: number[], inc: Includes): Promise<Children> {
  const [useUnits, costTypes, explanations, optionTaxes] = await Promise.all([
    when(inc.useUnits, db, 'groupUseUnits', groupIds),
    when(inc.costTypes, db, 'groupCostTypes', groupIds),
    when(inc.explanations, db, 'groupExplanations', groupIds),
    when(inc.optionTaxes, db, 'groupOptionTaxes', groupIds),
  ]);
  return { useUnits, costTypes, explanations, optionTaxes };
}

/** The children of a page of bases: their groups' use units and explanations, their combined groups' explanations. */
export async function loadBaseChildren(
  db: Executor,
  page: { id: number; group_id: number; combined_id: number }[],
  inc: Includes,
): Promise<Children> {
  const ids = page.map((b) => b.id);
  const groupIds = page.map((b) => b.group_id);
  const [useUnits, costTypes, explanations, combinedExplanations, optionTaxes] = await Promise.all([
    when(inc.useUnits, db, 'groupUseUnits', groupIds),
    when(inc.costTypes, db, 'baseCostTypes', ids),
    when(inc.explanations, db, 'groupExplanations', groupIds),
    when(
      inc.explanations,
      db,
      'combinedExplanations',
      page.map((b) => b.combined_id),
    ),
    when(inc.optionTaxes, db, 'baseOptionTaxes', ids),
  ]);
  return { useUnits, costTypes, explanations, combinedExplanations, optionTaxes };
}
