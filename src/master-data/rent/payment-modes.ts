// RentAccountingPersonDetails/PaymentModes (v1.2): how the rent of an agreement is paid, ledger-scoped by the
// agreement's ledger. Every payment mode has a Type (decisions §7).
import { ledgerCondition } from '../../auth/ledger-scope.ts';
import { PERMISSIONS } from '../../auth/permissions.ts';
import { windowed } from '../../rent-accounting/contracts.ts';
import type { MasterRoute, ReadContext } from '../engine.ts';
import { activeOn, Entries, idsOf } from '../present.ts';
import { IdName, LicenseAgreementShort } from '../shapes.ts';

async function rows(ctx: ReadContext) {
  const { q } = ctx;
  let qb = ctx.db
    .selectFrom('payment_modes as pm')
    .innerJoin('license_agreements as la', 'la.id', 'pm.license_agreement_id')
    .innerJoin('use_units as uu', 'uu.id', 'la.use_unit_id')
    .innerJoin('economic_units as eu', 'eu.id', 'uu.economic_unit_id')
    .leftJoin('person_bank_accounts as ba', 'ba.id', 'pm.bank_account_id')
    .selectAll('pm')
    .select(['la.id_num', 'la.use_unit_id', 'uu.use_unit_number', 'uu.building_id', 'uu.economic_unit_id'])
    .select(['eu.number as economic_unit_number', 'ba.iban', 'ba.bic'])
    .where((eb) => ledgerCondition(eb.ref('pm.company_code_id'), ctx.scope));
  if (q.licenseAgreementId !== undefined) qb = qb.where('pm.license_agreement_id', '=', Number(q.licenseAgreementId));
  if (q.licenseAgreementIdNum !== undefined) qb = qb.where('la.id_num', '=', String(q.licenseAgreementIdNum));
  if (q.paymentModeActiveOn !== undefined)
    qb = qb.where((eb) => activeOn(eb.ref('pm.active_from'), eb.ref('pm.active_to'), String(q.paymentModeActiveOn)));
  if (q.licenseAgreementActiveOn !== undefined)
    qb = qb.where((eb) => activeOn(eb.ref('la.valid_from'), eb.ref('la.valid_to'), String(q.licenseAgreementActiveOn)));
  const list = await windowed(qb, 'pm.id', ctx.window).execute();
  return { list, e: await Entries.load(ctx.db, idsOf(list, ['mode_id', 'type_id'])) };
}

export const paymentModesV12: MasterRoute = {
  url: '/v1.2/RentAccountingPersonDetails/PaymentModes',
  tag: 'RentAccountingPersonDetails',
  summary: 'Payment modes of license agreements (direct debit with SEPA mandate, transfer)',
  permissions: [PERMISSIONS.rentAccountingRead],
  params: ['licenseAgreementId', 'licenseAgreementIdNum', 'paymentModeActiveOn', 'licenseAgreementActiveOn'],
  listing: 'paged',
  shape: {
    ...{ Id: 'int', ActiveFrom: 'date', ActiveTo: 'date', LicenseAgreement: LicenseAgreementShort },
    ...{ Mode: IdName, Type: IdName, SepaMandate: { Id: 'int', MandateId: 'string', Iban: 'string' } },
    BankAccount: { Id: 'int', Iban: 'string', Bic: 'string' },
  },
  keep: new Set([
    'Id',
    'ActiveFrom',
    'ActiveTo',
    'LicenseAgreement',
    'IdNum',
    'UseUnit',
    'UseUnitNumber',
    'Mode',
    'SepaMandate',
    'BankAccount',
  ]),
  async read(ctx) {
    const { list, e } = await rows(ctx);
    return list.map((r) => ({
      Id: r.id,
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
      Mode: e.idName(r.mode_id),
      Type: e.idName(r.type_id),
      SepaMandate:
        r.sepa_mandate_reference === null ? null : { Id: r.id, MandateId: r.sepa_mandate_reference, Iban: r.iban },
      BankAccount: r.bank_account_id === null ? null : { Id: r.bank_account_id, Iban: r.iban, Bic: r.bic },
    }));
  },
};
