// The searchPattern filter: a case-insensitive substring match on SearchPattern, Code and Location, evaluated in
// the database and identical on SQLite and PostgreSQL. Neither engine's own case folding is used (SQLite's lower()
// and LIKE fold ASCII only, PostgreSQL's LIKE is case-sensitive and its lower() depends on the locale): both sides
// are folded with one fixed table, and %, _ and the escape character in the input match literally.
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

/** Upper-case letters folded to lower case: A-Z and the Latin-1 letters À-Þ (without ×). */
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞ';
const LOWER = 'abcdefghijklmnopqrstuvwxyzàáâãäåæçèéêëìíîïðñòóôõöøùúûüýþ';
const FOLD = new Map([...UPPER].map((c, i) => [c, LOWER[i]]));
/** The non-ASCII part, which SQLite's lower() leaves alone. */
const LATIN1_PAIRS = [...UPPER].map((c, i) => [c, LOWER[i]] as const).filter(([c]) => c.charCodeAt(0) > 127);

export const SEARCH_PATTERN_RULE =
  'Only records whose SearchPattern, Code or Location contains this text. Case-insensitive for the letters A-Z and ' +
  'the accented Latin letters (Ä, Ö, Ü, É, ...; ß and other characters match only themselves); % and _ are ordinary ' +
  'characters, not wildcards. Empty = no filter. At most 100 characters.';

/** The text with the fixed case folding applied. */
export function fold(text: string): string {
  let out = '';
  for (const c of text) out += FOLD.get(c) ?? c;
  return out;
}

/** A column with the same folding, in SQL of the given engine. */
function foldedColumn(column: Expression<string | null>, postgres: boolean): RawBuilder<string | null> {
  if (postgres) return sql`translate(${column}, ${sql.lit(UPPER)}, ${sql.lit(LOWER)})`;
  let expr: Expression<string | null> = column;
  for (const [upper, lower] of LATIN1_PAIRS) expr = sql`replace(${expr}, ${sql.lit(upper)}, ${sql.lit(lower)})`;
  return sql`lower(${expr})`;
}

/** `%text%` for LIKE with `\` as escape character: the input's own %, _ and \ match literally. */
export function containsPattern(text: string): string {
  return `%${fold(text).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** WHERE condition: any of the folded columns matches the LIKE pattern made by `containsPattern`. */
export function likeCondition(
  columns: Expression<string | null>[],
  pattern: string,
  postgres: boolean,
): Expression<SqlBool> {
  const parts = columns.map((c) => sql<SqlBool>`${foldedColumn(c, postgres)} like ${pattern} escape ${sql.lit('\\')}`);
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}
