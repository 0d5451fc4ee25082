// CommercialInventory/BuildingLands (v1.2 and v1.0): buildings and land parcels in one list (one id space), told
// apart by BuildingLandType 'Building' / 'Land'. Every record carries a Building object (decisions §7).
import { sql } from 'kysely';
import { ledgerCondition } from '../../auth/ledger-scope.ts';
import { PERMISSIONS } from '../../auth/permissions.ts';
import { dec } from '../../http/present.ts';
import { windowed } from '../../rent-accounting/contracts.ts';
import type { Executor } from '../../db/database.ts';
import type { Item, MasterRoute, ReadContext } from '../engine.ts';
import type { Query } from '../params.ts';
import { companyCode, Entries, estateAddress, idsOf } from '../present.ts';
import { CompanyCode, EconomicUnitShort, EstateAddress, IdName, type ShapeObject } from '../shapes.ts';
import { ESTATE_KEEP, economicUnitFilters } from './use-units.ts';

const COLUMNS = [
  ...['id', 'economic_unit_id', 'company_code_id', 'number', 'name', 'zip', 'town', 'street', 'house_number'],
  ...['house_number_addition', 'country_id', 'entry_date', 'exit_date', 'entry_reason_id', 'exit_reason_id'],
  ...['construction_year', 'move_in_date', 'storeys', 'construction_method_id', 'building_type_id', 'district_id'],
  ...['monumental_protection_type_id', 'origin_id', 'change_reason_id', 'land_area'],
] as const;
const CATALOGUE = [
  ...['country_id', 'entry_reason_id', 'exit_reason_id', 'construction_method_id', 'building_type_id'],
  ...['district_id', 'monumental_protection_type_id', 'origin_id', 'change_reason_id'],
] as const;

/** Buildings and land as one relation `bl` with a building_land_type column. */
const both = (db: Executor) =>
  db
    .selectFrom('buildings')
    .select([...COLUMNS, sql<string>`'Building'`.as('building_land_type')])
    .unionAll(db.selectFrom('lands').select([...COLUMNS, sql<string>`'Land'`.as('building_land_type')]));

async function rows(ctx: ReadContext) {
  const { q } = ctx;
  let qb = ctx.db
    .selectFrom(both(ctx.db).as('bl'))
    .innerJoin('economic_units as eu', 'eu.id', 'bl.economic_unit_id')
    .innerJoin('company_codes as cc', 'cc.id', 'bl.company_code_id')
    .selectAll('bl')
    .select(['eu.number as eu_number', 'eu.name as eu_name', 'eu.location as eu_location'])
    .select(['cc.name as cc_name', 'cc.code as cc_code'])
    .where((eb) => ledgerCondition(eb.ref('bl.company_code_id'), ctx.scope));
  if (q.buildingLandId !== undefined) qb = qb.where('bl.id', '=', Number(q.buildingLandId));
  if (q.buildingLandIdNum !== undefined) qb = qb.where('bl.number', '=', String(q.buildingLandIdNum));
  if (q.buildingLandType !== undefined) qb = qb.where('bl.building_land_type', '=', String(q.buildingLandType));
  const list = await windowed(economicUnitFilters(qb, q), 'bl.id', ctx.window).execute();
  return { list, e: await Entries.load(ctx.db, idsOf(list, CATALOGUE)) };
}
type Row = Awaited<ReturnType<typeof rows>>['list'][number];

const presentV12 = (r: Row, e: Entries, q: Query): Item => ({
  Id: r.id,
  IdNum: r.number,
  BuildingLandType: r.building_land_type,
  EntryDate: r.entry_date,
  ExitDate: r.exit_date,
  ExitReason: e.idName(r.exit_reason_id),
  EconomicUnit: { Id: r.economic_unit_id, IdNum: r.eu_number, Name: r.eu_name, Location: r.eu_location },
  EstateAddress: estateAddress(r, e),
  Building: {
    Origin: e.idName(r.origin_id),
    BuildingType: e.idName(r.building_type_id),
    MoveInDate: r.move_in_date,
    ConstructionYear: r.construction_year,
    ConstructionMethod: e.idName(r.construction_method_id),
    District: e.idName(r.district_id),
    MonumentalProtectionType: e.idName(r.monumental_protection_type_id),
    ChangeReason: e.idName(r.change_reason_id),
    BuildingNumberOfStoreys: r.storeys,
  },
  Land:
    r.building_land_type === 'Land' ? { LandArea: dec(r.land_area), EntryReason: e.idName(r.entry_reason_id) } : null,
  CompanyCode: q.includeCompanyCode === true ? companyCode(r.company_code_id, r.cc_name, r.cc_code) : null,
});

