// CommercialInventory/EconomicUnit/Jurisdiction and UseUnit/Jurisdiction (v1.2, v1.1): which officials and
// departments are responsible for an economic unit or a use unit; one record per unit, scoped by its ledger.
import { ledgerCondition, type LedgerScope } from '../../auth/ledger-scope.ts';
import { PERMISSIONS } from '../../auth/permissions.ts';
import type { Executor } from '../../db/database.ts';
import { windowed } from '../../rent-accounting/contracts.ts';
import type { Item, MasterRoute } from '../engine.ts';
import { Entries, flag } from '../present.ts';
import { EconomicUnitShort, IdName, type ShapeObject } from '../shapes.ts';
import { managedIn } from './organisation.ts';

const OFFICIAL: ShapeObject = {
  ...{ Id: 'int', CodeShort: 'string', AutomaticMailsActivated: 'bool', UniversalResponsibilityPossible: 'bool' },
  ...{ PersonId: 'int', PersonName: 'string', UserId: 'int' },
};
const ENTRY: ShapeObject = {
  ...{ Id: 'int', MainJurisdiction: 'bool', ResponsibleOfficial: OFFICIAL },
  ...{ Department: { Id: 'int', Name: 'string' }, DepartmentType: IdName },
};

/** Officials (with their person's name) and the jurisdiction entries of these units, by unit. */
async function related(
  db: Executor,
  scope: LedgerScope,
  column: 'economic_unit_id' | 'use_unit_id',
  ids: number[],
  universal: number[],
) {
  const entries = ids.length
    ? await db
        .selectFrom('jurisdictions as j')
        // a department of a management of other ledgers only is not shown (the Department list does not show it)
        .leftJoin('departments as d', (join) =>
          join.onRef('d.id', '=', 'j.department_id').on(managedIn(scope, 'd.management_id')),
        )
        .selectAll('j')
        .select(['d.id as visible_department_id', 'd.name as department_name'])
        .where(`j.${column}`, 'in', ids)
        .$if(column === 'economic_unit_id', (qb) => qb.where('j.use_unit_id', 'is', null))
        .orderBy('j.id')
        .execute()
    : [];
  const officialIds = [...new Set([...universal, ...entries.flatMap((e) => e.responsible_official_id ?? [])])];
  const officials = officialIds.length
    ? await db
        .selectFrom('responsible_officials as ro')
        .leftJoin('persons as p', 'p.id', 'ro.person_id')
        .selectAll('ro')
        .select('p.name as person_name')
        .where('ro.id', 'in', officialIds)
        .execute()
    : [];
  const byId = new Map(officials.map((o) => [o.id, o]));
  const official = (id: number | null) => {
    const o = id === null ? undefined : byId.get(id);
    return o
      ? {
          ...{ Id: o.id, CodeShort: o.code_short, AutomaticMailsActivated: flag(o.automatic_mails_activated) ?? false },
          UniversalResponsibilityPossible: flag(o.universal_responsibility_possible) ?? false,
          ...{ PersonId: o.person_id, PersonName: o.person_name, UserId: o.user_id },
        }
      : null;
  };
  const e = await Entries.load(
    db,
    entries.map((x) => x.department_type_id),
  );
  const list = (unit: number): Item[] =>
    entries
      .filter((x) => (column === 'economic_unit_id' ? x.economic_unit_id : x.use_unit_id) === unit)
      .map((x) => ({
        Id: x.id,
        MainJurisdiction: flag(x.main_jurisdiction) ?? false,
        ResponsibleOfficial: official(x.responsible_official_id),
        Department: x.visible_department_id === null ? null : { Id: x.visible_department_id, Name: x.department_name },
        DepartmentType: e.idName(x.department_type_id),
      }));
  return { official, list };
}

const permissions = [PERMISSIONS.objectDataRead, PERMISSIONS.personsRead];
const KEEP = new Set(['EconomicUnitUniversalResponsibleOfficial', 'UseUnitUniversalResponsibleOfficial', 'Department']);

