// Catalogue endpoints: the whole catalogue of one kind (limit/offset accepted and ignored), vendor ids per kind.
import { PERMISSIONS, type Permission } from '../auth/permissions.ts';
import type { MasterCatalogKind } from './catalog-kinds.ts';
import type { Item, MasterRoute } from './engine.ts';
import type { Entry } from './present.ts';
import { IdName, type ShapeObject } from './shapes.ts';

function catalogue(
  url: MasterRoute['url'],
  tag: string,
  kind: MasterCatalogKind,
  permissions: Permission[],
  shape: ShapeObject = IdName,
  present: (e: Entry) => Item = (e) => ({ Id: e.kind_id, Name: e.name }),
): MasterRoute {
  return {
    url,
    tag,
    summary: `The ${kind} catalogue`,
    permissions,
    params: [],
    listing: 'catalogue',
    shape,
    keep: new Set(Object.keys(shape)),
    async read(ctx) {
      const rows = await ctx.db
        .selectFrom('catalog_entries')
        .selectAll()
        .where('kind', '=', kind)
        .orderBy('kind_id')
        .execute();
      return rows.map(present);
    },
  };
}

const objectData = [PERMISSIONS.objectDataRead];
export const CATALOGUE_ROUTES: MasterRoute[] = [
  catalogue('/v1.0/RentAccountingPersonDetails/ContractorTypes', 'RentAccountingPersonDetails', 'ContractorType', [
    PERMISSIONS.rentAccountingRead,
  ]),
  catalogue('/v1.2/CommercialInventoryCatalog/Districts', 'CommercialInventoryCatalog', 'District', objectData),
  catalogue('/v1.2/CommercialInventoryCatalog/BuildingTypes', 'CommercialInventoryCatalog', 'BuildingType', objectData),
  catalogue(
    '/v1.2/CommercialInventoryCatalog/UseUnitType',
    'CommercialInventoryCatalog',
    'UseUnitType',
    objectData,
    { Id: 'int', Name: 'string', Classification: 'string' },
    (e) => ({ Id: e.kind_id, Name: e.name, Classification: e.classification }),
  ),
];
