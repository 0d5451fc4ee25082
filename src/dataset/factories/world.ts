// A small coherent world: shared catalogues plus, per ledger, master data, running-cost distribution and rent accounting.
import type { Executor } from '../../db/database.ts';
import { CATALOG_KINDS, type CatalogKind } from '../../master-data/tables.ts';
import { CONTRACT_AGREEMENT_KINDS, type ContractAgreementKind } from '../../rent-accounting/tables.ts';
import { insertCatalogCode, insertCompanyCode, insertExplanationGroup, insertFacility } from './core.ts';
import {
  insertBudget,
  insertBuilding,
  insertCostCenter,
  insertCostType,
  insertCostUnit,
  insertEconomicUnit,
  insertLand,
  insertLoan,
  insertOwner,
  insertUseUnit,
} from './master.ts';
import {
  insertLicenseAgreement,
  insertContractAgreement,
  insertPriceIndex,
  insertPriceIndexValue,
  insertUseUnitRentAdjustment,
} from './rent.ts';
import {
  insertAllocationGroup,
  insertAllocationGroupBase,
  insertAllocationGroupCostType,
  insertAllocationGroupUseUnit,
  insertCombinedAllocationGroup,
  insertDistributionPeriod,
  insertExplanation,
  insertOptionTax,
} from './running-cost.ts';

/** `perKind` codes of every catalogue kind; returns their ids by kind (lowest first). */
export async function insertCatalog(db: Executor, perKind = 2): Promise<Record<CatalogKind, number[]>> {
  const ids = {} as Record<CatalogKind, number[]>;
  for (const kind of CATALOG_KINDS) {
    ids[kind] = [];
    for (let i = 0; i < perKind; i++) ids[kind].push((await insertCatalogCode(db, kind)).id);
  }
  return ids;
}

export interface WorldLedger {
  companyCodeId: number;
  ownerId: number;
  economicUnitIds: number[];
  buildingIds: number[];
  landIds: number[];
  useUnitIds: number[];
  budgetIds: number[];
  loanIds: number[];
  costCenterId: number;
  costUnitId: number;
  costTypeId: number;
  allocationGroupIds: number[];
  combinedAllocationGroupIds: number[];
  allocationGroupBaseIds: number[];
  licenseAgreementIds: number[];
  /** One contract agreement of each kind. */
  contractAgreementIds: Record<ContractAgreementKind, number>;
  rentAdjustmentIds: number[];
}

export interface World {
  catalog: Record<CatalogKind, number[]>;
  facilityIds: number[];
  explanationGroupIds: number[];
  distributionPeriodIds: number[];
  priceIndexIds: number[];
  priceIndexValueIds: number[];
  ledgers: WorldLedger[];
}

export interface WorldOptions {
  /** Number of ledgers (company codes); default 2. */
  ledgers?: number;
}

export async function buildWorld(db: Executor, opts: WorldOptions = {}): Promise<World> {
  const catalog = await insertCatalog(db);
  const facilityIds = [(await insertFacility(db)).id];
  const explanationGroupIds = [(await insertExplanationGroup(db)).id, (await insertExplanationGroup(db)).id];
  const distributionPeriodIds = [(await insertDistributionPeriod(db)).id, (await insertDistributionPeriod(db)).id];
  const priceIndexIds: number[] = [];
  const priceIndexValueIds: number[] = [];
  for (let i = 0; i < 2; i++) {
    const index = await insertPriceIndex(db);
    priceIndexIds.push(index.id);
    for (let v = 0; v < 3; v++)
      priceIndexValueIds.push((await insertPriceIndexValue(db, { price_index_id: index.id })).id);
  }
  const ledgers: WorldLedger[] = [];
  for (let l = 0; l < (opts.ledgers ?? 2); l++)
    ledgers.push(await buildLedger(db, catalog, distributionPeriodIds, explanationGroupIds));
  return {
    catalog,
    facilityIds,
    explanationGroupIds,
    distributionPeriodIds,
    priceIndexIds,
    priceIndexValueIds,
    ledgers,
  };
}

