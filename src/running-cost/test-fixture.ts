// Test data and helpers shared by the running-cost tests: a world of three ledgers plus records with unusual
// values (special characters for searchPattern, every nullable field null).
import type { LightMyRequestResponse } from 'fastify';
import { bearer, testApp, type TestApp } from '../../test/helpers/app.ts';
import type { DialectName } from '../db/database.ts';
import {
  buildWorld,
  insertAllocationGroup,
  insertAllocationGroupBase,
  insertCombinedAllocationGroup,
  insertOwner,
  type World,
} from '../dataset/factories.ts';

export const BASE = '/service/v1.2/RunningCostDistributionRead';

export interface Fixture {
  t: TestApp;
  world: World;
  /** Token of a user with every permission and every ledger. */
  token: string;
  /** X: accented search pattern with % and _ (ledger 0); Y: every nullable field null (ledger 1); Z: backslash (ledger 2). */
  groups: { x: number; y: number; z: number };
  bases: { x: number; y: number; z: number };
  get(path: string, query?: string, token?: string): Promise<LightMyRequestResponse>;
}

export async function runningCostFixture(dialect: DialectName): Promise<Fixture> {
  const t = await testApp(dialect);
  const db = t.database.db;
  const world = await buildWorld(db, { ledgers: 3 });
  const [l0, l1, l2] = world.ledgers;
  const { catalog } = world;

  const ownerX = await insertOwner(db, { company_code_id: l0.companyCodeId });
  const gx = await insertAllocationGroup(db, {
    owner_id: ownerX.id,
    company_code_id: l0.companyCodeId,
    distribution_period_id: world.distributionPeriodIds[1],
    distribution_type_id: catalog.DistributionType[1],
    prepayment_block_id: catalog.PrepaymentBlock[1],
    code: 'X-1',
    search_pattern: 'Müller_50%',
    location: 'HINTERHAUS',
    individual_ownership_management: 1,
  });
  const gy = await insertAllocationGroup(db, {
    owner_id: l1.ownerId,
    company_code_id: l1.companyCodeId,
    distribution_period_id: world.distributionPeriodIds[0],
    code: null,
    search_pattern: null,
    location: null,
    prepayment_block_id: null,
    distribution_type_id: null,
  });
  const gz = await insertAllocationGroup(db, {
    owner_id: l2.ownerId,
    company_code_id: l2.companyCodeId,
    distribution_period_id: world.distributionPeriodIds[1],
    prepayment_block_id: catalog.PrepaymentBlock[1],
    code: 'Z_1',
    search_pattern: 'a\\b c',
    location: 'Straße 5',
  });

  const bx = await insertAllocationGroupBase(db, {
    allocation_group_id: gx.id,
    code: 'BX-1',
    search_pattern: 'Müller_50%',
    location: 'HINTERHAUS',
  });
  const nullCombined = await insertCombinedAllocationGroup(db, {
    units_total: null,
    costs_per_unit: null,
    warm_water_fuel_consumption: null,
    warm_water_heat_quantity: null,
    inventory_changes_amount: null,
    combined_allocation_group_type_id: null,
    fuel_energy_type_id: null,
    facility_id: null,
    settlement_state_id: null,
    elementary_distribution_key_id: null,
  });
  const by = await insertAllocationGroupBase(db, {
    allocation_group_id: gy.id,
    combined_allocation_group_id: nullCombined.id,
    code: null,
    search_pattern: null,
    location: null,
    prepayment_block_id: null,
  });
  const bz = await insertAllocationGroupBase(db, {
    allocation_group_id: gz.id,
    code: 'Z_1',
    search_pattern: 'a\\b c',
    location: 'Straße 5',
  });

  const token = await t.login();
  return {
    t,
    world,
    token,
    groups: { x: gx.id, y: gy.id, z: gz.id },
    bases: { x: bx.id, y: by.id, z: bz.id },
    get: (path, query = '', tok = token) =>
      t.app.inject({ url: `${BASE}/${path}${query ? `?${query}` : ''}`, headers: bearer(tok) }),
  };
}

/** Every page of `path` with the given page size, concatenated (stops at the first short page). */
export async function allPages(f: Fixture, path: string, limit: number, query = ''): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let offset = 0; ; offset += limit) {
    const res = await f.get(path, `limit=${limit}&offset=${offset}${query ? `&${query}` : ''}`);
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    const page = res.json() as unknown[];
    out.push(...page);
    if (page.length < limit) return out;
  }
}
