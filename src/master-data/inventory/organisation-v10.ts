// CommercialInventory/Owners v1.1 (the v1.2 record) and the flat version 1.0 records of Owners and Managements
// (vendor-master-data.md §2.7.1/§2.7.2, ✔ V): every key present (decisions §7), paged with limit/offset, without limit
// the complete list. An owner's address fields are its person's main address (validity included); CompanyNameId and
// CompanyName are the owner's ledger. Scoping as in v1.2 (organisation.ts).
import { ledgerCondition } from '../../auth/ledger-scope.ts';
import { windowed } from '../../rent-accounting/contracts.ts';
import type { MasterRoute } from '../engine.ts';
import { houseNumberComplete, streetComplete } from '../present.ts';
import { managedIn, managementsV12, ownersV12, people } from './organisation.ts';

export const ownersV11: MasterRoute = { ...ownersV12, url: '/v1.1/CommercialInventory/Owners' };

const V10 = { listing: 'v1.0' as const, keep: 'all' as const };

export const ownersV10: MasterRoute = {
  ...ownersV12,
  ...V10,
  url: '/v1.0/CommercialInventory/Owners',
  params: ['ownerId', 'ownerNumber', 'personId'],
  shape: {
    ...{ Id: 'int', PersonId: 'int', PersonNumber: 'string', OwnerNumber: 'string', CompanyNameId: 'int' },
    ...{ CompanyName: 'string', IsCondominium: 'bool', AddressTypeId: 'int', AddressType: 'string' },
    ...{ StreetComplete: 'string', Street: 'string', HouseNumber: 'string', HouseNumberAddition: 'string' },
    ...{ HouseNumberComplete: 'string', Zip: 'string', Town: 'string', CountryId: 'int', CountryCode: 'string' },
    ...{ ValidFrom: 'date', ValidTo: 'date' },
  },
  async read(ctx) {
    const { q } = ctx;
    let qb = ctx.db
      .selectFrom('owners as o')
      .innerJoin('company_codes as cc', 'cc.id', 'o.company_code_id')
      .selectAll('o')
      .select('cc.name as company_name')
      .where((eb) => ledgerCondition(eb.ref('o.company_code_id'), ctx.scope));
    if (q.ownerId !== undefined) qb = qb.where('o.id', '=', Number(q.ownerId));
    if (q.ownerNumber !== undefined) qb = qb.where('o.owner_number', '=', String(q.ownerNumber));
    if (q.personId !== undefined) qb = qb.where('o.person_id', '=', Number(q.personId));
    const list = await windowed(qb, 'o.id', ctx.window).execute();
    const p = await people(
      { ...ctx, q: {} },
      list.map((r) => r.person_id),
    );
    return list.map((r) => {
      const b = p.get(r.person_id);
      const a = b && (b.addresses.find((x) => x.main_address === 1) ?? b.addresses[0]);
      const type = p.e.get(a?.address_type_id);
      const country = p.e.get(a?.country_id);
      return {
        ...{ Id: r.id, PersonId: r.person_id, PersonNumber: b?.p.id_num ?? null, OwnerNumber: r.owner_number },
        ...{ CompanyNameId: r.company_code_id, CompanyName: r.company_name, IsCondominium: r.is_condominium === 1 },
        ...{ AddressTypeId: type?.kind_id ?? null, AddressType: type?.name ?? null },
        StreetComplete: a ? streetComplete(a) : null,
        ...{ Street: a?.street ?? null, HouseNumber: a?.house_number ?? null },
        HouseNumberAddition: a?.house_number_addition ?? null,
        HouseNumberComplete: a ? houseNumberComplete(a) : null,
        ...{ Zip: a?.zip ?? null, Town: a?.town ?? null },
        ...{ CountryId: country?.kind_id ?? null, CountryCode: country?.code ?? null },
        ...{ ValidFrom: a?.valid_from ?? null, ValidTo: a?.valid_to ?? null },
      };
    });
  },
};

export const managementsV10: MasterRoute = {
  ...managementsV12,
  ...V10,
  url: '/v1.0/CommercialInventory/Managements',
  params: ['managementId', 'managementIdNum', 'personId'],
  shape: {
    ...{ Id: 'int', IdNum: 'string', Name: 'string', AdministrationTypeId: 'int', AdministrationType: 'string' },
    ...{ PersonShortName: 'string', ParentManagementId: 'int', NodeId: 'int' },
  },
  async read(ctx) {
    const { q } = ctx;
    let qb = ctx.db
      .selectFrom('managements as m')
      .leftJoin('persons as p', 'p.id', 'm.person_id')
      .leftJoin('catalog_entries as at', 'at.id', 'm.administration_type_id')
      .selectAll('m')
      .select(['p.short_name', 'at.kind_id as administration_type_kind_id', 'at.name as administration_type'])
      .where(managedIn(ctx.scope));
    if (q.managementId !== undefined) qb = qb.where('m.id', '=', Number(q.managementId));
    if (q.managementIdNum !== undefined) qb = qb.where('m.id_num', '=', String(q.managementIdNum));
    if (q.personId !== undefined) qb = qb.where('m.person_id', '=', Number(q.personId));
    const list = await windowed(qb, 'm.id', ctx.window).execute();
    return list.map((r) => ({
      ...{ Id: r.id, IdNum: r.id_num, Name: r.name },
      ...{ AdministrationTypeId: r.administration_type_kind_id, AdministrationType: r.administration_type },
      ...{ PersonShortName: r.short_name, ParentManagementId: r.parent_management_id, NodeId: r.node_id },
    }));
  },
};
