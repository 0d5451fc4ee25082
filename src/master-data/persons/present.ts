// Presenters of persons: the nested person (contractors, owners, managements, officials), the PersonsRead records of
// v1.2 and v1.0, and their addresses, communications and bank accounts. A legal person's NaturalPerson is null.
import { bool, dateTime } from '../../http/present.ts';
import type { Item } from '../engine.ts';
import { houseNumberComplete, streetComplete, type Entries } from '../present.ts';
import type { PersonBundle } from './load.ts';

type Address = PersonBundle['addresses'][number];
type Communication = PersonBundle['communications'][number];
type Bank = PersonBundle['bankAccounts'][number];

/** Which child lists to fill (null when not asked for). */
export interface PersonIncludes {
  addresses: boolean;
  communications: boolean;
  bankAccounts: boolean;
  /** The First…Communication objects. */
  firstCommunications: boolean;
}

const addressBase = (a: Address) => ({
  Id: a.id,
  Zip: a.zip,
  Town: a.town,
  Street: a.street,
  HouseNumber: a.house_number,
  HouseNumberAddition: a.house_number_addition,
  ValidFrom: a.valid_from,
  ValidTo: a.valid_to,
  StreetComplete: streetComplete(a),
  HouseNumberComplete: houseNumberComplete(a),
  MainAddress: bool(a.main_address) ?? false,
});
export const addressV12 = (a: Address, e: Entries): Item => ({
  ...addressBase(a),
  AddressType: e.idName(a.address_type_id),
  Country: e.named(a.country_id),
});
const addressV10 = (a: Address, e: Entries): Item => ({
  ...addressBase(a),
  AddressTypeId: e.get(a.address_type_id)?.kind_id ?? null,
  AddressType: e.get(a.address_type_id)?.name ?? null,
  CountryId: e.get(a.country_id)?.kind_id ?? null,
  CountryCode: e.get(a.country_id)?.code ?? null,
});

/** The person's main address (else its first). */
export const mainAddress = (b: PersonBundle): Address | undefined =>
  b.addresses.find((a) => a.main_address === 1) ?? b.addresses[0];

function communicationBase(c: Communication, b: PersonBundle) {
  const related = b.addresses.find((a) => a.id === c.related_address_id);
  return {
    Id: c.id,
    RelatedAddressId: c.related_address_id,
    Content: c.content,
    Explanation: c.explanation,
    RelatedAddress: related ? `${streetComplete(related) ?? ''}, ${related.zip ?? ''} ${related.town ?? ''}` : null,
  };
}
const communicationV12 = (c: Communication, b: PersonBundle, e: Entries): Item => ({
  ...communicationBase(c, b),
  CommunicationType: e.idName(c.communication_type_id),
});
const communicationV10 = (c: Communication, b: PersonBundle, e: Entries): Item => ({
  ...communicationBase(c, b),
  CommunicationTypeId: e.get(c.communication_type_id)?.kind_id ?? null,
  CommunicationType: e.get(c.communication_type_id)?.name ?? null,
});

export const bankAccount = (a: Bank, e: Entries): Item => ({
  Id: a.id,
  Iban: a.iban,
  Bic: a.bic,
  AccountHolder: a.account_holder,
  ValidFrom: a.valid_from,
  ValidTo: a.valid_to,
  BankAccountType: e.idCode(a.bank_account_type_id),
  BankAccountId: a.id,
  BankAccountUsageType: e.idCode(a.bank_account_usage_type_id),
});

/** CommunicationType ids the vendor uses (clients select by them): 1 landline, 3 mobile, 5 e-mail. */
function firstOf(b: PersonBundle, e: Entries, typeId: number): Item | null {
  const c = b.communications.find((x) => e.get(x.communication_type_id)?.kind_id === typeId);
  return c ? communicationV12(c, b, e) : null;
}

function naturalPerson(b: PersonBundle, e: Entries, v10: boolean): Item | null {
  const p = b.p;
  if (p.is_natural_person !== 1) return null;
  return {
    Title: p.title,
    FirstName: p.first_name,
    LastName: p.last_name,
    BirthName: p.birth_name,
    CareOf: p.care_of,
    BirthDate: v10 ? dateTime(p.birth_date) : p.birth_date,
    DeathDate: dateTime(p.death_date),
    Gender: e.idName(p.gender_id),
    MaritalType: e.idName(p.marital_type_id),
    Nationality: e.named(p.nationality_id),
  };
}

