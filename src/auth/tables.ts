// Tables of users, tokens and API keys (migration 2026112201_foundation).
import type { Generated } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  name: string;
  password_hash: string;
  disabled: Generated<number>;
  all_ledgers: Generated<number>;
  created_at: string;
}
export interface UserPermissionsTable {
  user_id: number;
  permission: string;
}
export interface UserLedgersTable {
  user_id: number;
  company_code_id: number;
}
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
export interface ApiKeyLedgersTable {
  api_key_id: number;
  company_code_id: number;
}

/** Failed-login counter of one user name or client address (migration 2026112301_hardening). */
export interface LoginThrottleTable {
  key: string;
  failures: number;
  last_failure_at: string;
  blocked_until: string | null;
}

export interface AuthTables {
  users: UsersTable;
  user_permissions: UserPermissionsTable;
  user_ledgers: UserLedgersTable;
  oauth_tokens: OauthTokensTable;
  api_keys: ApiKeysTable;
  api_key_ledgers: ApiKeyLedgersTable;
  login_throttle: LoginThrottleTable;
}
