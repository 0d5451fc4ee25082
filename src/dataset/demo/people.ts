// Persons of the demo: natural persons (tenants, officials) and legal persons (owners, managements), each with a main
// address, communications (landline, mobile, e-mail) and a bank account; and the organisation of managements,
// responsible officials and departments. Uses its own random stream so the older demo tables keep their values.
import {
  buildAddress,
  buildBankAccount,
  buildCommunication,
  buildLegalPerson,
  buildNaturalPerson,
  germanIban,
} from '../factories/parties.ts';
import type { Sink } from './catalog.ts';
import type { MasterCatalog } from './master-catalog.ts';
import { SURNAMES, nth, type Random } from './random.ts';

export interface Address {
  street: string;
  houseNumber: string;
  zip: string;
  town: string;
}

const FIRST_NAMES: [string, number][] = [
  ['Anna', 2],
  ['Thomas', 1],
  ['Sabine', 2],
  ['Michael', 1],
  ['Julia', 2],
  ['Andreas', 1],
  ['Katharina', 2],
  ['Stefan', 1],
  ['Monika', 2],
  ['Jürgen', 1],
  ['Lea', 2],
  ['Mehmet', 1],
];
const MORE_SURNAMES = ['Zimmermann', 'Krüger', 'Hartmann', 'Lange', 'Werner', 'Krause', 'Lehmann', 'Yılmaz', 'Nowak'];
const LAST_NAMES = [...SURNAMES, ...MORE_SURNAMES];
const BANKS: [string, string][] = [
  ['10050000', 'BELADEBEXXX'],
  ['20050550', 'HASPDEHHXXX'],
  ['70150000', 'SSKMDEMMXXX'],
  ['37050198', 'COLSDE33XXX'],
];

export class People {
  private n = 0;
  private readonly accounts = new Map<number, number>();

  constructor(
    private readonly sink: Sink,
    private readonly rnd: Random,
    private readonly m: MasterCatalog,
  ) {}

  /** A natural person living at `home`; returns the person's id. */
  natural(home: Address, validFrom = '2000-01-01'): number {
    const rnd = this.rnd;
    const [firstName, gender] = rnd.pick(FIRST_NAMES);
    const lastName = rnd.pick(LAST_NAMES);
    const id = this.sink.nextId();
    const g = this.m.byKindId;
    this.sink.add(
      'persons',
      buildNaturalPerson(
        id,
        ++this.n,
        { firstName, lastName, genderId: g('Gender', gender) },
        {
          valid_from: validFrom,
          title: rnd.chance(0.08) ? 'Dr.' : null,
          birth_date: rnd.date(1940, 2002),
          birth_name: gender === 2 && rnd.chance(0.3) ? rnd.pick(LAST_NAMES) : null,
          marital_type_id: rnd.pick(this.m.MaritalType),
          nationality_id: rnd.chance(0.85) ? g('Nationality', 1) : rnd.pick(this.m.Nationality),
          tax_identification_number: String(rnd.int(10000000000, 99999999999)),
        },
      ),
    );
    const email = `${firstName}.${lastName}`.toLowerCase().replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue');
    this.contact(id, home, validFrom, `${firstName} ${lastName}`, `${email.replace(/[^a-z.]/g, '')}@example.de`);
    return id;
  }

  /** A legal person (company) at `seat`; returns the person's id. */
  legal(name: string, seat: Address): number {
    const id = this.sink.nextId();
    const n = ++this.n;
    this.sink.add(
      'persons',
      buildLegalPerson(id, n, name, {
        vat_id: `DE${String(100000000 + n * 7919).slice(0, 9)}`,
        commercial_register_number: `HRB ${10000 + n}`,
        commercial_register_town: seat.town,
        tax_number: `${this.rnd.int(10, 99)}/${this.rnd.int(100, 999)}/${this.rnd.int(10000, 99999)}`,
      }),
    );
    this.sink.add('person_contact_persons', {
      id: this.sink.nextId(),
      person_id: id,
      id_num: `${String(n).padStart(6, '0')}-1`,
      first_name: this.rnd.pick(FIRST_NAMES)[0],
      last_name: this.rnd.pick(LAST_NAMES),
    });
    this.contact(
      id,
      seat,
      '2000-01-01',
      name,
      `info@${name
        .split(' ')[0]
        ?.toLowerCase()
        .replace(/[^a-z]/g, '')}.de`,
    );
    return id;
  }

