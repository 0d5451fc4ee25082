// RentAccounting/LicenseAgreements (v1.2 and v1.0): the license agreements with their use unit, ledger-scoped by the
// agreement's ledger. One query for the page, one for its catalogue entries; one presenter per version.
import { sql, type Expression, type SqlBool } from 'kysely';
import { ledgerCondition } from '../../auth/ledger-scope.ts';
import { PERMISSIONS } from '../../auth/permissions.ts';
import { windowed } from '../../rent-accounting/contracts.ts';
import type { Item, MasterRoute, ReadContext } from '../engine.ts';
import type { ParamName } from '../params.ts';
import { activeOn, Entries, flag, idsOf } from '../present.ts';
import { IdCode, IdName, UseUnitShort, type ShapeObject } from '../shapes.ts';

const CATALOGUE_COLUMNS = [
  'restriction_of_use_id',
  'status_contract_id',
  'life_of_contract_id',
  'payment_interval_id',
  'period_of_notice_id',
  'debit_entry_type_id',
] as const;

/** The conditions on the agreement table alone (alias la). */
function ownConditions(ctx: ReadContext): Expression<SqlBool>[] {
  const { q, scope } = ctx;
  const out = [ledgerCondition(sql.ref<number>('la.company_code_id'), scope)];
  if (q.licenseAgreementId !== undefined) out.push(sql<SqlBool>`la.id = ${Number(q.licenseAgreementId)}`);
  if (q.licenseAgreementIdNum !== undefined) out.push(sql<SqlBool>`la.id_num = ${String(q.licenseAgreementIdNum)}`);
  if (q.useUnitId !== undefined) out.push(sql<SqlBool>`la.use_unit_id = ${Number(q.useUnitId)}`);
  if (q.licenseAgreementActiveOn !== undefined)
    out.push(activeOn(sql.ref('la.valid_from'), sql.ref('la.valid_to'), String(q.licenseAgreementActiveOn)));
  if (q.personId !== undefined)
    out.push(
      sql<SqlBool>`exists (select 1 from contractors c where c.license_agreement_id = la.id and c.person_id = ${Number(q.personId)})`,
    );
  if (q.personIdNum !== undefined)
    out.push(
      sql<SqlBool>`exists (select 1 from contractors c join persons p on p.id = c.person_id where c.license_agreement_id = la.id and p.id_num = ${String(q.personIdNum)})`,
    );
  return out;
}

/** The agreements of a window, filtered as the parameters say (all AND). */
export function agreementRows(ctx: ReadContext) {
  const { q, window } = ctx;
  const qb = ctx.db
    .selectFrom('license_agreements as la')
    .innerJoin('use_units as uu', 'uu.id', 'la.use_unit_id')
    .innerJoin('economic_units as eu', 'eu.id', 'uu.economic_unit_id')
    .leftJoin('catalog_codes as dl', 'dl.id', 'la.dunning_level_id')
    .selectAll('la')
    .select([
      'uu.use_unit_number',
      'uu.building_id',
      'uu.economic_unit_id',
      'eu.number as economic_unit_number',
      'dl.code as dunning_level_code',
    ]);
  const byJoinedTables =
    q.useUnitNumber !== undefined || q.economicUnitId !== undefined || q.economicUnitIdNum !== undefined;
  if (!byJoinedTables) {
    // Deferred join: the window's ids from the agreement table alone, so a deep offset does not pay for the joins of
    // the rows it skips (the joins never drop a row: both inner joins follow required foreign keys).
    const ids = windowed(
      ctx.db
        .selectFrom('license_agreements as la')
        .select('la.id')
        .where((eb) => eb.and(ownConditions(ctx))),
      'la.id',
      window,
    );
    return qb.where('la.id', 'in', ids).orderBy('la.id').execute();
  }
  let filtered = qb.where((eb) => eb.and(ownConditions(ctx)));
  if (q.useUnitNumber !== undefined) filtered = filtered.where('uu.use_unit_number', '=', String(q.useUnitNumber));
  if (q.economicUnitId !== undefined) filtered = filtered.where('uu.economic_unit_id', '=', Number(q.economicUnitId));
  if (q.economicUnitIdNum !== undefined) filtered = filtered.where('eu.number', '=', String(q.economicUnitIdNum));
  return windowed(filtered, 'la.id', window).execute();
}

type Row = Awaited<ReturnType<typeof agreementRows>>[number];

export const useUnitShort = (r: Row) => ({
  Id: r.use_unit_id,
  UseUnitNumber: r.use_unit_number,
  BuildingLandId: r.building_id,
  EconomicUnitId: r.economic_unit_id,
  EconomicUnit: r.economic_unit_number,
});

function restrictionOfUse(e: Entries, id: number | null) {
  const r = e.get(id);
  return r ? { Id: r.kind_id, NodeId: r.node_id, Name: r.name, IsVacancy: flag(r.is_vacancy) } : null;
}

