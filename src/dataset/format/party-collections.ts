// The import/export format of persons, managements, officials, departments (placed before the owners) and of the
// rows that belong to license agreements: contractors, payment modes, contract positions, and the jurisdictions.
import {
  bool,
  code,
  date,
  dateTime,
  dec,
  entry,
  id,
  ids,
  int,
  refTo,
  str,
  type CollectionSpec,
  type Field,
} from './fields.ts';
import { child, estateAddress } from './master-collections.ts';

/** Persons and the organisation around them, placed before the owners. */
export const PARTY_COLLECTIONS: CollectionSpec[] = [
  {
    name: 'Persons',
    table: 'persons',
    entity: 'Person',
    fields: [
      id(),
      str('IdNum', { required: true }),
      str('Name', { required: true }),
      bool('IsNaturalPerson', { required: true }),
      date('ValidFrom', { required: true }),
      ...['ShortName'].map((w) => str(w)),
      date('ValidTo'),
      int('NodeId'),
      ...['TaxNumber', 'TaxIdentificationNumber', 'Title', 'FirstName', 'LastName', 'BirthName', 'CareOf'].map((w) =>
        str(w),
      ),
      date('BirthDate'),
      dateTime('DeathDate'),
      entry('GenderId', 'Gender'),
      entry('MaritalTypeId', 'MaritalType'),
      entry('NationalityId', 'Nationality'),
      ...['LongName1', 'LongName2', 'VatId', 'CommercialRegisterNumber', 'CommercialRegisterTown'].map((w) => str(w)),
    ],
    children: [
      child('Addresses', 'person_addresses', 'person_id', [
        ...estateAddress(),
        date('ValidFrom'),
        date('ValidTo'),
        bool('MainAddress', { nullable: true }),
        entry('AddressTypeId', 'AddressType'),
      ]),
      child('Communications', 'person_communications', 'person_id', [
        int('RelatedAddressId', { sibling: 'Addresses' }),
        str('Content'),
        str('Explanation'),
        entry('CommunicationTypeId', 'CommunicationType'),
      ]),
      child('BankAccounts', 'person_bank_accounts', 'person_id', [
        str('Iban'),
        str('Bic'),
        str('AccountHolder'),
        date('ValidFrom'),
        date('ValidTo'),
        entry('BankAccountTypeId', 'BankAccountType'),
        entry('BankAccountUsageTypeId', 'BankAccountUsageType'),
      ]),
      child('ContactPersons', 'person_contact_persons', 'person_id', [str('IdNum'), str('FirstName'), str('LastName')]),
    ],
  },
  {
    name: 'Managements',
    table: 'managements',
    fields: [
      id(),
      str('IdNum', { required: true }),
      str('Name'),
      int('NodeId'),
      refTo('ParentManagementId', 'managements'),
      entry('AdministrationTypeId', 'AdministrationType'),
      refTo('PersonId', 'persons'),
    ],
    children: [
      ids(
        'CompanyCodeIds',
        'management_company_codes',
        'management_id',
        refTo('CompanyCodeIds', 'company_codes', { col: 'company_code_id', required: true }),
      ),
    ],
  },
  {
    name: 'ResponsibleOfficials',
    table: 'responsible_officials',
    children: [],
    fields: [
      id(),
      str('CodeShort'),
      bool('AutomaticMailsActivated', { nullable: true }),
      bool('UniversalResponsibilityPossible', { nullable: true }),
      int('UserId'),
      refTo('PersonId', 'persons'),
    ],
  },
  {
    name: 'Departments',
    table: 'departments',
    fields: [
      id(),
      str('IdNum'),
      str('Name'),
      refTo('ManagementId', 'managements'),
      refTo('ParentId', 'departments'),
      entry('DepartmentTypeId', 'DepartmentType'),
    ],
    children: [
      ids(
        'ResponsibleOfficialIds',
        'department_officials',
        'department_id',
        refTo('ResponsibleOfficialIds', 'responsible_officials', { col: 'responsible_official_id', required: true }),
      ),
    ],
  },
];

const ofAgreement = (name: string, table: string, fields: Field[], entity?: string): CollectionSpec => ({
  name,
  table,
  entity,
  children: [],
  ledgerFrom: { field: 'LicenseAgreementId', table: 'license_agreements' },
  fields: [id(), refTo('LicenseAgreementId', 'license_agreements', { required: true }), ...fields],
});

/** Collections placed after the license agreements. */
export const AGREEMENT_COLLECTIONS: CollectionSpec[] = [
  ofAgreement(
    'Contractors',
    'contractors',
    [
      refTo('PersonId', 'persons', { required: true }),
      entry('ContractorTypeId', 'ContractorType'),
      date('ContractualUseValidFrom'),
      date('ContractualUseValidTo'),
    ],
    'Contractor',
  ),
  ofAgreement('PaymentModes', 'payment_modes', [
    date('ActiveFrom'),
    date('ActiveTo'),
    entry('ModeId', 'PaymentModeMode'),
    // required: every payment mode has a Type object (decisions §7)
    entry('TypeId', 'PaymentModeType', { required: true }),
    str('SepaMandateReference'),
    refTo('BankAccountId', 'person_bank_accounts'),
  ]),
  ofAgreement('ContractPositions', 'contract_positions', [
    dec('NetAmount'),
    dec('Amount'),
    date('ActiveFrom'),
    date('ActiveTo'),
    code('VatRateId', 'VatRate'),
    code('ContractPositionTypeId', 'ContractPositionType'),
    entry('ValidContractPositionId', 'ValidContractPosition'),
    entry('ChangeReasonContractsId', 'ChangeReasonContracts'),
  ]),
  {
    name: 'Jurisdictions',
    table: 'jurisdictions',
    children: [],
    ledgerFrom: { field: 'EconomicUnitId', table: 'economic_units' },
    fields: [
      id(),
      refTo('EconomicUnitId', 'economic_units', { required: true }),
      refTo('UseUnitId', 'use_units', { sameAs: { column: 'economic_unit_id', field: 'EconomicUnitId' } }),
      bool('MainJurisdiction', { nullable: true }),
      refTo('ResponsibleOfficialId', 'responsible_officials'),
      refTo('DepartmentId', 'departments'),
      entry('DepartmentTypeId', 'DepartmentType'),
    ],
  },
];