async function buildLedger(
  db: Executor,
  catalog: Record<CatalogKind, number[]>,
  periods: number[],
  explanationGroups: number[],
): Promise<WorldLedger> {
  const company_code_id = (await insertCompanyCode(db)).id;
  const owner_id = (await insertOwner(db, { company_code_id })).id;
  const w: WorldLedger = {
    companyCodeId: company_code_id,
    ownerId: owner_id,
    economicUnitIds: [],
    buildingIds: [],
    landIds: [],
    useUnitIds: [],
    budgetIds: [(await insertBudget(db, { company_code_id })).id],
    loanIds: [(await insertLoan(db, { company_code_id })).id],
    costCenterId: (await insertCostCenter(db, { company_code_id })).id,
    costUnitId: (await insertCostUnit(db, { company_code_id })).id,
    costTypeId: (await insertCostType(db, { company_code_id })).id,
    allocationGroupIds: [],
    combinedAllocationGroupIds: [],
    allocationGroupBaseIds: [],
    licenseAgreementIds: [],
    contractAgreementIds: {} as Record<ContractAgreementKind, number>,
    rentAdjustmentIds: [],
  };
  for (let e = 0; e < 2; e++) {
    const eu = await insertEconomicUnit(db, { company_code_id });
    const building = await insertBuilding(db, { economic_unit_id: eu.id, company_code_id });
    w.economicUnitIds.push(eu.id);
    w.buildingIds.push(building.id);
    w.landIds.push((await insertLand(db, { economic_unit_id: eu.id, company_code_id })).id);
    const useUnits = [];
    for (let u = 0; u < 2; u++)
      useUnits.push(
        (await insertUseUnit(db, { economic_unit_id: eu.id, company_code_id, building_id: building.id })).id,
      );
    w.useUnitIds.push(...useUnits);

    const group = await insertAllocationGroup(db, {
      owner_id,
      company_code_id,
      distribution_period_id: periods[e % periods.length],
      allocation_group_state_id: catalog.AllocationGroupState[e % 2],
      previous_allocation_group_id: w.allocationGroupIds[0] ?? null,
      is_cleared: e % 2,
    });
    w.allocationGroupIds.push(group.id);
    for (const useUnit of useUnits) await insertAllocationGroupUseUnit(db, group.id, useUnit);
    for (const costType of catalog.AllocationGroupCostType)
      await insertAllocationGroupCostType(db, { allocation_group_id: group.id }, costType);
    await insertExplanation(db, { allocation_group_id: group.id }, { explanation_group_id: explanationGroups[0] });
    await insertOptionTax(
      db,
      { allocation_group_id: group.id },
      { option_tax: '0.19', valid_from: '2020-01-01', valid_to: '2023-12-31' },
    );
    await insertOptionTax(db, { allocation_group_id: group.id }, { option_tax: '0.07', valid_from: '2024-01-01' });

    const combined = await insertCombinedAllocationGroup(db);
    w.combinedAllocationGroupIds.push(combined.id);
    await insertExplanation(
      db,
      { combined_allocation_group_id: combined.id },
      { explanation_group_id: explanationGroups[1] },
    );
    const base = await insertAllocationGroupBase(db, {
      allocation_group_id: group.id,
      combined_allocation_group_id: combined.id,
      previous_allocation_group_base_id: w.allocationGroupBaseIds[0] ?? null,
    });
    w.allocationGroupBaseIds.push(base.id);
    await insertAllocationGroupCostType(db, { allocation_group_base_id: base.id }, catalog.AllocationGroupCostType[0]);
    await insertOptionTax(db, { allocation_group_base_id: base.id }, { option_tax: '0.19', valid_from: '2024-01-01' });
  }
  for (const use_unit_id of w.useUnitIds)
    w.licenseAgreementIds.push((await insertLicenseAgreement(db, { use_unit_id })).id);
  for (const [i, kind] of CONTRACT_AGREEMENT_KINDS.entries()) {
    const license_agreement_id = w.licenseAgreementIds[i % w.licenseAgreementIds.length];
    w.contractAgreementIds[kind] = (await insertContractAgreement(db, kind, { license_agreement_id })).id;
  }
  w.rentAdjustmentIds.push((await insertUseUnitRentAdjustment(db, { use_unit_id: w.useUnitIds[0] })).id);
  return w;
}
