// Persons with their child rows for a page of records (persons, contractors, owners, managements, officials): one
// query per table, and the catalogue entries they reference.
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { groupBy } from '../../db/group.ts';
import { Entries, idsOf } from '../present.ts';
import type {
  PersonAddressesTable,
  PersonBankAccountsTable,
  PersonCommunicationsTable,
  PersonContactPersonsTable,
  PersonsTable,
} from '../tables-parties.ts';

export interface PersonBundle {
  p: Selectable<PersonsTable>;
  addresses: Selectable<PersonAddressesTable>[];
  communications: Selectable<PersonCommunicationsTable>[];
  bankAccounts: Selectable<PersonBankAccountsTable>[];
  contacts: Selectable<PersonContactPersonsTable>[];
}

export interface People {
  get(id: number | null): PersonBundle | undefined;
  e: Entries;
}

/** The persons with these ids (bank accounts only when asked for), and the catalogue entries of `extra` too. */
export async function loadPeople(
  db: Executor,
  ids: readonly (number | null)[],
  options: { bankAccounts: boolean; extraEntries?: (number | null)[] },
): Promise<People> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) {
    const e = await Entries.load(db, options.extraEntries ?? []);
    return { get: () => undefined, e };
  }
  const [persons, addresses, communications, contacts, banks] = await Promise.all([
    db.selectFrom('persons').selectAll().where('id', 'in', wanted).execute(),
    db.selectFrom('person_addresses').selectAll().where('person_id', 'in', wanted).orderBy('id').execute(),
    db.selectFrom('person_communications').selectAll().where('person_id', 'in', wanted).orderBy('id').execute(),
    db.selectFrom('person_contact_persons').selectAll().where('person_id', 'in', wanted).orderBy('id').execute(),
    options.bankAccounts
      ? db.selectFrom('person_bank_accounts').selectAll().where('person_id', 'in', wanted).orderBy('id').execute()
      : Promise.resolve([]),
  ]);
  const e = await Entries.load(db, [
    ...idsOf(persons, ['gender_id', 'marital_type_id', 'nationality_id']),
    ...idsOf(addresses, ['address_type_id', 'country_id']),
    ...idsOf(communications, ['communication_type_id']),
    ...idsOf(banks, ['bank_account_type_id', 'bank_account_usage_type_id']),
    ...(options.extraEntries ?? []),
  ]);
  const byPerson = {
    addresses: groupBy(addresses, 'person_id'),
    communications: groupBy(communications, 'person_id'),
    contacts: groupBy(contacts, 'person_id'),
    banks: groupBy(banks, 'person_id'),
  };
  const map = new Map<number, PersonBundle>(
    persons.map((p) => [
      p.id,
      {
        p,
        addresses: byPerson.addresses.get(p.id) ?? [],
        communications: byPerson.communications.get(p.id) ?? [],
        contacts: byPerson.contacts.get(p.id) ?? [],
        bankAccounts: byPerson.banks.get(p.id) ?? [],
      },
    ]),
  );
  return { get: (id) => (id === null ? undefined : map.get(id)), e };
}