  /** The id of the person's bank account. */
  bankAccountOf(personId: number): number | null {
    return this.accounts.get(personId) ?? null;
  }

  /** Main address, landline, e-mail (some a mobile number too) and a current bank account. */
  private contact(personId: number, home: Address, validFrom: string, holder: string, email: string): void {
    const { sink, rnd, m } = this;
    const g = m.byKindId;
    const addressId = sink.nextId();
    sink.add(
      'person_addresses',
      buildAddress(addressId, personId, {
        zip: home.zip,
        town: home.town,
        street: home.street,
        house_number: home.houseNumber,
        valid_from: validFrom,
        address_type_id: g('AddressType', 1),
        country_id: g('Country', 1),
      }),
    );
    const phone = (type: number, content: string) =>
      sink.add(
        'person_communications',
        buildCommunication(sink.nextId(), personId, {
          related_address_id: type === 1 ? addressId : null,
          content,
          explanation: type === 1 ? 'privat' : null,
          communication_type_id: g('CommunicationType', type),
        }),
      );
    phone(1, `0${rnd.int(30, 89)} ${rnd.int(100000, 9999999)}`);
    if (rnd.chance(0.6)) phone(3, `01${rnd.pick(['51', '60', '70', '76'])} ${rnd.int(1000000, 99999999)}`);
    phone(5, email);
    const [bank, bic] = rnd.pick(BANKS);
    const accountId = sink.nextId();
    this.accounts.set(personId, accountId);
    sink.add(
      'person_bank_accounts',
      buildBankAccount(accountId, personId, {
        iban: germanIban(bank, rnd.int(1000000, 9999999999)),
        bic,
        account_holder: holder,
        valid_from: validFrom,
        bank_account_type_id: g('BankAccountType', 1),
        bank_account_usage_type_id: g('BankAccountUsageType', 1),
      }),
    );
  }
}

/** The managements, officials and departments of one ledger. */
export interface LedgerOrganisation {
  managementId: number;
  officials: number[];
  departments: { id: number; typeId: number }[];
}

/** A top management over every ledger and, per ledger, a management with two officials in two departments. */
export function generateOrganisation(
  sink: Sink,
  m: MasterCatalog,
  people: People,
  ledgers: { id: number; name: string; seat: Address }[],
): Map<number, LedgerOrganisation> {
  const first = nth(ledgers, 0);
  const topId = sink.nextId();
  sink.add('managements', {
    id: topId,
    id_num: 'VW000',
    name: 'Verwaltungsverbund Deutschland',
    node_id: 1,
    parent_management_id: null,
    administration_type_id: m.byKindId('AdministrationType', 3),
    person_id: people.legal('Verwaltungsverbund Deutschland GmbH', first.seat),
  });
  const out = new Map<number, LedgerOrganisation>();
  for (const l of ledgers) {
    sink.add('management_company_codes', { management_id: topId, company_code_id: l.id });
    const managementId = sink.nextId();
    sink.add('managements', {
      id: managementId,
      id_num: `VW${String(l.id).padStart(3, '0')}`,
      name: `Hausverwaltung ${l.name}`,
      node_id: 1 + l.id,
      parent_management_id: topId,
      administration_type_id: m.byKindId('AdministrationType', 1),
      person_id: people.legal(`Hausverwaltung ${l.name}`, l.seat),
    });
    sink.add('management_company_codes', { management_id: managementId, company_code_id: l.id });
    const officials = [0, 1].map((i) => {
      const id = sink.nextId();
      sink.add('responsible_officials', {
        id,
        code_short: `SB${l.id}${i + 1}`,
        automatic_mails_activated: i === 0 ? 1 : 0,
        universal_responsibility_possible: i === 0 ? 1 : 0,
        user_id: 100 * l.id + i + 1,
        person_id: people.natural(l.seat, '2010-01-01'),
      });
      return id;
    });
    const departments = [1, 2].map((typeKindId, i) => {
      const id = sink.nextId();
      const typeId = m.byKindId('DepartmentType', typeKindId);
      sink.add('departments', {
        id,
        id_num: `ABT${l.id}${i + 1}`,
        name: `${typeKindId === 1 ? 'Vermietung' : 'Technik'} ${l.seat.town}`,
        management_id: managementId,
        parent_id: null,
        department_type_id: typeId,
      });
      sink.add('department_officials', { department_id: id, responsible_official_id: nth(officials, i) });
      return { id, typeId };
    });
    out.set(l.id, { managementId, officials, departments });
  }
  return out;
}
