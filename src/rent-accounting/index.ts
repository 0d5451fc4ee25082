// Area: rent accounting (controller RentAccounting, v1.0 and v1.2). Every endpoint is a reader served by the one
// generic read path of engine.ts; ENDPOINTS lists each path once, literally, beside the reader that serves it.
import type { App } from '../app-types.ts';
import type { Executor } from '../db/database.ts';
import { contractReadModel } from './read-model.ts';
import { contractReaders, type ContractKind } from './contracts.ts';
import { endpoint, registerEndpoint, type Endpoint } from './engine.ts';
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
import { priceIndexReader, priceIndexValueReader } from './price-indices.ts';
import { useUnitRentAdjustmentsReader } from './rent-adjustments.ts';

/** The persisted texts of every contract kind below (read-model.ts): answers pages and lists when fresh. */
const readModel = contractReadModel();

/** A contract-agreement kind at its version 1.2 path and, where version 1.0 offers it, its version 1.0 path. */
function contract<L>(kind: ContractKind<L>, v12: `/v1.2/${string}`, v10?: `/v1.0/${string}`): Endpoint[] {
  const all = contractReaders(kind);
  if (v10 && !all.v10) throw new Error(`${kind.kind} has no version 1.0 view for ${v10}`);
  // the read model stores the views that have a path
  const readers = readModel.add(kind.kind, { v12: all.v12, v10: v10 ? all.v10 : undefined });
  return [endpoint(v12, readers.v12), ...(v10 && readers.v10 ? [endpoint(v10, readers.v10)] : [])];
}

/** Every rent-accounting endpoint of both versions (17 + 2 of version 1.2, 8 of version 1.0). */
export const ENDPOINTS: Endpoint[] = [
  endpoint('/v1.2/RentAccounting/PriceIndex', priceIndexReader),
  endpoint('/v1.2/RentAccounting/PriceIndexValue', priceIndexValueReader),
  ...contract(
    indexRental,
    '/v1.2/RentAccounting/ContractAgreement/IndexRentalAgreement',
    '/v1.0/RentAccounting/IndexRentalAgreement',
  ),
  ...contract(
    graduatedRent,
    '/v1.2/RentAccounting/ContractAgreement/GraduatedRentAgreement',
    '/v1.0/RentAccounting/GraduatedRentAgreement',
  ),
  ...contract(
    turnoverRent,
    '/v1.2/RentAccounting/ContractAgreement/TurnoverRentAgreement',
    '/v1.0/RentAccounting/TurnoverRentAgreement',
  ),
  ...contract(
    vatOption,
    '/v1.2/RentAccounting/ContractAgreement/VatOptionAgreement',
    '/v1.0/RentAccounting/VATOptionAgreement',
  ),
  ...contract(
    rentalUpperLimit,
    '/v1.2/RentAccounting/ContractAgreement/RentalUpperLimit',
    '/v1.0/RentAccounting/RentalUpperLimit',
  ),
  ...contract(
    grossRentsWithoutHeating,
    '/v1.2/RentAccounting/ContractAgreement/GrossRentsWithoutHeating',
    '/v1.0/RentAccounting/GrossRentsWithoutHeating',
  ),
  ...contract(
    maxCostDistribution,
    '/v1.2/RentAccounting/ContractAgreement/MaxCostDistribution',
    '/v1.0/RentAccounting/MaxCostDistribution',
  ),
  ...contract(distributionSpecialCharge, '/v1.2/RentAccounting/ContractAgreement/DistributionSpecialCharge'),
  ...contract(specialUseRight, '/v1.2/RentAccounting/ContractAgreement/SpecialUseRight'),
  ...contract(prepaymentAdjustment, '/v1.2/RentAccounting/ContractAgreement/PrepaymentAdjustment'),
  ...contract(distributionCostType, '/v1.2/RentAccounting/ContractAgreement/DistributionCostType'),
  ...contract(multipleOptIn, '/v1.2/RentAccounting/ContractAgreement/MultipleOptInAgreement'),
  ...contract(minorRepairWork, '/v1.2/RentAccounting/ContractAgreement/MinorRepairWorkAgreement'),
  ...contract(civilCodeAdaptationLock, '/v1.2/RentAccounting/ContractAgreement/CivilCodeAdaptationLockAgreement'),
  ...contract(reminderChargeFixedAmount, '/v1.2/RentAccounting/ContractAgreement/ReminderChargeFixedAmount'),
  ...contract(reminderChargeInterest, '/v1.2/RentAccounting/ContractAgreement/ReminderChargeInterest'),
  ...contract(waiverOfTermination, '/v1.2/RentAccounting/ContractAgreement/WaiverOfTerminationAgreement'),
  endpoint('/v1.0/RentAccounting/UseUnitRentAdjustments', useUnitRentAdjustmentsReader),
];

/**
 * Rebuilds the contract read model in the caller's transaction (the importer and demo load call it at their end, so
 * it is fresh exactly when they commit). Returns the number of agreements.
 */
export const rebuildContractReadModel = (db: Executor): Promise<number> => readModel.rebuild(db);
/** A window of a kind's stored texts in a view, or undefined when not fresh (for tests; the endpoints use it). */
export const storedContractWindow = readModel.stored;
/** Whether the contract read model is fresh (every source unchanged since its rebuild, this wire format). */
export const contractReadModelFresh = (db: Executor): Promise<boolean> => readModel.fresh(db);

export default async function rentAccountingArea(app: App): Promise<void> {
  for (const ep of ENDPOINTS) registerEndpoint(app, ep);
}