function presentV12(r: Row, e: Entries, banking: boolean): Item {
  return {
    Id: r.id,
    IdNum: r.id_num,
    UseUnit: useUnitShort(r),
    RestrictionOfUse: restrictionOfUse(e, r.restriction_of_use_id),
    StatusContract: e.idName(r.status_contract_id),
    LifeOfContract: e.idName(r.life_of_contract_id),
    PaymentInterval: e.idName(r.payment_interval_id),
    DunningData: {
      Dunningblock: flag(r.dunning_block) ?? false,
      DunningLevel: r.dunning_level_id === null ? null : { Id: r.dunning_level_id, Code: r.dunning_level_code },
    },
    DifferingMaturity: r.differing_maturity,
    StartContract: r.valid_from,
    EndOfContract: r.valid_to,
    PeriodOfNotice: e.idName(r.period_of_notice_id),
    DebitEntryType: e.idName(r.debit_entry_type_id),
    Banking: banking
      ? {
          Id: r.id,
          UseVirtualIban: flag(r.use_virtual_iban) ?? false,
          VirtualIban: r.virtual_iban,
          FormerVirtualIban: r.former_virtual_iban,
          CollectiveAccount:
            r.collective_iban === null
              ? null
              : {
                  NoRealBankAccount: flag(r.collective_no_real_bank_account) ?? false,
                  Iban: r.collective_iban,
                  Bic: r.collective_bic,
                  AccountHolder: r.collective_account_holder,
                },
        }
      : null,
  };
}

function presentV10(r: Row, e: Entries): Item {
  return {
    Id: r.id,
    IdNum: r.id_num,
    UseUnit: useUnitShort(r),
    RestrictionOfUse: restrictionOfUse(e, r.restriction_of_use_id),
    StatusContract: e.idName(r.status_contract_id),
    LifeOfContract: e.idName(r.life_of_contract_id),
    PaymentInterval: e.idName(r.payment_interval_id),
    StartContract: r.valid_from,
    EndOfContract: r.valid_to,
  };
}

const FILTERS: ParamName[] = [
  'licenseAgreementId',
  'licenseAgreementIdNum',
  'licenseAgreementActiveOn',
  'useUnitId',
  'useUnitNumber',
  'economicUnitId',
  'economicUnitIdNum',
  'personId',
  'personIdNum',
];

const V10_SHAPE: ShapeObject = {
  Id: 'int',
  IdNum: 'string',
  UseUnit: UseUnitShort,
  RestrictionOfUse: { Id: 'int', NodeId: 'int', Name: 'string', IsVacancy: 'bool' },
  StatusContract: IdName,
  LifeOfContract: IdName,
  PaymentInterval: IdName,
  StartContract: 'date',
  EndOfContract: 'date',
};
const V12_SHAPE: ShapeObject = {
  ...V10_SHAPE,
  DunningData: { Dunningblock: 'bool', DunningLevel: IdCode },
  DifferingMaturity: 'int',
  PeriodOfNotice: IdName,
  DebitEntryType: IdName,
  Banking: {
    Id: 'int',
    UseVirtualIban: 'bool',
    VirtualIban: 'string',
    FormerVirtualIban: 'string',
    CollectiveAccount: { NoRealBankAccount: 'bool', Iban: 'string', Bic: 'string', AccountHolder: 'string' },
  },
};

/** Keys clients need present (as null when empty), decisions §7. */
const KEEP = new Set([
  ...['Id', 'IdNum', 'UseUnit', 'UseUnitNumber', 'RestrictionOfUse', 'NodeId', 'Name', 'IsVacancy'],
  ...['StatusContract', 'LifeOfContract', 'PaymentInterval', 'DunningData', 'Dunningblock', 'DunningLevel'],
  ...['StartContract', 'EndOfContract', 'DebitEntryType', 'UseVirtualIban', 'VirtualIban', 'FormerVirtualIban'],
  ...['CollectiveAccount', 'NoRealBankAccount', 'Iban', 'Bic', 'AccountHolder'],
]);

const base = {
  tag: 'RentAccounting',
  summary: 'License agreements (the contract for one use unit over a period; vacancy included)',
  permissions: [PERMISSIONS.rentAccountingRead],
};

export const licenseAgreementsV12: MasterRoute = {
  ...base,
  url: '/v1.2/RentAccounting/LicenseAgreements',
  params: [...FILTERS, 'includeBanking'],
  listing: 'paged',
  shape: V12_SHAPE,
  keep: KEEP,
  async read(ctx) {
    const rows = await agreementRows(ctx);
    const e = await Entries.load(ctx.db, idsOf(rows, CATALOGUE_COLUMNS));
    return rows.map((r) => presentV12(r, e, ctx.q.includeBanking === true));
  },
};

export const licenseAgreementsV10: MasterRoute = {
  ...base,
  url: '/v1.0/RentAccounting/LicenseAgreements',
  params: FILTERS,
  listing: 'v1.0',
  shape: V10_SHAPE,
  keep: 'all',
  async read(ctx) {
    const rows = await agreementRows(ctx);
    const e = await Entries.load(ctx.db, idsOf(rows, CATALOGUE_COLUMNS));
    return rows.map((r) => presentV10(r, e));
  },
};
