// RentAccountingPersonDetails/Contractors (v1.2, v1.1, v1.0): the persons of a license agreement in their roles,
// ledger-scoped by the agreement's ledger; every contractor carries its person's main address (DefaultAddress).
import { ledgerCondition } from '../../auth/ledger-scope.ts';
import { PERMISSIONS } from '../../auth/permissions.ts';
import { dateTime } from '../../http/present.ts';
import { windowed } from '../../rent-accounting/contracts.ts';
import type { Item, MasterRoute, ReadContext } from '../engine.ts';
import type { ParamName, Query } from '../params.ts';
import { activeOn } from '../present.ts';
import { loadPeople, type People } from '../persons/load.ts';
import {
  Address,
  AddressV10,
  BankAccount,
  CommunicationV10,
  IdName,
  NestedPerson,
  UseUnitShort,
  type ShapeObject,
} from '../shapes.ts';
import {
  addressV10,
  addressV12,
  bankAccount,
  communicationV10,
  mainAddress,
  nestedPerson,
  PERSON_KEEP,
} from '../persons/present.ts';

async function rows(ctx: ReadContext) {
  const { q } = ctx;
  let qb = ctx.db
    .selectFrom('contractors as c')
    .innerJoin('license_agreements as la', 'la.id', 'c.license_agreement_id')
    .innerJoin('use_units as uu', 'uu.id', 'la.use_unit_id')
    .innerJoin('economic_units as eu', 'eu.id', 'uu.economic_unit_id')
    .selectAll('c')
    .select(['la.id_num', 'la.valid_from', 'la.valid_to', 'la.use_unit_id', 'uu.use_unit_number', 'uu.building_id'])
    .select(['uu.economic_unit_id', 'eu.number as economic_unit_number'])
    .where((eb) => ledgerCondition(eb.ref('c.company_code_id'), ctx.scope));
  if (q.licenseAgreementId !== undefined) qb = qb.where('c.license_agreement_id', '=', Number(q.licenseAgreementId));
  if (q.personId !== undefined) qb = qb.where('c.person_id', '=', Number(q.personId));
  if (q.licenseAgreementActiveOn !== undefined)
    qb = qb.where((eb) => activeOn(eb.ref('la.valid_from'), eb.ref('la.valid_to'), String(q.licenseAgreementActiveOn)));
  if (q.contractualUseActiveOn !== undefined)
    qb = qb.where((eb) =>
      activeOn(
        eb.ref('c.contractual_use_valid_from'),
        eb.ref('c.contractual_use_valid_to'),
        String(q.contractualUseActiveOn),
      ),
    );
  const list = await windowed(qb, 'c.id', ctx.window).execute();
  const people = await loadPeople(
    ctx.db,
    list.map((r) => r.person_id),
    { bankAccounts: q.includePersonBankAccounts === true, extraEntries: list.map((r) => r.contractor_type_id) },
  );
  return { list, people };
}
type Row = Awaited<ReturnType<typeof rows>>['list'][number];

const useUnit = (r: Row) => ({
  Id: r.use_unit_id,
  UseUnitNumber: r.use_unit_number,
  BuildingLandId: r.building_id,
  EconomicUnitId: r.economic_unit_id,
  EconomicUnit: r.economic_unit_number,
});

function presentNested(r: Row, people: People, q: Query): Item {
  const b = people.get(r.person_id);
  const main = b && mainAddress(b);
  return {
    Id: r.id,
    LicenseAgreementId: r.license_agreement_id,
    LicenseAgreement: r.id_num,
    StartContract: r.valid_from,
    EndOfContract: r.valid_to,
    ContractualUseValidFrom: r.contractual_use_valid_from,
    ContractualUseValidTo: r.contractual_use_valid_to,
    ContractorType: people.e.idName(r.contractor_type_id),
    UseUnit: useUnit(r),
    Person: b
      ? nestedPerson(b, people.e, {
          addresses: q.includePersonAddresses === true,
          communications: q.includePersonCommunications === true,
          bankAccounts: q.includePersonBankAccounts === true,
          firstCommunications: q.includeMainCommunication === true,
        })
      : null,
    DefaultAddress: main ? addressV12(main, people.e) : null,
  };
}

