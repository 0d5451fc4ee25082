// Area: running-cost distribution (controller RunningCostDistributionRead, v1.2): DistributionPeriods,
// AllocationGroups (deprecated, withdrawn 2026-12-31) and AllocationGroupBases. Choices: docs/running-cost.md.
import { Type } from '@sinclair/typebox';
import type { App, RouteAuth } from '../app-types.ts';
import { PERMISSIONS } from '../auth/permissions.ts';
import { ErrorMapSchema, errorResponses, type PagingValues } from '../http/schemas.ts';
import {
  AllocationGroup,
  AllocationGroupBase,
  AllocationGroupBasesQuery,
  AllocationGroupsQuery,
  DistributionPeriod,
  DistributionPeriodsQuery,
} from './schemas.ts';
import { listAllocationGroupBases, listAllocationGroups, listDistributionPeriods, type Page } from './queries.ts';
import { loadBaseChildren, loadGroupChildren, type Includes } from './children.ts';
import { presentAllocationGroup, presentAllocationGroupBase, presentDistributionPeriod } from './presenters.ts';
import { allocationGroupsWithdrawal, SUNSET, WITHDRAWAL_HEADERS } from './sunset.ts';
import { SEARCH_PATTERN_RULE } from './search.ts';
import { readBasePage } from './read-model.ts';

const BASE = '/v1.2/RunningCostDistributionRead';
const AUTH: RouteAuth = {
  permissions: [PERMISSIONS.runningCostMasterData, PERMISSIONS.runningCostRead],
  apiKey: 'optional',
};
const tags = ['RunningCostDistributionRead'];
const COMMON =
  'Needs the permissions Umlageabrechnung-Stammdaten and Umlageabrechnung-lesen. Ordered by Id ascending; paged with limit ' +
  '(1..100, default 20) and offset. Filters combine with AND; an unknown id gives []. Records outside the ledgers of the ' +
  'apiKey (or of the user) are not returned. The arrays behind the include flags are null unless their flag is true. ' +
  `searchPattern: ${SEARCH_PATTERN_RULE}`;

const pageOf = (q: object): Page => {
  const { limit, offset } = q as PagingValues;
  return { limit, offset };
};

const includesOf = (q: {
  includeUseUnits?: boolean;
  includeCostTypes?: boolean;
  includeExplanations?: boolean;
  includeOptionTaxes?: boolean;
}): Includes => ({
  useUnits: q.includeUseUnits === true,
  costTypes: q.includeCostTypes === true,
  explanations: q.includeExplanations === true,
  optionTaxes: q.includeOptionTaxes === true,
});

export default async function runningCostArea(app: App): Promise<void> {
  app.get(
    `${BASE}/DistributionPeriods`,
    {
      config: { auth: AUTH, cache: true },
      schema: {
        tags,
        summary: 'Distribution periods',
        description:
          'The shared catalogue of distribution periods (visible to every ledger). Ordered by Id ascending; paged with limit and offset.',
        querystring: DistributionPeriodsQuery,
        response: { 200: Type.Array(DistributionPeriod), ...errorResponses },
      },
    },
    async (request) => {
      const rows = await listDistributionPeriods(app.db, pageOf(request.query));
      return rows.map(presentDistributionPeriod);
    },
  );

  app.get(
    `${BASE}/AllocationGroups`,
    {
      config: { auth: AUTH, cache: true },
      ...allocationGroupsWithdrawal(() => app.now()),
      schema: {
        tags,
        deprecated: true,
        summary: 'Allocation groups (deprecated: withdrawn on 2026-12-31, use AllocationGroupBases)',
        description:
          `Plain allocation groups (without the combined ones); their Ids are the AllocationGroup.Id of AllocationGroupBases. ${COMMON} ` +
          `Answers with Deprecation, Sunset (${SUNSET.toUTCString()}) and a Link (rel="successor-version") to AllocationGroupBases; ` +
          'from 2027-01-01 it answers 410 Gone.',
        querystring: AllocationGroupsQuery,
        response: { 200: Type.Array(AllocationGroup), ...errorResponses, 410: ErrorMapSchema },
        responseHeaders: WITHDRAWAL_HEADERS,
      },
    },
    async (request) => {
      const q = request.query;
      const filters = {
        id: q.allocationGroupId,
        code: q.allocationGroupCode,
        ownerId: q.ownerId,
        companyCodeId: q.companyCodeId,
        distributionPeriodId: q.distributionPeriodId,
        prepaymentBlockId: q.prepaymentBlockId,
        distributionTypeId: q.distributionTypeId,
        searchPattern: q.searchPattern,
      };
      const rows = await listAllocationGroups(app.db, filters, request.scope, pageOf(q));
      const children = await loadGroupChildren(
        app.db,
        rows.map((r) => r.id),
        includesOf(q),
      );
      return rows.map((row) => presentAllocationGroup(row, children));
    },
  );

  app.get(
    `${BASE}/AllocationGroupBases`,
    {
      config: { auth: AUTH, cache: true },
      schema: {
        tags,
        summary: 'Allocation-group bases (allocation groups with their cost associations)',
        description: `The usual query for allocation groups: each base with its AllocationGroup and its CombinedAllocationGroup. ${COMMON}`,
        querystring: AllocationGroupBasesQuery,
        response: { 200: Type.Array(AllocationGroupBase), ...errorResponses },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const filters = {
        id: q.allocationGroupBaseId,
        code: q.allocationGroupBaseCode,
        ownerId: q.ownerId,
        companyCodeId: q.companyCodeId,
        distributionPeriodId: q.distributionPeriodId,
        prepaymentBlockId: q.prepaymentBlockId,
        searchPattern: q.searchPattern,
      };
      // the persisted read model when it is fresh: the page's JSON text as it is (no serializer); else the live path
      const keepNulls = (q as { showNullValues?: boolean }).showNullValues === true;
      const json = await readBasePage(app.db, filters, request.scope, pageOf(q), includesOf(q), keepNulls);
      // (a string payload skips serialization; the response type does not know that)
      if (json !== undefined) return reply.type('application/json; charset=utf-8').send(json as never);
      const rows = await listAllocationGroupBases(app.db, filters, request.scope, pageOf(q));
      const children = await loadBaseChildren(app.db, rows, includesOf(q));
      return rows.map((row) => presentAllocationGroupBase(row, children));
    },
  );
}
