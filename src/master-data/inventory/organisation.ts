// CommercialInventory/Owners, Managements, ResponsibleOfficial and Department (v1.2): the persons and organisation
// around the economic units. Owners are scoped by their ledger, managements by their company codes, officials by
// the jurisdictions they hold, departments by their management's company codes.
import { sql, type SqlBool } from 'kysely';
import { inScope, ledgerCondition, type LedgerScope } from '../../auth/ledger-scope.ts';
import { PERMISSIONS } from '../../auth/permissions.ts';
import { groupBy } from '../../db/group.ts';
import { windowed } from '../../rent-accounting/contracts.ts';
import type { Item, MasterRoute, ReadContext } from '../engine.ts';
import type { ParamName, Query } from '../params.ts';
import { companyCode, Entries, flag } from '../present.ts';
import { loadPeople, type People } from '../persons/load.ts';
import { addressV12, bankAccount, mainAddress, nestedPerson, PERSON_KEEP } from '../persons/present.ts';
import { Address, BankAccount, CompanyCode, IdName, NestedPerson, type ShapeObject } from '../shapes.ts';

const INCLUDES: ParamName[] = [
  ...(['includeMainAddress', 'includeMainCommunication', 'includeMainBankaccount', 'includePersonAddresses'] as const),
  ...(['includePersonCommunications', 'includePersonBankAccounts', 'includeCompanyCodes'] as const),
];

/** The person, its main address and its first bank account, as the include flags say. */
function personParts(people: People, personId: number | null, q: Query): Item {
  const b = people.get(personId);
  const main = b && mainAddress(b);
  const account = b?.bankAccounts[0];
  return {
    Person: b
      ? nestedPerson(b, people.e, {
          addresses: q.includePersonAddresses === true,
          communications: q.includePersonCommunications === true,
          bankAccounts: q.includePersonBankAccounts === true,
          firstCommunications: q.includeMainCommunication === true,
        })
      : null,
    DefaultAddress: main ? addressV12(main, people.e) : null,
    DefaultBankaccount: account && q.includeMainBankaccount === true ? bankAccount(account, people.e) : null,
  };
}
export const people = (ctx: ReadContext, ids: (number | null)[], extra: (number | null)[] = []) =>
  loadPeople(ctx.db, ids, {
    bankAccounts: ctx.q.includePersonBankAccounts === true || ctx.q.includeMainBankaccount === true,
    extraEntries: extra,
  });
/** Managements (alias m, or the column given) the key may see: those of a ledger it can see. */
export const managedIn = (scope: LedgerScope, column = 'm.id') =>
  scope.all
    ? sql<SqlBool>`1 = 1`
    : sql<SqlBool>`${sql.ref(column)} in (select management_id from management_company_codes where company_code_id in (${sql.join(scope.ids.length ? scope.ids : [-1])}))`;

/** Responsible officials (alias ro) the key may see: those with a jurisdiction in a ledger it can see. */
const officialsIn = (scope: LedgerScope) =>
  scope.all
    ? sql<SqlBool>`1 = 1`
    : sql<SqlBool>`ro.id in (select responsible_official_id from jurisdictions where company_code_id in (${sql.join(scope.ids.length ? scope.ids : [-1])}))`;

const PARTS: ShapeObject = { Person: NestedPerson, DefaultAddress: Address, DefaultBankaccount: BankAccount };
const KEEP = [...PERSON_KEEP, 'Person', 'DefaultAddress', 'CompanyCodes'];
const base = { tag: 'CommercialInventory', listing: 'paged' as const };

