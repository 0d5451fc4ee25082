// The database type, assembled from the tables each area declares beside its code (`<area>/tables.ts`).
// Conventions of every table: dates are 'YYYY-MM-DD' text, timestamps ISO 8601 UTC text, booleans integer 0/1,
// decimals exact (NUMERIC on PostgreSQL, TEXT on SQLite; read back as strings): see ./values.ts.
import type { AuthTables } from '../auth/tables.ts';
import type { EventTables } from '../events/tables.ts';
import type { MasterDataTables } from '../master-data/tables.ts';
import type { ProjectTables } from '../projects/tables.ts';
import type { RentAccountingTables } from '../rent-accounting/tables.ts';
import type { RunningCostTables } from '../running-cost/tables.ts';
import type { VersionTables } from './version-table.ts';
import type { WebhookTables } from '../webhooks/tables.ts';

export interface DB
  extends
    VersionTables,
    AuthTables,
    EventTables,
    MasterDataTables,
    RunningCostTables,
    RentAccountingTables,
    ProjectTables,
    WebhookTables {}
