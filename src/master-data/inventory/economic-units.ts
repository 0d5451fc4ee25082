// CommercialInventory/EconomicUnits (v1.2 and v1.0): economic units with owner, catalogue references and ledger.
import { ledgerCondition } from '../../auth/ledger-scope.ts';
import { PERMISSIONS } from '../../auth/permissions.ts';
import { windowed } from '../../rent-accounting/contracts.ts';
import type { Item, MasterRoute, ReadContext } from '../engine.ts';
import type { Query } from '../params.ts';
import { companyCode, Entries, idsOf } from '../present.ts';
import { CompanyCode, IdName, OwnerShort, type ShapeObject } from '../shapes.ts';
import { economicUnitFilters } from './use-units.ts';

const CATALOGUE = [
  'asset_identification_id',
  'status_inventory_id',
  'district_id',
  'monumental_protection_type_id',
  'regional_responsibility_id',
] as const;

async function rows(ctx: ReadContext) {
  const qb = ctx.db
    .selectFrom('economic_units as eu')
    .innerJoin('company_codes as cc', 'cc.id', 'eu.company_code_id')
    .leftJoin('owners as o', 'o.id', 'eu.owner_id')
    .selectAll('eu')
    .select(['cc.name as cc_name', 'cc.code as cc_code', 'o.owner_number'])
    .where((eb) => ledgerCondition(eb.ref('eu.company_code_id'), ctx.scope));
  const list = await windowed(economicUnitFilters(qb, ctx.q), 'eu.id', ctx.window).execute();
  return { list, e: await Entries.load(ctx.db, idsOf(list, CATALOGUE)) };
}
type Row = Awaited<ReturnType<typeof rows>>['list'][number];

const presentV12 = (r: Row, e: Entries, q: Query): Item => ({
  Id: r.id,
  IdNum: r.number,
  Name: r.name,
  Location: r.location,
  ConstructionYear: r.construction_year,
  Info: r.info,
  BindingEndDate: r.binding_end_date,
  Owner: r.owner_id === null ? null : { Id: r.owner_id, OwnerNumber: r.owner_number },
  AssetIdentification: e.idName(r.asset_identification_id),
  StatusInventory: e.idName(r.status_inventory_id),
  District: e.idName(r.district_id),
  MonumentalProtectionType: e.idName(r.monumental_protection_type_id),
  RegionalResponsibility: e.idName(r.regional_responsibility_id),
  CompanyCode: q.includeCompanyCode === true ? companyCode(r.company_code_id, r.cc_name, r.cc_code) : null,
});

const presentV10 = (r: Row, e: Entries): Item => ({
  Id: r.id,
  IdNum: r.number,
  Name: r.name,
  Location: r.location,
  ConstructionYear: r.construction_year,
  CompanyCodeId: r.company_code_id,
  OwnerId: r.owner_id,
  DistrictId: e.get(r.district_id)?.kind_id ?? null,
  StatusInventoryId: e.get(r.status_inventory_id)?.kind_id ?? null,
});

const V12_SHAPE: ShapeObject = {
  ...{ Id: 'int', IdNum: 'string', Name: 'string', Location: 'string', ConstructionYear: 'int', Info: 'string' },
  ...{ BindingEndDate: 'date', Owner: OwnerShort, AssetIdentification: IdName, StatusInventory: IdName },
  ...{ District: IdName, MonumentalProtectionType: IdName, RegionalResponsibility: IdName, CompanyCode },
};
const V10_SHAPE: ShapeObject = {
  ...{ Id: 'int', IdNum: 'string', Name: 'string', Location: 'string', ConstructionYear: 'int' },
  ...{ CompanyCodeId: 'int', OwnerId: 'int', DistrictId: 'int', StatusInventoryId: 'int' },
};
const KEEP = new Set([
  ...['Id', 'IdNum', 'Name', 'ConstructionYear', 'Owner', 'OwnerNumber', 'AssetIdentification', 'StatusInventory'],
  'CompanyCode',
]);
const base = {
  tag: 'CommercialInventory',
  summary: 'Economic units (estates grouping buildings and land)',
  permissions: [PERMISSIONS.objectDataRead],
};

export const economicUnitsV12: MasterRoute = {
  ...base,
  url: '/v1.2/CommercialInventory/EconomicUnits',
  params: [
    ...(['economicUnitId', 'economicUnitIdNum', 'managementId', 'managementIdNum', 'ownerId', 'ownerNumber'] as const),
    'includeCompanyCode',
    'includeAdditionalField',
  ],
  listing: 'paged',
  shape: V12_SHAPE,
  keep: KEEP,
  async read(ctx) {
    const { list, e } = await rows(ctx);
    return list.map((r) => presentV12(r, e, ctx.q));
  },
};

export const economicUnitsV10: MasterRoute = {
  ...base,
  url: '/v1.0/CommercialInventory/EconomicUnits',
  params: ['economicUnitId', 'economicUnitIdNum'],
  listing: 'v1.0',
  shape: V10_SHAPE,
  keep: 'all',
  async read(ctx) {
    const { list, e } = await rows(ctx);
    return list.map((r) => presentV10(r, e));
  },
};
