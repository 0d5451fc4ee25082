// What a webhook is, in one place: entity names, actions, system purposes, auth types, the retry schedule, the
// payload of a delivery.
import os from 'node:os';
import type { Config } from '../config.ts';
import { PERMISSIONS, type Permission } from '../auth/permissions.ts';

/** The entity types events carry (the API's projects; the import's entities, src/dataset/format), and All. */
// prettier-ignore
export const ENTITY_NAMES = [
  'Project', 'EconomicUnit', 'Building', 'Land', 'UseUnit', 'LicenseAgreement', 'Contractor', 'Person', 'Loan', 'All',
] as const;
export const ACTIONS = ['created', 'updated', 'deleted'] as const;
export const SYSTEM_PURPOSES = ['Echt', 'Test'] as const;
export const AUTH_TYPES = ['None', 'Bearer', 'Basic', 'Custom'] as const;

export type EntityName = (typeof ENTITY_NAMES)[number];
export type Action = (typeof ACTIONS)[number];
export type AuthType = (typeof AUTH_TYPES)[number];

/** Retry delays as multiples of WEBHOOK_RETRY_BASE_MS (default 5 s): 5 s, 30 s, 2 min, 10 min, 1 h, 2 h, 4 h, 8 h,
 *  8 h, 8 h: 31.2 h in all (>= 25 h even with the jitter below), then the delivery is marked failed. */
export const RETRY_FACTORS = [1, 6, 24, 120, 720, 1440, 2880, 5760, 5760, 5760];
/** Attempts of one delivery: the first and one per retry. */
export const MAX_ATTEMPTS = RETRY_FACTORS.length + 1;

/** The delay before the next attempt after `failedAttempts` failures (jitter +-20%), or undefined: give up. */
export function retryDelayMs(failedAttempts: number, baseMs: number, random: () => number = Math.random) {
  const factor = RETRY_FACTORS[failedAttempts - 1];
  if (factor === undefined) return undefined;
  return Math.round(baseMs * factor * (0.8 + 0.4 * random()));
}

/** Public base URL of this server as payloads name it. */
export function baseUrlOf(config: Readonly<Config>): string {
  if (config.webhookBaseUrl) return config.webhookBaseUrl.replace(/\/+$/, '');
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}

export interface PayloadEvent {
  eventId: string;
  entityType: string;
  entityId: number;
  action: string;
  userId: number | null;
  createdAt: string;
}

/** Where a client reads an entity back, by entity type: a read endpoint with its id filter (src/master-data/ and
 *  the projects and webhooks areas). Types without one (Contractor: its endpoint filters by license agreement or
 *  person only) are absent and get null. */
export const READ_BACK: Readonly<Record<string, (id: number) => string>> = {
  Project: (id) => `/v1.2/AccountancyProjectEdit/Project/${id}`,
  EconomicUnit: (id) => `/v1.2/CommercialInventory/EconomicUnits?economicUnitId=${id}`,
  Building: (id) => `/v1.2/CommercialInventory/BuildingLands?buildingLandId=${id}`,
  Land: (id) => `/v1.2/CommercialInventory/BuildingLands?buildingLandId=${id}`,
  UseUnit: (id) => `/v1.2/CommercialInventory/UseUnits?useUnitId=${id}`,
  LicenseAgreement: (id) => `/v1.2/RentAccounting/LicenseAgreements?licenseAgreementId=${id}`,
  Loan: (id) => `/v1.2/Loans/Loan?loanId=${id}`,
  Person: (id) => `/v1.2/PersonsRead/Persons?personId=${id}`,
  WebHook: (id) => `/v1.2/WebHook/WebHook/${id}`,
};

/**
 * The permissions a user needs to read each entity type (those of its read endpoint: READ_BACK's, Contractor's list).
 * A webhook registered by a user gets only the events of entity types its owner may read (decisions §2: a user
 * without the permission an endpoint needs learns nothing through it); the operator's webhooks get every type.
 */
export const READ_PERMISSIONS: Readonly<Record<string, readonly Permission[]>> = {
  Project: [PERMISSIONS.projectEdit],
  EconomicUnit: [PERMISSIONS.objectDataRead],
  Building: [PERMISSIONS.objectDataRead],
  Land: [PERMISSIONS.objectDataRead],
  UseUnit: [PERMISSIONS.objectDataRead],
  LicenseAgreement: [PERMISSIONS.rentAccountingRead],
  Contractor: [PERMISSIONS.rentAccountingRead, PERMISSIONS.personsRead],
  Person: [PERMISSIONS.personsRead],
  Loan: [PERMISSIONS.loansRead],
};

/** Whether a holder of `permissions` (undefined: the operator's webhook, no owner) may read entities of `type`. */
export function mayRead(permissions: ReadonlySet<string> | undefined, type: string): boolean {
  const needed = Object.hasOwn(READ_PERMISSIONS, type) ? READ_PERMISSIONS[type] : undefined;
  return !permissions || !needed || needed.every((p) => permissions.has(p));
}

/** Where a client reads the entity back: null once deleted, or for an entity type without a read endpoint. */
function readBackUrl(base: string, e: PayloadEvent): string | null {
  const path = Object.hasOwn(READ_BACK, e.entityType) ? READ_BACK[e.entityType] : undefined;
  if (!path || e.action === 'deleted') return null;
  return `${base}/openwowi${path(e.entityId)}`;
}

/** The JSON body of a delivery. */
export function payload(e: PayloadEvent, config: Readonly<Config>): string {
  const base = baseUrlOf(config);
  return JSON.stringify({
    entityType: 'Entity',
    entityName: e.entityType,
    id: e.entityId,
    action: e.action,
    nodeId: null,
    systemId: 'wohnapi',
    instanceName: os.hostname(),
    applicationBaseUrl: base,
    userId: e.userId,
    openWowiUrl: readBackUrl(base, e),
    additionalInfo: { eventId: e.eventId, occurredAt: e.createdAt },
  });
}
