// Area: rent accounting (controller RentAccounting, v1.0 and v1.2). Every endpoint is a descriptor served by the
// one generic read path of engine.ts; contract-agreement kinds yield their v1.2 and (where offered) v1.0 endpoint.
import type { App } from '../app-types.ts';
import { contractEndpoints } from './contracts.ts';
import { registerEndpoint, type Endpoint } from './engine.ts';
import { graduatedRent, indexRental, rentalUpperLimit, turnoverRent, vatOption } from './kinds-rent.ts';
import {
  distributionCostType,
  distributionSpecialCharge,
  grossRentsWithoutHeating,
  maxCostDistribution,
  prepaymentAdjustment,
  reminderChargeFixedAmount,
  reminderChargeInterest,
} from './kinds-charges.ts';
import {
  civilCodeAdaptationLock,
  minorRepairWork,
  multipleOptIn,
  specialUseRight,
  waiverOfTermination,
} from './kinds-terms.ts';
import { priceIndexEndpoint, priceIndexValueEndpoint } from './price-indices.ts';
import { useUnitRentAdjustmentsEndpoint } from './rent-adjustments.ts';

/** Every rent-accounting endpoint of both versions (17 + 2 of version 1.2, 8 of version 1.0). */
export const ENDPOINTS: Endpoint[] = [
  priceIndexEndpoint,
  priceIndexValueEndpoint,
  ...[
    indexRental,
    graduatedRent,
    turnoverRent,
    vatOption,
    rentalUpperLimit,
    grossRentsWithoutHeating,
    maxCostDistribution,
    distributionSpecialCharge,
    specialUseRight,
    prepaymentAdjustment,
    distributionCostType,
    multipleOptIn,
    minorRepairWork,
    civilCodeAdaptationLock,
    reminderChargeFixedAmount,
    reminderChargeInterest,
    waiverOfTermination,
  ].flatMap((kind) => contractEndpoints<any>(kind)),
  useUnitRentAdjustmentsEndpoint,
];

export default async function rentAccountingArea(app: App): Promise<void> {
  for (const endpoint of ENDPOINTS) registerEndpoint(app, endpoint);
}
