// Wire shapes of the master-data records as compact descriptions, turned into the response schemas (which are also
// the serializers and the OpenAPI source). 'int' etc. are JSON types; an object is a nested record; [x] a list.
import { Type, type TSchema } from '@sinclair/typebox';
import { Int32, WireObject } from '../http/schemas.ts';

export type Shape = 'int' | 'string' | 'number' | 'bool' | 'date' | 'datetime' | ShapeObject | [Shape];
export interface ShapeObject {
  [key: string]: Shape;
}

export function schemaOf(shape: Shape): TSchema {
  if (Array.isArray(shape)) return Type.Array(schemaOf(shape[0]));
  if (typeof shape === 'object') {
    const props: Record<string, TSchema> = {};
    for (const [k, v] of Object.entries(shape)) props[k] = schemaOf(v);
    return WireObject(props);
  }
  switch (shape) {
    case 'int':
      return Int32();
    case 'string':
      return Type.String();
    case 'number':
      return Type.Number();
    case 'bool':
      return Type.Boolean();
    case 'date':
      return Type.String({ format: 'date' });
    case 'datetime':
      return Type.String({ format: 'date-time' });
  }
}

export const IdName = { Id: 'int', Name: 'string' } as const satisfies ShapeObject;
export const IdCode = { Id: 'int', Code: 'string' } as const satisfies ShapeObject;
export const CompanyCode: ShapeObject = { Id: 'int', Name: 'string', Code: 'string', ArgeCode: 'string' };
export const Country: ShapeObject = { Id: 'int', Name: 'string', Code: 'string' };
export const EstateAddress: ShapeObject = {
  Zip: 'string',
  Town: 'string',
  Street: 'string',
  HouseNumber: 'string',
  HouseNumberAddition: 'string',
  CountryId: 'int',
  CountryCode: 'string',
  StreetComplete: 'string',
  HouseNumberComplete: 'string',
};
const ADDRESS_BASE: ShapeObject = {
  Id: 'int',
  Zip: 'string',
  Town: 'string',
  Street: 'string',
  HouseNumber: 'string',
  HouseNumberAddition: 'string',
  ValidFrom: 'date',
  ValidTo: 'date',
  StreetComplete: 'string',
  HouseNumberComplete: 'string',
  MainAddress: 'bool',
};
export const Address: ShapeObject = { ...ADDRESS_BASE, AddressType: IdName, Country };
export const AddressV10: ShapeObject = {
  ...ADDRESS_BASE,
  AddressTypeId: 'int',
  AddressType: 'string',
  CountryId: 'int',
  CountryCode: 'string',
};
const COMMUNICATION_BASE: ShapeObject = {
  Id: 'int',
  RelatedAddressId: 'int',
  Content: 'string',
  Explanation: 'string',
  RelatedAddress: 'string',
};
export const Communication: ShapeObject = { ...COMMUNICATION_BASE, CommunicationType: IdName };
export const CommunicationV10: ShapeObject = {
  ...COMMUNICATION_BASE,
  CommunicationTypeId: 'int',
  CommunicationType: 'string',
};
export const BankAccount: ShapeObject = {
  Id: 'int',
  Iban: 'string',
  Bic: 'string',
  AccountHolder: 'string',
  ValidFrom: 'date',
  ValidTo: 'date',
  BankAccountType: IdCode,
  BankAccountId: 'int',
  BankAccountUsageType: IdCode,
};
const naturalPerson = (birthDate: 'date' | 'datetime'): ShapeObject => ({
  Title: 'string',
  FirstName: 'string',
  LastName: 'string',
  BirthName: 'string',
  CareOf: 'string',
  BirthDate: birthDate,
  DeathDate: 'datetime',
  Gender: IdName,
  MaritalType: IdName,
  Nationality: Country,
});
const legalPerson = (contacts: string): ShapeObject => ({
  LongName1: 'string',
  LongName2: 'string',
  VatId: 'string',
  CommercialRegisterNumber: 'string',
  CommercialRegisterTown: 'string',
  [contacts]: [{ Id: 'int', IdNum: 'string', FirstName: 'string', LastName: 'string' }],
});
export const NaturalPerson = naturalPerson('date');
export const LegalPerson = legalPerson('ContractPerson');
const FIRST_COMMUNICATIONS: ShapeObject = {
  FirstEmailCommunication: Communication,
  FirstLandlinePhoneCommunication: Communication,
  FirstMobilePhoneCommunication: Communication,
};
/** The person embedded in contractors, owners, managements and officials (`Shortname` with a lower-case n). */
export const NestedPerson: ShapeObject = {
  Id: 'int',
  IdNum: 'string',
  Shortname: 'string',
  Name: 'string',
  NodeId: 'int',
  TaxNumber: 'string',
  TaxIdentificationNumber: 'string',
  ValidFrom: 'date',
  ValidTo: 'date',
  IsNaturalPerson: 'bool',
  NaturalPerson,
  LegalPerson,
  Addresses: [Address],
  Communications: [Communication],
  BankAccounts: [BankAccount],
  ...FIRST_COMMUNICATIONS,
};
/** A record of PersonsRead/Persons v1.2 (`ShortName` with a capital N). */
export const PersonV12: ShapeObject = {
  Id: 'int',
  IdNum: 'string',
  ShortName: 'string',
  Name: 'string',
  ValidFrom: 'date',
  ValidTo: 'date',
  IsNaturalPerson: 'bool',
  TaxNumber: 'string',
  TaxIdentificationNumber: 'string',
  NaturalPerson,
  LegalPerson,
  Addresses: [Address],
  Communications: [Communication],
  BankAccounts: [BankAccount],
  ...FIRST_COMMUNICATIONS,
};
/** A record of PersonsRead/Persons v1.0 and PersonsRead/Person/{id} (flat address and communication types). */
export const PersonV10: ShapeObject = {
  Id: 'int',
  IdNum: 'string',
  Name: 'string',
  ShortName: 'string',
  IsNaturalPerson: 'bool',
  ValidFrom: 'date',
  ValidTo: 'date',
  LegalPerson: legalPerson('ContractPersons'),
  NaturalPerson: naturalPerson('datetime'),
  Addresses: [AddressV10],
  Communications: [CommunicationV10],
  PersonBankAccounts: [BankAccount],
};
export const EconomicUnitShort: ShapeObject = { Id: 'int', IdNum: 'string', Name: 'string', Location: 'string' };
export const BuildingLandShort: ShapeObject = { Id: 'int', IdNum: 'string', BuildingLandType: 'string' };
export const UseUnitShort: ShapeObject = {
  Id: 'int',
  UseUnitNumber: 'string',
  BuildingLandId: 'int',
  EconomicUnitId: 'int',
  EconomicUnit: 'string',
};
export const LicenseAgreementShort: ShapeObject = { Id: 'int', IdNum: 'string', UseUnit: UseUnitShort };
export const OwnerShort: ShapeObject = { Id: 'int', OwnerNumber: 'string' };
