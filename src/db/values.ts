// Column value types shared by every table: how dates, decimals and booleans are stored.

/** Exact decimal: a string such as '1234.56' (NUMERIC on PostgreSQL, TEXT on SQLite). */
export type Decimal = string;
/** 'YYYY-MM-DD'. */
export type DateText = string;
/** ISO 8601 UTC date-time, e.g. '2025-06-27T00:00:00Z'. */
export type DateTimeText = string;
/** Boolean stored as 0/1. */
export type Flag = number;