function presentV10(r: Row, e: Entries): Item {
  const a = estateAddress(r, e);
  const flat = (prefix: string, id: number | null) => ({
    [`${prefix}Id`]: e.get(id)?.kind_id ?? null,
    [prefix]: e.get(id)?.name ?? null,
  });
  return {
    ...{ Id: r.id, IdNum: r.number, BuildingLandType: r.building_land_type, EconomicUnitId: r.economic_unit_id },
    ConstructionYear: r.construction_year,
    BuildingTypeId: e.get(r.building_type_id)?.kind_id ?? null,
    ...{ Street: a.Street, StreetComplete: a.StreetComplete, HouseNumberComplete: a.HouseNumberComplete },
    ...{ HouseNumber: a.HouseNumber, HouseNumberAddition: a.HouseNumberAddition, Zip: a.Zip, Town: a.Town },
    ...{ DistrictId: e.get(r.district_id)?.kind_id ?? null, CountryId: a.CountryId, CountryCode: a.CountryCode },
    ...flat('MonumentalProtectionType', r.monumental_protection_type_id),
    ...{ EntryDate: r.entry_date, ExitDate: r.exit_date, MoveInDate: r.move_in_date },
    ...flat('ExitReason', r.exit_reason_id),
    ...flat('ChangeReason', r.change_reason_id),
    ...flat('Origin', r.origin_id),
    ...flat('EntryReason', r.entry_reason_id),
    ...flat('BuildingConstructionMethod', r.construction_method_id),
    BuildingNumberOfStoreys: r.storeys,
  };
}

const V12_SHAPE: ShapeObject = {
  ...{ Id: 'int', IdNum: 'string', BuildingLandType: 'string', EntryDate: 'date', ExitDate: 'date' },
  ...{ ExitReason: IdName, EconomicUnit: EconomicUnitShort, EstateAddress },
  Building: {
    ...{ Origin: IdName, BuildingType: IdName, MoveInDate: 'date', ConstructionYear: 'int' },
    ...{ ConstructionMethod: IdName, District: IdName, MonumentalProtectionType: IdName, ChangeReason: IdName },
    BuildingNumberOfStoreys: 'int',
  },
  Land: { LandArea: 'number', EntryReason: IdName },
  CompanyCode,
};
const idAndName = (prefix: string): ShapeObject => ({ [`${prefix}Id`]: 'int', [prefix]: 'string' });
const V10_SHAPE: ShapeObject = {
  ...{ Id: 'int', IdNum: 'string', BuildingLandType: 'string', EconomicUnitId: 'int', ConstructionYear: 'int' },
  ...{ BuildingTypeId: 'int', Street: 'string', StreetComplete: 'string', HouseNumberComplete: 'string' },
  ...{ HouseNumber: 'string', HouseNumberAddition: 'string', Zip: 'string', Town: 'string', DistrictId: 'int' },
  ...{ CountryId: 'int', CountryCode: 'string', ...idAndName('MonumentalProtectionType') },
  ...{ EntryDate: 'date', ExitDate: 'date', MoveInDate: 'date', ...idAndName('ExitReason') },
  ...{ ...idAndName('ChangeReason'), ...idAndName('Origin'), ...idAndName('EntryReason') },
  ...{ ...idAndName('BuildingConstructionMethod'), BuildingNumberOfStoreys: 'int' },
};
const KEEP = new Set([
  ...['Id', 'IdNum', 'BuildingLandType', 'EntryDate', 'EconomicUnit', 'Name', ...ESTATE_KEEP],
  ...['Building', 'Origin', 'BuildingType'],
]);
const base = {
  tag: 'CommercialInventory',
  summary: 'Buildings and land parcels (one id space)',
  permissions: [PERMISSIONS.objectDataRead],
};

export const buildingLandsV12: MasterRoute = {
  ...base,
  url: '/v1.2/CommercialInventory/BuildingLands',
  params: [
    ...(['buildingLandId', 'buildingLandIdNum', 'buildingLandType', 'economicUnitId', 'economicUnitIdNum'] as const),
    ...(['managementId', 'managementIdNum', 'ownerId', 'ownerNumber', 'includeCompanyCode'] as const),
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

export const buildingLandsV10: MasterRoute = {
  ...base,
  url: '/v1.0/CommercialInventory/BuildingLands',
  params: ['buildingLandId', 'economicUnitId'],
  listing: 'v1.0',
  shape: V10_SHAPE,
  keep: 'all',
  async read(ctx) {
    const { list, e } = await rows(ctx);
    return list.map((r) => presentV10(r, e));
  },
};