export const ownersV12: MasterRoute = {
  ...base,
  url: '/v1.2/CommercialInventory/Owners',
  summary: 'Owners of economic units, with their person',
  permissions: [PERMISSIONS.objectDataRead, PERMISSIONS.personsRead],
  params: ['ownerId', 'ownerNumber', 'personId', ...INCLUDES],
  shape: { Id: 'int', OwnerNumber: 'string', IsCondominium: 'bool', ...PARTS, CompanyCodes: [CompanyCode] },
  keep: new Set([...KEEP, 'OwnerNumber', 'IsCondominium']),
  async read(ctx) {
    const { q } = ctx;
    let qb = ctx.db
      .selectFrom('owners as o')
      .selectAll('o')
      .where((eb) => ledgerCondition(eb.ref('o.company_code_id'), ctx.scope));
    if (q.ownerId !== undefined) qb = qb.where('o.id', '=', Number(q.ownerId));
    if (q.ownerNumber !== undefined) qb = qb.where('o.owner_number', '=', String(q.ownerNumber));
    if (q.personId !== undefined) qb = qb.where('o.person_id', '=', Number(q.personId));
    const list = await windowed(qb, 'o.id', ctx.window).execute();
    const p = await people(
      ctx,
      list.map((r) => r.person_id),
    );
    // CompanyCodes is an empty list: clients cannot parse filled entries of the vendor's shape (decisions §7)
    return list.map((r) => ({
      Id: r.id,
      OwnerNumber: r.owner_number,
      IsCondominium: flag(r.is_condominium) ?? false,
      ...personParts(p, r.person_id, q),
      CompanyCodes: [],
    }));
  },
};

export const managementsV12: MasterRoute = {
  ...base,
  url: '/v1.2/CommercialInventory/Managements',
  summary: 'Managements (administration companies), with their person and ledgers',
  permissions: [PERMISSIONS.objectDataRead, PERMISSIONS.personsRead],
  params: ['managementId', 'managementIdNum', 'personId', ...INCLUDES],
  shape: {
    ...{ Id: 'int', IdNum: 'string', Name: 'string', NodeId: 'int', ParentManagementId: 'int' },
    ...{ AdministrationType: IdName, ...PARTS, CompanyCodes: [CompanyCode] },
  },
  keep: new Set([...KEEP, 'NodeId', 'ParentManagementId', 'AdministrationType']),
  async read(ctx) {
    const { q } = ctx;
    let qb = ctx.db.selectFrom('managements as m').selectAll('m').where(managedIn(ctx.scope));
    if (q.managementId !== undefined) qb = qb.where('m.id', '=', Number(q.managementId));
    if (q.managementIdNum !== undefined) qb = qb.where('m.id_num', '=', String(q.managementIdNum));
    if (q.personId !== undefined) qb = qb.where('m.person_id', '=', Number(q.personId));
    const list = await windowed(qb, 'm.id', ctx.window).execute();
    const ids = list.map((r) => r.id);
    const codes = ids.length
      ? await ctx.db
          .selectFrom('management_company_codes as mc')
          .innerJoin('company_codes as cc', 'cc.id', 'mc.company_code_id')
          .select(['mc.management_id', 'cc.id', 'cc.name', 'cc.code'])
          .where('mc.management_id', 'in', ids)
          .orderBy('cc.id')
          .execute()
      : [];
    const byManagement = groupBy(codes, 'management_id');
    const p = await people(
      ctx,
      list.map((r) => r.person_id),
      list.map((r) => r.administration_type_id),
    );
    return list.map((r) => ({
      ...{ Id: r.id, IdNum: r.id_num, Name: r.name, NodeId: r.node_id, ParentManagementId: r.parent_management_id },
      AdministrationType: p.e.idName(r.administration_type_id),
      ...personParts(p, r.person_id, q),
      CompanyCodes:
        q.includeCompanyCodes === true
          ? (byManagement.get(r.id) ?? [])
              .filter((c) => inScope(ctx.scope, c.id)) // a ledger the caller cannot see is not named (decisions §7)
              .map((c) => companyCode(c.id, c.name, c.code))
          : null,
    }));
  },
};

