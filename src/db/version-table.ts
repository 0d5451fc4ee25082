// The data version counters (migrations 2026112203/04, 2026112601): moved on by every committed change.

/** PostgreSQL only: moved on by triggers whenever the read model (version) or users, tokens and keys
 *  (auth_version) change (migrations 2026112203, 2026112204). */
export interface DataVersionTable {
  id: number;
  version: number;
  auth_version: number;
}

/** SQLite only: moved on by triggers whenever users, grants, tokens or keys change (migration 2026112601). */
export interface AuthVersionTable {
  id: number;
  version: number;
}

export interface VersionTables {
  data_version: DataVersionTable;
  auth_version: AuthVersionTable;
}
