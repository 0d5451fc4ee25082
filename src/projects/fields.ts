// The one mapping between a project's wire properties and its columns (the column is the property in snake_case),
// and the metadata of the six assignment kinds.
import type { ProjectsTable } from './tables.ts';
import { ARRAY_FIELDS, SCALAR_FIELDS, type ArrayField, type ScalarField } from './schemas.ts';
import { snake } from '../db/names.ts';

export type ProjectColumn = Exclude<keyof ProjectsTable, 'id' | 'created_at' | 'updated_at'>;

/** Wire property -> column, e.g. ApplicationForBuildingLicenseFileReference -> application_for_building_license_file_reference. */
export const COLUMN = Object.fromEntries(SCALAR_FIELDS.map((f) => [f, snake(f)])) as Record<ScalarField, ProjectColumn>;

/** Cost objects: 0 in a body means none and is stored as null. */
export const COST_FIELDS = ['CostCenterId', 'CostUnitId', 'CostTypeId'] as const satisfies readonly ScalarField[];
export const COST_TABLES = {
  CostCenterId: 'cost_centers',
  CostUnitId: 'cost_units',
  CostTypeId: 'cost_types',
} as const;
export const COST_LABELS = { CostCenterId: 'cost centre', CostUnitId: 'cost unit', CostTypeId: 'cost type' } as const;

/** The stored value of a (schema-valid) body value. */
export function toColumnValue(field: ScalarField, value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if ((COST_FIELDS as readonly string[]).includes(field) && value === 0) return null;
  return value as string | number;
}

export interface AssignmentKind {
  /** Array name on the wire (body property, error key, endpoint suffix). */
  name: ArrayField;
  /** Assignment table and its entity column. */
  table:
    | 'project_economic_units'
    | 'project_buildings'
    | 'project_lands'
    | 'project_use_units'
    | 'project_budgets'
    | 'project_loans';
  column: 'economic_unit_id' | 'building_id' | 'land_id' | 'use_unit_id' | 'budget_id' | 'loan_id';
  /** Entity table (every one has id and company_code_id). */
  entities: 'economic_units' | 'buildings' | 'lands' | 'use_units' | 'budgets' | 'loans';
  /** Words for messages. */
  label: string;
  /** What must be assigned before this kind: the entity columns naming the prerequisite. */
  needs: Array<{ kind: ArrayField; via: 'economic_unit_id' | 'building_id' }>;
}

export const KINDS: Record<ArrayField, AssignmentKind> = {
  EconomicUnit: {
    name: 'EconomicUnit',
    table: 'project_economic_units',
    column: 'economic_unit_id',
    entities: 'economic_units',
    label: 'economic unit',
    needs: [],
  },
  Building: {
    name: 'Building',
    table: 'project_buildings',
    column: 'building_id',
    entities: 'buildings',
    label: 'building',
    needs: [{ kind: 'EconomicUnit', via: 'economic_unit_id' }],
  },
  Land: {
    name: 'Land',
    table: 'project_lands',
    column: 'land_id',
    entities: 'lands',
    label: 'land parcel',
    needs: [{ kind: 'EconomicUnit', via: 'economic_unit_id' }],
  },
  UseUnit: {
    name: 'UseUnit',
    table: 'project_use_units',
    column: 'use_unit_id',
    entities: 'use_units',
    label: 'use unit',
    needs: [
      { kind: 'EconomicUnit', via: 'economic_unit_id' },
      { kind: 'Building', via: 'building_id' },
    ],
  },
  Budget: {
    name: 'Budget',
    table: 'project_budgets',
    column: 'budget_id',
    entities: 'budgets',
    label: 'budget',
    needs: [],
  },
  Loan: { name: 'Loan', table: 'project_loans', column: 'loan_id', entities: 'loans', label: 'loan', needs: [] },
};

/** Kinds in the order a create body applies them (prerequisites first). */
export const KIND_ORDER: AssignmentKind[] = ARRAY_FIELDS.map((name) => KINDS[name]);

/** The kinds that depend on `kind` (what blocks its removal), with the column pointing at it. */
export function dependentsOf(
  kind: ArrayField,
): Array<{ kind: AssignmentKind; via: 'economic_unit_id' | 'building_id' }> {
  return KIND_ORDER.flatMap((k) => k.needs.filter((n) => n.kind === kind).map((n) => ({ kind: k, via: n.via })));
}
