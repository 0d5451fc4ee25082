// Area: master data read by vendor clients (decisions §7, docs/master-data.md). Every endpoint is listed here once,
// literally, beside the route that serves it; engine.ts registers them.
import type { App } from '../app-types.ts';
import { registerMasterRoute, type MasterRoute } from './engine.ts';
import { licenseAgreementsV10, licenseAgreementsV12 } from './rent/license-agreements.ts';
import { useUnitsV10, useUnitsV12 } from './inventory/use-units.ts';
import { economicUnitsV10, economicUnitsV12 } from './inventory/economic-units.ts';
import { buildingLandsV10, buildingLandsV12 } from './inventory/building-lands.ts';
import { personsV10, personsV12, personV10ById } from './persons/persons.ts';
import { contractorsV10, contractorsV11, contractorsV12 } from './rent/contractors.ts';
import { paymentModesV12 } from './rent/payment-modes.ts';
import { CATALOGUE_ROUTES } from './catalogues.ts';
import { contractPositionsV10, contractPositionsV12 } from './rent/contract-positions.ts';
import { departmentsV12, managementsV12, ownersV12, responsibleOfficialsV12 } from './inventory/organisation.ts';
import { JURISDICTION_ROUTES } from './inventory/jurisdictions.ts';
import { managementsV10, ownersV10, ownersV11 } from './inventory/organisation-v10.ts';
import { loansV12, onlineRepaymentPlanV12, repaymentPlanV12 } from './loans/loans.ts';

export const MASTER_ROUTES: MasterRoute[] = [
  licenseAgreementsV12,
  licenseAgreementsV10,
  useUnitsV12,
  useUnitsV10,
  economicUnitsV12,
  economicUnitsV10,
  buildingLandsV12,
  buildingLandsV10,
  personsV12,
  personsV10,
  personV10ById,
  contractorsV12,
  contractorsV11,
  contractorsV10,
  paymentModesV12,
  contractPositionsV12,
  contractPositionsV10,
  managementsV12,
  ownersV12,
  departmentsV12,
  responsibleOfficialsV12,
  ...JURISDICTION_ROUTES,
  ...CATALOGUE_ROUTES,
  loansV12,
  repaymentPlanV12,
  ownersV11,
  ownersV10,
  managementsV10,
  onlineRepaymentPlanV12,
];

export default async function masterDataArea(app: App): Promise<void> {
  for (const route of MASTER_ROUTES) registerMasterRoute(app, route);
}
