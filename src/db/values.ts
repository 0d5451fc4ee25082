// Column value types shared by every table: how dates, decimals and booleans are stored.

/** Exact decimal: a string such as '1234.56' (NUMERIC on PostgreSQL, TEXT on SQLite). */
export type Decimal = string;
/** 'YYYY-MM-DD'. */
export type DateText = string;
/** ISO 8601 UTC date-time, e.g. '2025-06-27T00:00:00Z'. */
export type DateTimeText = string;
/** Boolean stored as 0/1. */
export type Flag = number;

const DATE = /^(\d{4})-(0[1-9]|1[012])-(0[1-9]|[12][0-9]|3[01])$/;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether `text` is a YYYY-MM-DD that names a day of the (proleptic Gregorian) calendar, from 0001-01-01 on: there is
 * no year 0 (the vendor's .NET DateTime begins at 0001-01-01). No Date object per value.
 */
export function realDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const year = Number(m[1]);
  if (year === 0) return false;
  const month = Number(m[2]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return Number(m[3]) <= (month === 2 && leap ? 29 : (DAYS[month - 1] as number));
}
