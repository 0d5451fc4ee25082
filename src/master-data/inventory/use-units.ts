// CommercialInventory/UseUnits (v1.2 and v1.0): use units with their building, economic unit, address, areas, type
// history and billing units, ledger-scoped by the use unit's ledger.
import { sql, type Expression, type SqlBool } from 'kysely';
import { ledgerCondition } from '../../auth/ledger-scope.ts';
import { PERMISSIONS } from '../../auth/permissions.ts';
import { groupBy } from '../../db/group.ts';
import { dec } from '../../http/present.ts';
import { windowed } from '../../rent-accounting/contracts.ts';
import type { Item, MasterRoute, ReadContext } from '../engine.ts';
import type { ParamName, Query } from '../params.ts';
import { companyCode, Entries, estateAddress, flag, idsOf } from '../present.ts';
import { CompanyCode, EconomicUnitShort, EstateAddress, IdName, type ShapeObject } from '../shapes.ts';
import { BuildingLandShort } from '../shapes.ts';

/** Filters on the economic unit (`eu`) shared by use units, economic units and buildings/land. */
export function economicUnitFilters<Q extends { where: (...args: never[]) => Q }>(qb: Q, q: Query): Q {
  let out = qb as unknown as { where(e: unknown, op?: unknown, v?: unknown): typeof out };
  if (q.economicUnitId !== undefined) out = out.where(sql`eu.id = ${Number(q.economicUnitId)}`);
  if (q.economicUnitIdNum !== undefined) out = out.where(sql`eu.number = ${String(q.economicUnitIdNum)}`);
  if (q.managementId !== undefined) out = out.where(sql`eu.management_id = ${Number(q.managementId)}`);
  if (q.managementIdNum !== undefined)
    out = out.where(sql`eu.management_id in (select id from managements where id_num = ${String(q.managementIdNum)})`);
  if (q.ownerId !== undefined) out = out.where(sql`eu.owner_id = ${Number(q.ownerId)}`);
  if (q.ownerNumber !== undefined)
    out = out.where(sql`eu.owner_id in (select id from owners where owner_number = ${String(q.ownerNumber)})`);
  return out as unknown as Q;
}

/** The conditions on the use-unit table alone (alias uu). */
function ownConditions(ctx: ReadContext): Expression<SqlBool>[] {
  const { q, scope } = ctx;
  const out = [ledgerCondition(sql.ref<number>('uu.company_code_id'), scope)];
  if (q.useUnitId !== undefined) out.push(sql<SqlBool>`uu.id = ${Number(q.useUnitId)}`);
  if (q.useUnitNumber !== undefined) out.push(sql<SqlBool>`uu.use_unit_number = ${String(q.useUnitNumber)}`);
  const building = q.buildingLandId ?? q.buildingId;
  if (building !== undefined) out.push(sql<SqlBool>`uu.building_id = ${Number(building)}`);
  return out;
}

/** Filters that need the joined tables (building, economic unit). */
const byJoinedTables = (q: Query) =>
  q.buildingLandIdNum !== undefined ||
  ['economicUnitId', 'economicUnitIdNum', 'managementId', 'managementIdNum', 'ownerId', 'ownerNumber'].some(
    (k) => q[k as keyof Query] !== undefined,
  );

async function useUnitRows(ctx: ReadContext) {
  const { q, window } = ctx;
  const qb = ctx.db
    .selectFrom('use_units as uu')
    .innerJoin('economic_units as eu', 'eu.id', 'uu.economic_unit_id')
    .innerJoin('company_codes as cc', 'cc.id', 'uu.company_code_id')
    .leftJoin('buildings as b', 'b.id', 'uu.building_id')
    .selectAll('uu')
    .select(['eu.number as eu_number', 'eu.name as eu_name', 'eu.location as eu_location'])
    .select(['cc.name as cc_name', 'cc.code as cc_code', 'b.number as building_number']);
  let rows;
  if (!byJoinedTables(q)) {
    // Deferred join: the window's ids from the use-unit table alone, so a deep offset does not pay for the joins of
    // the rows it skips (the joins never drop a row: both inner joins follow required foreign keys).
    const own = ctx.db.selectFrom('use_units as uu').select('uu.id');
    const ids = windowed(
      own.where((eb) => eb.and(ownConditions(ctx))),
      'uu.id',
      window,
    );
    rows = await qb.where('uu.id', 'in', ids).orderBy('uu.id').execute();
  } else {
    let filtered = qb.where((eb) => eb.and(ownConditions(ctx)));
    if (q.buildingLandIdNum !== undefined) filtered = filtered.where('b.number', '=', String(q.buildingLandIdNum));
    rows = await windowed(economicUnitFilters(filtered, q), 'uu.id', window).execute();
  }
  const ids = rows.map((r) => r.id);
  const [types, billing] = ids.length
    ? await Promise.all([
        ctx.db
          .selectFrom('use_unit_types')
          .selectAll()
          .where('use_unit_id', 'in', ids)
          .orderBy('use_unit_id')
          .orderBy('valid_from')
          .orderBy('id')
          .execute(),
        q.includeBillingUnits === true
          ? ctx.db
              .selectFrom('use_unit_billing_units')
              .selectAll()
              .where('use_unit_id', 'in', ids)
              .orderBy('use_unit_id')
              .orderBy('id')
              .execute()
          : [],
      ])
    : [[], []];
  const e = await Entries.load(ctx.db, [
    ...idsOf(rows, [
      'country_id',
      'entry_reason_id',
      'exit_reason_id',
      'position_id',
      'floor_id',
      'residential_authorization_id',
      'financing_type_id',
    ]),
    ...idsOf(types, ['use_unit_usage_type_id']),
    ...idsOf(billing, ['quantity_type_id']),
  ]);
  return { rows, types: groupBy(types, 'use_unit_id'), billing: groupBy(billing, 'use_unit_id'), e };
}

