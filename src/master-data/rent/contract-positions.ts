// RentAccounting/ContractPositions (v1.2, v1.0): the rent items of license agreements (net rent, prepayments), with
// the position type's detail flags; ledger-scoped by the agreement's ledger.
import { ledgerCondition } from '../../auth/ledger-scope.ts';
import { PERMISSIONS } from '../../auth/permissions.ts';
import { dec } from '../../http/present.ts';
import { windowed } from '../../rent-accounting/contracts.ts';
import type { Item, MasterRoute, ReadContext } from '../engine.ts';
import { activeOn, Entries, flag, idsOf } from '../present.ts';
import { IdCode, IdName, LicenseAgreementShort, type ShapeObject } from '../shapes.ts';

async function rows(ctx: ReadContext) {
  const { q } = ctx;
  let qb = ctx.db
    .selectFrom('contract_positions as cp')
    .innerJoin('license_agreements as la', 'la.id', 'cp.license_agreement_id')
    .innerJoin('use_units as uu', 'uu.id', 'la.use_unit_id')
    .innerJoin('economic_units as eu', 'eu.id', 'uu.economic_unit_id')
    .leftJoin('catalog_codes as vat', 'vat.id', 'cp.vat_rate_id')
    .leftJoin('catalog_codes as t', 't.id', 'cp.contract_position_type_id')
    .leftJoin('contract_position_type_details as d', 'd.id', 'cp.contract_position_type_id')
    .selectAll('cp')
    .select(['la.id_num', 'la.use_unit_id', 'uu.use_unit_number', 'uu.building_id', 'uu.economic_unit_id'])
    .select(['eu.number as economic_unit_number', 'vat.code as vat_code', 't.name as type_name'])
    .select(['t.short_code as type_short_code', 't.node_id as type_node_id'])
    .select([
      ...(['d.deposit', 'd.wb_relevant', 'd.bgb_relevant', 'd.is_part_of_net_rent'] as const),
      ...(['d.using_cp_as_prepayment_block', 'd.assignment_prepayment', 'd.is_gross_rent_without_heating'] as const),
      ...(['d.is_part_of_net_rent_census', 'd.is_basis_calculation_reminder_charge_interest'] as const),
      ...(['d.is_prepayment_heating', 'd.is_prepayment_running_cost', 'd.report_as_sinking_fund'] as const),
    ])
    .where((eb) => ledgerCondition(eb.ref('cp.company_code_id'), ctx.scope));
  if (q.licenseAgreementId !== undefined) qb = qb.where('cp.license_agreement_id', '=', Number(q.licenseAgreementId));
  if (q.licenseAgreementIdNum !== undefined) qb = qb.where('la.id_num', '=', String(q.licenseAgreementIdNum));
  if (q.contractPositionsActiveOn !== undefined)
    qb = qb.where((eb) =>
      activeOn(eb.ref('cp.active_from'), eb.ref('cp.active_to'), String(q.contractPositionsActiveOn)),
    );
  if (q.licenseAgreementActiveOn !== undefined)
    qb = qb.where((eb) => activeOn(eb.ref('la.valid_from'), eb.ref('la.valid_to'), String(q.licenseAgreementActiveOn)));
  const list = await windowed(qb, 'cp.id', ctx.window).execute();
  return {
    list,
    e: await Entries.load(ctx.db, idsOf(list, ['valid_contract_position_id', 'change_reason_contracts_id'])),
  };
}
type Row = Awaited<ReturnType<typeof rows>>['list'][number];

