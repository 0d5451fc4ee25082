// The import/export format: every collection in dependency order with its fields and child arrays.
// This is the one place the field list lives: the importer, the exporter and docs/import-format.schema.json
// (json-schema.ts) are all derived from it. Wire names follow the interface (PascalCase); references end in `Id`.
import { CATALOG_KINDS } from '../../master-data/tables.ts';
import { CONTRACT_KINDS } from './contract-kinds.ts';
import { TAIL_COLLECTIONS } from './tail-collections.ts';
import { AGREEMENT_COLLECTIONS, PARTY_COLLECTIONS } from './party-collections.ts';
import { RUNNING_COST_COLLECTIONS } from './running-cost-collections.ts';
import { LOAN_CHILDREN, LOAN_FIELDS } from './loan-collections.ts';
import {
  BUILDING_LAND_FIELDS,
  CATALOG_COLLECTIONS,
  ECONOMIC_UNIT_FIELDS,
  LICENSE_AGREEMENT_FIELDS,
  MASTER_LEDGER_TABLES,
  OWNER_FIELDS,
  USE_UNIT_CHILDREN,
  USE_UNIT_FIELDS,
} from './master-collections.ts';
import { bool, date, dec, id, int, ledgerField, refTo, str, type CollectionSpec } from './fields.ts';

const costObject = (name: string, table: string): CollectionSpec => ({
  name,
  table,
  children: [],
  fields: [id(), refTo('CompanyCodeId', 'company_codes'), str('Code'), str('Name')],
});

export const COLLECTIONS: CollectionSpec[] = [
  { name: 'CompanyCodes', table: 'company_codes', children: [], fields: [id(), str('Code'), str('Name')] },
  {
    name: 'CatalogCodes',
    table: 'catalog_codes',
    children: [],
    fields: [
      id(),
      str('Kind', { required: true, values: CATALOG_KINDS }),
      str('Code'),
      str('Name'),
      str('ShortCode'),
      int('NodeId'),
      str('ArgeCode'),
      bool('IsFixCostsPerDistributionKeyUnit', { nullable: true }),
      bool('IsPercentOfContractPosition', { nullable: true }),
      bool('IsUpperLimit', { nullable: true }),
    ],
  },
  ...CATALOG_COLLECTIONS,
  { name: 'Facilities', table: 'facilities', children: [], fields: [id(), str('Name')] },
  { name: 'ExplanationGroups', table: 'explanation_groups', children: [], fields: [id(), str('Name')] },
  ...PARTY_COLLECTIONS,
  {
    name: 'Owners',
    table: 'owners',
    children: [],
    fields: [id(), str('OwnerNumber'), ledgerField(), ...OWNER_FIELDS()],
  },
  {
    name: 'EconomicUnits',
    table: 'economic_units',
    entity: 'EconomicUnit',
    children: [],
    fields: [id(), ledgerField(), str('Number'), str('Name'), ...ECONOMIC_UNIT_FIELDS()],
  },
  ...(['Buildings', 'Lands'] as const).map((name): CollectionSpec => ({
    name,
    table: name.toLowerCase(),
    entity: name.slice(0, -1),
    children: [],
    ledgerFrom: { field: 'EconomicUnitId', table: 'economic_units' },
    fields: [
      id(),
      refTo('EconomicUnitId', 'economic_units', { required: true }),
      str('Number'),
      str('Name'),
      ...BUILDING_LAND_FIELDS(),
    ],
  })),
  {
    name: 'UseUnits',
    table: 'use_units',
    entity: 'UseUnit',
    children: USE_UNIT_CHILDREN(),
    ledgerFrom: { field: 'EconomicUnitId', table: 'economic_units' },
    fields: [
      id(),
      refTo('EconomicUnitId', 'economic_units', { required: true }),
      refTo('BuildingId', 'buildings', { sameAs: { column: 'economic_unit_id', field: 'EconomicUnitId' } }),
      str('UseUnitNumber', { required: true }),
      str('Name'),
      ...USE_UNIT_FIELDS(),
    ],
  },
  { name: 'Budgets', table: 'budgets', children: [], fields: [id(), ledgerField(), str('Name')] },
  {
    name: 'Loans',
    table: 'loans',
    entity: 'Loan',
    children: LOAN_CHILDREN(),
    fields: [id(), ledgerField(), str('LoanNumber'), str('Name'), ...LOAN_FIELDS()],
  },
  costObject('CostCenters', 'cost_centers'),
  costObject('CostUnits', 'cost_units'),
  costObject('CostTypes', 'cost_types'),
  ...RUNNING_COST_COLLECTIONS,
  {
    name: 'PriceIndices',
    table: 'price_indices',
    children: [],
    fields: [id(), str('Code', { required: true }), str('Note')],
  },
  {
    name: 'PriceIndexValues',
    table: 'price_index_values',
    children: [],
    fields: [
      id(),
      refTo('PriceIndexId', 'price_indices', { required: true }),
      dec('IndexValue', { required: true }),
      date('ReferenceDate', { required: true }),
    ],
  },
  {
    name: 'LicenseAgreements',
    table: 'license_agreements',
    entity: 'LicenseAgreement',
    children: [],
    ledgerFrom: { field: 'UseUnitId', table: 'use_units' },
    fields: [
      id(),
      str('IdNum', { required: true }),
      refTo('UseUnitId', 'use_units', { required: true }),
      date('ValidFrom', { required: true }),
      date('ValidTo'),
      ...LICENSE_AGREEMENT_FIELDS(),
    ],
  },
  ...AGREEMENT_COLLECTIONS,
  {
    name: 'ContractAgreements',
    table: 'contract_agreements',
    children: [],
    kinds: CONTRACT_KINDS,
    ledgerFrom: { field: 'LicenseAgreementId', table: 'license_agreements' },
    fields: [
      id(),
      str('Kind', { required: true, values: Object.keys(CONTRACT_KINDS) }),
      refTo('LicenseAgreementId', 'license_agreements', { required: true }),
      // The interface lists the whole header as dates, none optional ("ValidTo is nullable-style open in no place")
      date('ValidFrom', { required: true }),
      date('ValidTo', { required: true }),
      date('Inputdate', { col: 'input_date', required: true }),
      date('FirstDebit', { required: true }),
    ],
  },
  ...TAIL_COLLECTIONS,
];

/** Tables whose rows carry a ledger (company_code_id); references into them can be checked for the same ledger. */
export const LEDGER_TABLES = new Set([
  'owners',
  'economic_units',
  'buildings',
  'lands',
  'use_units',
  'budgets',
  'loans',
  'cost_centers',
  'cost_units',
  'cost_types',
  'allocation_groups',
  'allocation_group_bases',
  'license_agreements',
  'contract_agreements',
  'use_unit_rent_adjustments',
  'projects',
  ...MASTER_LEDGER_TABLES,
]);

/** Deletions: the last collection, `{ "Collection": "<name>", "Id": <id> }` per record. */
export const DELETIONS = 'Deletions';

/** Optional first key of the document. */
export const FORMAT_KEY = 'Format';
export const FORMAT_VERSION = 'wohnapi-data/1';