type Read = Awaited<ReturnType<typeof useUnitRows>>;
type Row = Read['rows'][number];
type TypeRow = NonNullable<ReturnType<Read['types']['get']>>[number];

function useUnitType(t: TypeRow, e: Entries) {
  const usage = e.get(t.use_unit_usage_type_id);
  return {
    Id: t.id,
    ValidFrom: t.valid_from,
    ValidTo: t.valid_to,
    UseUnitUsageType: usage
      ? {
          Id: usage.kind_id,
          Name: usage.name,
          ClassificationId: usage.classification_id,
          ClassificationName: usage.classification,
        }
      : null,
  };
}

function presentV12(r: Row, x: Read, q: Query): Item {
  const { e } = x;
  const types = x.types.get(r.id) ?? [];
  const current = types[types.length - 1];
  const financing = e.get(r.financing_type_id);
  const floor = e.get(r.floor_id);
  return {
    Id: r.id,
    IdNum: r.use_unit_number,
    BuildingLand:
      r.building_id === null ? null : { Id: r.building_id, IdNum: r.building_number, BuildingLandType: 'Building' },
    EconomicUnit: { Id: r.economic_unit_id, IdNum: r.eu_number, Name: r.eu_name, Location: r.eu_location },
    EstateAddress: estateAddress(r, e),
    CompanyCode: companyCode(r.company_code_id, r.cc_name, r.cc_code),
    CurrentFinancingType: financing
      ? {
          FinancingTypeCatalog: {
            Id: financing.kind_id,
            Name: financing.name,
            ClassificationId: financing.classification_id,
            ClassificationName: financing.classification,
          },
        }
      : null,
    CurrentUseUnitType: current ? useUnitType(current, e) : null,
    UsableSpace: dec(r.usable_space),
    LivingSpace: dec(r.living_space),
    HeatingSpace: dec(r.heating_space),
    NumberOfRooms: r.number_of_rooms,
    NumberOfHalfRooms: r.number_of_half_rooms,
    DescriptionOfPosition: r.name,
    TargetRent: dec(r.target_rent),
    ManagementStart: r.management_start,
    ManagementEnd: r.management_end,
    BindingEndDate: r.binding_end_date,
    MoveInDate: r.move_in_date,
    EntryDate: r.entry_date,
    ExitDate: r.exit_date,
    EntryReason: e.idName(r.entry_reason_id),
    ExitReason: e.idName(r.exit_reason_id),
    EnergyCertificateId: r.energy_certificate_id,
    Position: e.idName(r.position_id),
    Floor: floor ? { Id: floor.kind_id, Name: floor.name, LevelToGround: floor.level_to_ground } : null,
    ResidentialAuthorization: e.idName(r.residential_authorization_id),
    UseUnitTypes: q.includeUseUnitTypes === true ? types.map((t) => useUnitType(t, e)) : null,
    BillingUnits:
      q.includeBillingUnits === true
        ? (x.billing.get(r.id) ?? []).map((b) => {
            const qt = e.get(b.quantity_type_id);
            return {
              Id: b.id,
              Value: dec(b.value),
              ValidFrom: b.valid_from,
              ValidTo: b.valid_to,
              IsBaseComponentColdWater: flag(b.is_base_component_cold_water) ?? false,
              IsBaseComponentHeating: flag(b.is_base_component_heating) ?? false,
              IsBaseComponentWarmWater: flag(b.is_base_component_warm_water) ?? false,
              QuantityType: qt ? { Id: qt.kind_id, Name: qt.name, Code: qt.code, ArgeCode: qt.short_code } : null,
            };
          })
        : null,
  };
}