function legalPerson(b: PersonBundle, contacts: 'ContractPerson' | 'ContractPersons'): Item {
  const p = b.p;
  return {
    LongName1: p.long_name1,
    LongName2: p.long_name2,
    VatId: p.vat_id,
    CommercialRegisterNumber: p.commercial_register_number,
    CommercialRegisterTown: p.commercial_register_town,
    [contacts]: b.contacts.map((c) => ({ Id: c.id, IdNum: c.id_num, FirstName: c.first_name, LastName: c.last_name })),
  };
}

function lists(b: PersonBundle, e: Entries, inc: PersonIncludes) {
  return {
    Addresses: inc.addresses ? b.addresses.map((a) => addressV12(a, e)) : null,
    Communications: inc.communications ? b.communications.map((c) => communicationV12(c, b, e)) : null,
    BankAccounts: inc.bankAccounts ? b.bankAccounts.map((a) => bankAccount(a, e)) : null,
    FirstEmailCommunication: inc.firstCommunications ? firstOf(b, e, 5) : null,
    FirstLandlinePhoneCommunication: inc.firstCommunications ? firstOf(b, e, 1) : null,
    FirstMobilePhoneCommunication: inc.firstCommunications ? firstOf(b, e, 3) : null,
  };
}

/** The person embedded in other records (`Shortname`). */
export function nestedPerson(b: PersonBundle, e: Entries, inc: PersonIncludes): Item {
  const p = b.p;
  return {
    Id: p.id,
    IdNum: p.id_num,
    Shortname: p.short_name,
    Name: p.name,
    NodeId: p.node_id,
    TaxNumber: p.tax_number,
    TaxIdentificationNumber: p.tax_identification_number,
    ValidFrom: p.valid_from,
    ValidTo: p.valid_to,
    IsNaturalPerson: p.is_natural_person === 1,
    NaturalPerson: naturalPerson(b, e, false),
    LegalPerson: legalPerson(b, 'ContractPerson'),
    ...lists(b, e, inc),
  };
}

export function personV12(b: PersonBundle, e: Entries, inc: PersonIncludes): Item {
  const p = b.p;
  return {
    Id: p.id,
    IdNum: p.id_num,
    ShortName: p.short_name,
    Name: p.name,
    ValidFrom: p.valid_from,
    ValidTo: p.valid_to,
    IsNaturalPerson: p.is_natural_person === 1,
    TaxNumber: p.tax_number,
    TaxIdentificationNumber: p.tax_identification_number,
    NaturalPerson: naturalPerson(b, e, false),
    LegalPerson: legalPerson(b, 'ContractPerson'),
    ...lists(b, e, inc),
  };
}

export function personV10(b: PersonBundle, e: Entries, inc: PersonIncludes): Item {
  const p = b.p;
  return {
    Id: p.id,
    IdNum: p.id_num,
    Name: p.name,
    ShortName: p.short_name,
    IsNaturalPerson: p.is_natural_person === 1,
    ValidFrom: p.valid_from,
    ValidTo: p.valid_to,
    LegalPerson: legalPerson(b, 'ContractPersons'),
    NaturalPerson: naturalPerson(b, e, true),
    Addresses: inc.addresses ? b.addresses.map((a) => addressV10(a, e)) : null,
    Communications: inc.communications ? b.communications.map((c) => communicationV10(c, b, e)) : null,
    PersonBankAccounts: inc.bankAccounts ? b.bankAccounts.map((a) => bankAccount(a, e)) : null,
  };
}

export { addressV10, communicationV10 };

/** Keys of persons and their child objects that clients need present (decisions §7). */
export const PERSON_KEEP = [
  ...['Id', 'IdNum', 'Shortname', 'ShortName', 'Name', 'ValidFrom', 'IsNaturalPerson', 'NaturalPerson'],
  ...['FirstName', 'LastName', 'BirthDate', 'Gender', 'LegalPerson', 'LongName1', 'Addresses'],
  ...['Zip', 'Town', 'Street', 'HouseNumber', 'StreetComplete', 'HouseNumberComplete', 'MainAddress'],
  ...['AddressType', 'Country', 'RelatedAddressId', 'Content', 'Explanation', 'RelatedAddress'],
  ...['CommunicationType', 'Iban', 'Bic', 'AccountHolder', 'ValidTo', 'BankAccountType', 'BankAccountId'],
  'BankAccountUsageType',
];
