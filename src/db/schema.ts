// Every table, declared once. Row/Insertable/Updateable types derive from these (Kysely).
// Conventions: dates are 'YYYY-MM-DD' text, timestamps ISO 8601 UTC text, booleans integer 0/1,
// decimals exact (NUMERIC on PostgreSQL, TEXT on SQLite; read back as strings).
import type { Generated } from 'kysely';

export interface CompanyCodesTable { id: number; code: string | null; name: string | null }

export interface UsersTable {
  id: Generated<number>;
  name: string;
  password_hash: string;
  disabled: Generated<number>;
  all_ledgers: Generated<number>;
  created_at: string;
}
export interface UserPermissionsTable { user_id: number; permission: string }
export interface UserLedgersTable { user_id: number; company_code_id: number }

export interface OauthTokensTable {
  id: Generated<number>;
  token_hash: string;
  kind: 'access' | 'refresh';
  user_id: number;
  family: string;
  expires_at: string;
  used_at: string | null;
  revoked: Generated<number>;
  created_at: string;
}

export interface ApiKeysTable {
  id: Generated<number>;
  name: string;
  key_hash: string;
  all_ledgers: number;
  created_at: string;
  revoked_at: string | null;
}
export interface ApiKeyLedgersTable { api_key_id: number; company_code_id: number }

export interface OutboxEventsTable {
  id: Generated<number>;
  event_id: string;
  entity_type: string;
  entity_id: number;
  action: 'created' | 'updated' | 'deleted';
  company_code_id: number | null;
  user_id: number | null;
  created_at: string;
  dispatched_at: string | null;
}

export interface DB {
  company_codes: CompanyCodesTable;
  users: UsersTable;
  user_permissions: UserPermissionsTable;
  user_ledgers: UserLedgersTable;
  oauth_tokens: OauthTokensTable;
  api_keys: ApiKeysTable;
  api_key_ledgers: ApiKeyLedgersTable;
  outbox_events: OutboxEventsTable;
}