function presentV10(r: Row, people: People, q: Query): Item {
  const b = people.get(r.person_id);
  const main = b && mainAddress(b);
  const p = b?.p;
  const e = people.e;
  return {
    ...{ Id: r.id, LicenseAgreementId: r.license_agreement_id, LicenseAgreement: r.id_num },
    ...{ StartContract: r.valid_from, EndOfContract: r.valid_to },
    IsLegalPerson: p ? p.is_natural_person !== 1 : null,
    IsNaturalPerson: p ? p.is_natural_person === 1 : null,
    ...{ PersonId: r.person_id, PersonIdNum: p?.id_num ?? null, PersonName: p?.name ?? null },
    ...{ PersonFirstName: p?.first_name ?? null, PersonLastName: p?.last_name ?? null },
    ...{
      BirthDate: dateTime(p?.birth_date),
      PersonValidFrom: p?.valid_from ?? null,
      PersonValidTo: p?.valid_to ?? null,
    },
    ContractorTypeId: e.get(r.contractor_type_id)?.kind_id ?? null,
    ContractorType: e.get(r.contractor_type_id)?.name ?? null,
    GenderId: e.get(p?.gender_id)?.kind_id ?? null,
    Gender: e.get(p?.gender_id)?.name ?? null,
    ...{ UseUnitId: r.use_unit_id, UseUnit: r.use_unit_number },
    Addresses: b && q.includePersonAddresses === true ? b.addresses.map((a) => addressV10(a, e)) : null,
    Communications:
      b && q.includePersonCommunications === true ? b.communications.map((c) => communicationV10(c, b, e)) : null,
    // the name of version 1.0's PersonsRead list (vendor-master-data.md §2.5); 1.0 has no First…Communication
    PersonBankAccounts: b && q.includePersonBankAccounts === true ? b.bankAccounts.map((a) => bankAccount(a, e)) : null,
    // decisions §7: every contractor carries a non-null DefaultAddress (clients index into it), in version 1.0 too
    DefaultAddress: main ? addressV10(main, e) : null,
  };
}

const NESTED_SHAPE: ShapeObject = {
  ...{ Id: 'int', LicenseAgreementId: 'int', LicenseAgreement: 'string', StartContract: 'date' },
  ...{ EndOfContract: 'date', ContractualUseValidFrom: 'date', ContractualUseValidTo: 'date' },
  ...{ ContractorType: IdName, UseUnit: UseUnitShort, Person: NestedPerson, DefaultAddress: Address },
};
const V10_SHAPE: ShapeObject = {
  ...{ Id: 'int', LicenseAgreementId: 'int', LicenseAgreement: 'string', StartContract: 'date' },
  ...{ EndOfContract: 'date', IsLegalPerson: 'bool', IsNaturalPerson: 'bool', PersonId: 'int' },
  ...{ PersonIdNum: 'string', PersonName: 'string', PersonFirstName: 'string', PersonLastName: 'string' },
  ...{ BirthDate: 'datetime', PersonValidFrom: 'date', PersonValidTo: 'date', ContractorTypeId: 'int' },
  ...{ ContractorType: 'string', GenderId: 'int', Gender: 'string', UseUnitId: 'int', UseUnit: 'string' },
  ...{ Addresses: [AddressV10], Communications: [CommunicationV10], PersonBankAccounts: [BankAccount] },
  DefaultAddress: AddressV10,
};
const KEEP = new Set([
  ...PERSON_KEEP,
  ...['LicenseAgreementId', 'LicenseAgreement', 'StartContract', 'EndOfContract', 'ContractualUseValidFrom'],
  ...['ContractualUseValidTo', 'ContractorType', 'UseUnit', 'UseUnitNumber', 'Person', 'DefaultAddress'],
]);
const INCLUDES: ParamName[] = [
  ...(['includeMainAddress', 'includeMainCommunication', 'includePersonAddresses'] as const),
  ...(['includePersonCommunications', 'includePersonBankAccounts'] as const),
];
const base = {
  tag: 'RentAccountingPersonDetails',
  summary: 'Contractors: the persons of a license agreement in their roles',
  permissions: [PERMISSIONS.rentAccountingRead, PERMISSIONS.personsRead],
};
const nested = (url: MasterRoute['url'], listing: 'paged' | 'v1.0'): MasterRoute => ({
  ...base,
  url,
  params: ['licenseAgreementId', 'personId', 'licenseAgreementActiveOn', 'contractualUseActiveOn', ...INCLUDES],
  listing,
  shape: NESTED_SHAPE,
  keep: KEEP,
  async read(ctx) {
    const { list, people } = await rows(ctx);
    return list.map((r) => presentNested(r, people, ctx.q));
  },
});

export const contractorsV12 = nested('/v1.2/RentAccountingPersonDetails/Contractors', 'paged');
/** Version 1.1 has the nested layout of 1.2 and is paged like it (its clients send limit and offset). */
export const contractorsV11 = nested('/v1.1/RentAccountingPersonDetails/Contractors', 'paged');

export const contractorsV10: MasterRoute = {
  ...base,
  url: '/v1.0/RentAccountingPersonDetails/Contractors',
  params: ['licenseAgreementId', 'personId', ...INCLUDES],
  listing: 'v1.0',
  shape: V10_SHAPE,
  keep: 'all',
  async read(ctx) {
    const { list, people } = await rows(ctx);
    return list.map((r) => presentV10(r, people, ctx.q));
  },
};