export const responsibleOfficialsV12: MasterRoute = {
  ...base,
  url: '/v1.2/CommercialInventory/ResponsibleOfficial',
  summary: 'Responsible officials (case workers), with their person',
  permissions: [PERMISSIONS.objectDataRead, PERMISSIONS.personsRead],
  params: ['personId', 'includePersonCommunications', 'includeMainCommunication'],
  shape: {
    ...{ Id: 'int', CodeShort: 'string', AutomaticMailsActivated: 'bool', UniversalResponsibilityPossible: 'bool' },
    ...{ UserId: 'int', Person: NestedPerson, DefaultAddress: Address },
  },
  keep: new Set([...KEEP, 'CodeShort', 'AutomaticMailsActivated', 'UniversalResponsibilityPossible', 'UserId']),
  async read(ctx) {
    const { q, scope } = ctx;
    let qb = ctx.db.selectFrom('responsible_officials as ro').selectAll('ro').where(officialsIn(scope));
    if (q.personId !== undefined) qb = qb.where('ro.person_id', '=', Number(q.personId));
    const list = await windowed(qb, 'ro.id', ctx.window).execute();
    const p = await people(
      ctx,
      list.map((r) => r.person_id),
    );
    return list.map((r) => {
      const { Person, DefaultAddress } = personParts(p, r.person_id, q);
      return {
        ...{ Id: r.id, CodeShort: r.code_short, AutomaticMailsActivated: flag(r.automatic_mails_activated) ?? false },
        UniversalResponsibilityPossible: flag(r.universal_responsibility_possible) ?? false,
        ...{ UserId: r.user_id, Person, DefaultAddress },
      };
    });
  },
};

export const departmentsV12: MasterRoute = {
  ...base,
  url: '/v1.2/CommercialInventory/Department',
  summary: 'Departments of the managements, with their responsible officials',
  permissions: [PERMISSIONS.objectDataRead],
  params: ['departmentId', 'departmentName'],
  shape: {
    ...{ Id: 'int', IdNum: 'string', Name: 'string', ManagementId: 'int', ParentId: 'int' },
    ...{ DepartmentType: IdName, ResponsibleOfficials: [{ Id: 'int', CodeShort: 'string', PersonId: 'int' }] },
  },
  keep: new Set(['Id', 'IdNum', 'Name', 'ManagementId', 'ParentId', 'DepartmentType', 'CodeShort', 'PersonId']),
  async read(ctx) {
    const { q } = ctx;
    let qb = ctx.db
      .selectFrom('departments as d')
      .leftJoin('managements as m', 'm.id', 'd.management_id')
      .selectAll('d')
      .where(managedIn(ctx.scope));
    if (q.departmentId !== undefined) qb = qb.where('d.id', '=', Number(q.departmentId));
    if (q.departmentName !== undefined) qb = qb.where('d.name', '=', String(q.departmentName));
    const list = await windowed(qb, 'd.id', ctx.window).execute();
    const ids = list.map((r) => r.id);
    const officials = ids.length
      ? await ctx.db
          .selectFrom('department_officials as x')
          .innerJoin('responsible_officials as ro', 'ro.id', 'x.responsible_official_id')
          .select(['x.department_id', 'ro.id', 'ro.code_short', 'ro.person_id'])
          .where('x.department_id', 'in', ids)
          // an official of other ledgers only is not shown (the ResponsibleOfficial list does not show it either)
          .where(officialsIn(ctx.scope))
          .orderBy('ro.id')
          .execute()
      : [];
    const byDepartment = groupBy(officials, 'department_id');
    const e = await Entries.load(
      ctx.db,
      list.map((r) => r.department_type_id),
    );
    return list.map((r) => ({
      ...{ Id: r.id, IdNum: r.id_num, Name: r.name, ManagementId: r.management_id, ParentId: r.parent_id },
      DepartmentType: e.idName(r.department_type_id),
      ResponsibleOfficials: (byDepartment.get(r.id) ?? []).map((o) => ({
        Id: o.id,
        CodeShort: o.code_short,
        PersonId: o.person_id,
      })),
    }));
  },
};