const economicUnit = (url: MasterRoute['url']): MasterRoute => ({
  url,
  tag: 'CommercialInventory',
  summary: 'Jurisdictions of economic units',
  permissions,
  params: ['economicUnitId'],
  listing: 'paged',
  shape: {
    ...{ EconomicUnit: EconomicUnitShort, EconomicUnitUniversalResponsibility: 'bool' },
    ...{ EconomicUnitUniversalResponsibleOfficial: OFFICIAL, EconomicUnitJurisdictionList: [ENTRY] },
  },
  keep: KEEP,
  async read(ctx) {
    let qb = ctx.db
      .selectFrom('economic_units as eu')
      .select(['eu.id', 'eu.number', 'eu.name', 'eu.location', 'eu.universal_official_id'])
      .where((eb) => ledgerCondition(eb.ref('eu.company_code_id'), ctx.scope));
    if (ctx.q.economicUnitId !== undefined) qb = qb.where('eu.id', '=', Number(ctx.q.economicUnitId));
    const units = await windowed(qb, 'eu.id', ctx.window).execute();
    const r = await related(
      ctx.db,
      ctx.scope,
      'economic_unit_id',
      units.map((u) => u.id),
      units.flatMap((u) => u.universal_official_id ?? []),
    );
    return units.map((u) => ({
      EconomicUnit: { Id: u.id, IdNum: u.number, Name: u.name, Location: u.location },
      EconomicUnitUniversalResponsibility: u.universal_official_id !== null,
      EconomicUnitUniversalResponsibleOfficial: r.official(u.universal_official_id),
      EconomicUnitJurisdictionList: r.list(u.id),
    }));
  },
});

const useUnit = (url: MasterRoute['url']): MasterRoute => ({
  url,
  tag: 'CommercialInventory',
  summary: 'Jurisdictions of use units',
  permissions,
  params: ['useUnitId', 'economicUnitId'],
  listing: 'paged',
  shape: {
    UseUnit: {
      Id: 'int',
      UseUnitNumber: 'string',
      BuildingLandId: 'int',
      EconomicUnitId: 'int',
      EconomicUnit: 'string',
    },
    ...{ UseUnitUniversalResponsibility: 'bool', UseUnitUniversalResponsibleOfficial: OFFICIAL },
    ...{ EconomicUnitUniversalResponsibility: 'bool', EconomicUnitUniversalResponsibleOfficial: OFFICIAL },
    UseUnitJurisdictionList: [ENTRY],
  },
  keep: KEEP,
  async read(ctx) {
    let qb = ctx.db
      .selectFrom('use_units as uu')
      .innerJoin('economic_units as eu', 'eu.id', 'uu.economic_unit_id')
      .select(['uu.id', 'uu.use_unit_number', 'uu.building_id', 'uu.economic_unit_id', 'uu.universal_official_id'])
      .select(['eu.number', 'eu.universal_official_id as eu_official_id'])
      .where((eb) => ledgerCondition(eb.ref('uu.company_code_id'), ctx.scope));
    if (ctx.q.useUnitId !== undefined) qb = qb.where('uu.id', '=', Number(ctx.q.useUnitId));
    if (ctx.q.economicUnitId !== undefined) qb = qb.where('uu.economic_unit_id', '=', Number(ctx.q.economicUnitId));
    const units = await windowed(qb, 'uu.id', ctx.window).execute();
    const universal = units.flatMap((u) => [u.universal_official_id, u.eu_official_id].flatMap((x) => x ?? []));
    const r = await related(
      ctx.db,
      ctx.scope,
      'use_unit_id',
      units.map((u) => u.id),
      universal,
    );
    return units.map((u) => ({
      UseUnit: {
        ...{ Id: u.id, UseUnitNumber: u.use_unit_number, BuildingLandId: u.building_id },
        ...{ EconomicUnitId: u.economic_unit_id, EconomicUnit: u.number },
      },
      UseUnitUniversalResponsibility: u.universal_official_id !== null,
      UseUnitUniversalResponsibleOfficial: r.official(u.universal_official_id),
      EconomicUnitUniversalResponsibility: u.eu_official_id !== null,
      EconomicUnitUniversalResponsibleOfficial: r.official(u.eu_official_id),
      UseUnitJurisdictionList: r.list(u.id),
    }));
  },
});

export const JURISDICTION_ROUTES: MasterRoute[] = [
  economicUnit('/v1.2/CommercialInventory/EconomicUnit/Jurisdiction'),
  economicUnit('/v1.1/CommercialInventory/EconomicUnit/Jurisdiction'),
  useUnit('/v1.2/CommercialInventory/UseUnit/Jurisdiction'),
  useUnit('/v1.1/CommercialInventory/UseUnit/Jurisdiction'),
];
