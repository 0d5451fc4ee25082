// The data version counters (migrations 2026112203/04): moved on by every committed change.

/** PostgreSQL only: moved on by triggers whenever the read model (version) or users, tokens and keys
 *  (auth_version) change (migrations 2026112203, 2026112204). */
export interface DataVersionTable {
  id: number;
  version: number;
  auth_version: number;
}

export interface VersionTables {
  data_version: DataVersionTable;
}
