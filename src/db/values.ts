// Column value types shared by every table: how dates, decimals and booleans are stored.

/** Exact decimal: a string such as '1234.56' (NUMERIC on PostgreSQL, TEXT on SQLite). */
export type Decimal = string;
/** 'YYYY-MM-DD'. */
export type DateText = string;
/** ISO 8601 UTC date-time, e.g. '2025-06-27T00:00:00Z'. */
export type DateTimeText = string;
/** Boolean stored as 0/1. */
export type Flag = number;

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number written by the decimal digits of `text` from `from` to `to` (exclusive); -1 if one is no digit. */
function digitsAt(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/**
 * Whether `text` is a YYYY-MM-DD that names a day of the (proleptic Gregorian) calendar, from 0001-01-01 on: there is
 * no year 0 (the vendor's .NET DateTime begins at 0001-01-01). No Date object and no match array per value (the import
 * checks every date of the file here).
 */
export function realDate(text: string): boolean {
  if (text.length !== 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return false;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 7);
  const day = digitsAt(text, 8, 10);
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : (DAYS[month - 1] as number));
}