function presentV10(r: Row, x: Read, q: Query): Item {
  return {
    Id: r.id,
    IdNum: r.use_unit_number,
    EconomicUnitId: r.economic_unit_id,
    BuildingLandId: r.building_id,
    EstateAddress: estateAddress(r, x.e),
    DescriptionOfPosition: r.name,
    UsableSpace: dec(r.usable_space),
    LivingSpace: dec(r.living_space),
    UseUnitTypes: q.includeUseUnitTypes === true ? (x.types.get(r.id) ?? []).map((t) => useUnitType(t, x.e)) : null,
  };
}

const USAGE = { Id: 'int', Name: 'string', ClassificationId: 'int', ClassificationName: 'string' } as const;
const USE_UNIT_TYPE: ShapeObject = { Id: 'int', ValidFrom: 'date', ValidTo: 'date', UseUnitUsageType: USAGE };
const V12_SHAPE: ShapeObject = {
  Id: 'int',
  IdNum: 'string',
  BuildingLand: BuildingLandShort,
  EconomicUnit: EconomicUnitShort,
  EstateAddress,
  CompanyCode,
  CurrentFinancingType: { FinancingTypeCatalog: USAGE },
  CurrentUseUnitType: USE_UNIT_TYPE,
  ...{
    UsableSpace: 'number',
    LivingSpace: 'number',
    HeatingSpace: 'number',
    NumberOfRooms: 'int',
    NumberOfHalfRooms: 'int',
  },
  ...{ DescriptionOfPosition: 'string', TargetRent: 'number', ManagementStart: 'date', ManagementEnd: 'date' },
  ...{ BindingEndDate: 'date', MoveInDate: 'date', EntryDate: 'date', ExitDate: 'date' },
  ...{ EntryReason: IdName, ExitReason: IdName, EnergyCertificateId: 'int', Position: IdName },
  Floor: { Id: 'int', Name: 'string', LevelToGround: 'int' },
  ResidentialAuthorization: IdName,
  UseUnitTypes: [USE_UNIT_TYPE],
  BillingUnits: [
    {
      ...{ Id: 'int', Value: 'number', ValidFrom: 'date', ValidTo: 'date' },
      ...{ IsBaseComponentColdWater: 'bool', IsBaseComponentHeating: 'bool', IsBaseComponentWarmWater: 'bool' },
      QuantityType: { Id: 'int', Name: 'string', Code: 'string', ArgeCode: 'string' },
    },
  ],
};
const V10_SHAPE: ShapeObject = {
  ...{ Id: 'int', IdNum: 'string', EconomicUnitId: 'int', BuildingLandId: 'int', EstateAddress },
  ...{ DescriptionOfPosition: 'string', UsableSpace: 'number', LivingSpace: 'number', UseUnitTypes: [USE_UNIT_TYPE] },
};

export const ESTATE_KEEP = [
  'EstateAddress',
  'Zip',
  'Town',
  'Street',
  'HouseNumber',
  'CountryId',
  'CountryCode',
  'StreetComplete',
  'HouseNumberComplete',
];
const KEEP = new Set([
  ...['Id', 'IdNum', 'BuildingLand', 'BuildingLandType', 'EconomicUnit', 'Name', ...ESTATE_KEEP],
  ...['CurrentFinancingType', 'CurrentUseUnitType', 'UsableSpace', 'LivingSpace', 'HeatingSpace', 'ManagementStart'],
  ...['EntryDate', 'EntryReason', 'UseUnitTypes', 'ValidFrom', 'UseUnitUsageType', 'ClassificationId'],
]);

const V12_PARAMS: ParamName[] = [
  ...([
    'useUnitId',
    'useUnitNumber',
    'buildingLandId',
    'buildingLandIdNum',
    'economicUnitId',
    'economicUnitIdNum',
  ] as const),
  ...([
    'managementId',
    'managementIdNum',
    'ownerId',
    'ownerNumber',
    'includeUseUnitTypes',
    'includeBillingUnits',
    'includeMarketingTags',
  ] as const),
];
const base = {
  tag: 'CommercialInventory',
  summary: 'Use units (flats, shops, garages, parking spaces)',
  permissions: [PERMISSIONS.objectDataRead],
};

export const useUnitsV12: MasterRoute = {
  ...base,
  url: '/v1.2/CommercialInventory/UseUnits',
  params: V12_PARAMS,
  listing: 'paged',
  shape: V12_SHAPE,
  keep: KEEP,
  async read(ctx) {
    const x = await useUnitRows(ctx);
    return x.rows.map((r) => presentV12(r, x, ctx.q));
  },
};

export const useUnitsV10: MasterRoute = {
  ...base,
  url: '/v1.0/CommercialInventory/UseUnits',
  params: ['useUnitId', 'economicUnitId', 'buildingId', 'includeUseUnitTypes'],
  listing: 'v1.0',
  shape: V10_SHAPE,
  keep: 'all',
  async read(ctx) {
    const x = await useUnitRows(ctx);
    return x.rows.map((r) => presentV10(r, x, ctx.q));
  },
};