function present(r: Row, e: Entries, details: boolean): Item {
  const b = (v: number | null) => flag(v) ?? false;
  const type = r.contract_position_type_id;
  return {
    Id: r.id,
    NetAmount: dec(r.net_amount),
    Amount: dec(r.amount),
    ActiveFrom: r.active_from,
    ActiveTo: r.active_to,
    LicenseAgreement: {
      Id: r.license_agreement_id,
      IdNum: r.id_num,
      UseUnit: {
        Id: r.use_unit_id,
        UseUnitNumber: r.use_unit_number,
        BuildingLandId: r.building_id,
        EconomicUnitId: r.economic_unit_id,
        EconomicUnit: r.economic_unit_number,
      },
    },
    VatRate: r.vat_rate_id === null ? null : { Id: r.vat_rate_id, Code: r.vat_code },
    ValidContractPosition: e.idName(r.valid_contract_position_id),
    ChangeReasonContracts: e.idName(r.change_reason_contracts_id),
    ContractPositionType:
      type === null
        ? null
        : {
            Id: type,
            NodeId: r.type_node_id,
            Name: r.type_name,
            ShortCode: r.type_short_code,
            ...(details
              ? {
                  Deposit: b(r.deposit),
                  WBRelevant: b(r.wb_relevant),
                  BGBRelevant: b(r.bgb_relevant),
                  IsPartOfNetRent: b(r.is_part_of_net_rent),
                  UsingCpAsPrepaymentBlock: b(r.using_cp_as_prepayment_block),
                  AssignmentPrepayment: r.assignment_prepayment,
                  IsGrossRentWithoutHeating: b(r.is_gross_rent_without_heating),
                  IsPartOfNetRentCensus: b(r.is_part_of_net_rent_census),
                  IsBasisCalculationReminderChargeInterest: b(r.is_basis_calculation_reminder_charge_interest),
                  IsPrepaymentHeating: b(r.is_prepayment_heating),
                  IsPrepaymentRunningCost: b(r.is_prepayment_running_cost),
                  ReportAsSinkingFund: b(r.report_as_sinking_fund),
                }
              : {}),
          },
    ContractPositionTypeSlim: type === null ? null : { Id: type, Name: r.type_name, ShortCode: r.type_short_code },
  };
}

const SHAPE: ShapeObject = {
  ...{ Id: 'int', NetAmount: 'number', Amount: 'number', ActiveFrom: 'date', ActiveTo: 'date' },
  ...{ LicenseAgreement: LicenseAgreementShort, VatRate: IdCode, ValidContractPosition: IdName },
  ChangeReasonContracts: IdName,
  ContractPositionType: {
    ...{ Id: 'int', NodeId: 'int', Name: 'string', ShortCode: 'string', Deposit: 'bool', WBRelevant: 'bool' },
    ...{ BGBRelevant: 'bool', IsPartOfNetRent: 'bool', UsingCpAsPrepaymentBlock: 'bool' },
    ...{ AssignmentPrepayment: 'string', IsGrossRentWithoutHeating: 'bool', IsPartOfNetRentCensus: 'bool' },
    ...{ IsBasisCalculationReminderChargeInterest: 'bool', IsPrepaymentHeating: 'bool' },
    ...{ IsPrepaymentRunningCost: 'bool', ReportAsSinkingFund: 'bool' },
  },
  ContractPositionTypeSlim: { Id: 'int', Name: 'string', ShortCode: 'string' },
};
const KEEP = new Set([
  ...['Id', 'NetAmount', 'Amount', 'ActiveFrom', 'ActiveTo', 'LicenseAgreement', 'IdNum', 'UseUnit', 'UseUnitNumber'],
  ...['VatRate', 'ValidContractPosition', 'ChangeReasonContracts', 'ContractPositionType', 'Name', 'NodeId'],
  ...['ShortCode', 'AssignmentPrepayment', 'ContractPositionTypeSlim'],
]);
const base = {
  tag: 'RentAccounting',
  summary: 'Contract positions: the rent items of license agreements',
  permissions: [PERMISSIONS.rentAccountingRead],
  shape: SHAPE,
};

export const contractPositionsV12: MasterRoute = {
  ...base,
  url: '/v1.2/RentAccounting/ContractPositions',
  params: [
    ...([
      'licenseAgreementId',
      'licenseAgreementIdNum',
      'contractPositionsActiveOn',
      'licenseAgreementActiveOn',
    ] as const),
    'includeContractPositionTypeDetails',
  ],
  listing: 'paged',
  keep: KEEP,
  async read(ctx) {
    const { list, e } = await rows(ctx);
    return list.map((r) => present(r, e, ctx.q.includeContractPositionTypeDetails === true));
  },
};

export const contractPositionsV10: MasterRoute = {
  ...base,
  url: '/v1.0/RentAccounting/ContractPositions',
  params: ['licenseAgreementId', 'includeContractPositionTypeDetails'],
  listing: 'v1.0',
  keep: 'all',
  async read(ctx) {
    const { list, e } = await rows(ctx);
    return list.map((r) => present(r, e, ctx.q.includeContractPositionTypeDetails === true));
  },
};
