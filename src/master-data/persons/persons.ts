// PersonsRead/Persons (v1.2, v1.0) and PersonsRead/Person/{id} (v1.0): persons visible through the ledgers the caller
// may see (decisions §7), with addresses, communications and bank accounts on request.
import { PERMISSIONS } from '../../auth/permissions.ts';
import { windowed } from '../../rent-accounting/contracts.ts';
import type { MasterRoute, ReadContext } from '../engine.ts';
import type { Query } from '../params.ts';
import { personVisible } from '../present.ts';
import { PersonV10, PersonV12 } from '../shapes.ts';
import { loadPeople } from './load.ts';
import { PERSON_KEEP, personV10, personV12, type PersonIncludes } from './present.ts';

async function visiblePeople(ctx: ReadContext) {
  const { q } = ctx;
  let qb = ctx.db
    .selectFrom('persons as p')
    .select('p.id')
    .where((eb) => personVisible(eb.ref('p.id'), ctx.scope));
  const id = ctx.id ?? q.personId;
  if (id !== undefined) qb = qb.where('p.id', '=', Number(id));
  if (q.personIdNum !== undefined) qb = qb.where('p.id_num', '=', String(q.personIdNum));
  const ids = (await windowed(qb, 'p.id', ctx.window).execute()).map((r) => r.id);
  return { ids, people: await loadPeople(ctx.db, ids, { bankAccounts: q.includeBankaccount === true }) };
}

const includes = (q: Query): PersonIncludes => ({
  addresses: q.includeAddress === true,
  communications: q.includeCommunication === true,
  bankAccounts: q.includeBankaccount === true,
  firstCommunications: true,
});

const base = {
  tag: 'PersonsRead',
  summary: 'Persons (natural and legal), visible through the ledgers they are linked to',
  permissions: [PERMISSIONS.personsRead],
};

export const personsV12: MasterRoute = {
  ...base,
  url: '/v1.2/PersonsRead/Persons',
  params: ['personId', 'personIdNum', 'includeAddress', 'includeCommunication', 'includeBankaccount'],
  listing: 'paged',
  shape: PersonV12,
  keep: new Set(PERSON_KEEP),
  async read(ctx) {
    const { ids, people } = await visiblePeople(ctx);
    return ids.flatMap((id) => {
      const b = people.get(id);
      return b ? [personV12(b, people.e, includes(ctx.q))] : [];
    });
  },
};

async function readV10(ctx: ReadContext) {
  const { ids, people } = await visiblePeople(ctx);
  return ids.flatMap((id) => {
    const b = people.get(id);
    return b ? [personV10(b, people.e, includes(ctx.q))] : [];
  });
}

export const personsV10: MasterRoute = {
  ...base,
  url: '/v1.0/PersonsRead/Persons',
  params: ['personId', 'includeAddress', 'includeCommunication', 'includeBankaccount'],
  listing: 'v1.0',
  shape: PersonV10,
  keep: 'all',
  read: readV10,
};

export const personV10ById: MasterRoute = {
  ...base,
  summary: 'One person by Id',
  url: '/v1.0/PersonsRead/Person',
  params: ['includeAddress', 'includeCommunication', 'includeBankaccount'],
  listing: 'single',
  shape: PersonV10,
  keep: 'all',
  read: readV10,
};
