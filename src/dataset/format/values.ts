// Field values in the file <-> column values: type checks with one message per problem, exact decimals.
import type { FieldType } from './fields.ts';
import { realDate } from '../../db/values.ts';
import { textProblem } from '../../http/input-rules.ts';

/** A JSON number as written in the file (its source text), so decimals keep every digit. */
export class Num {
  constructor(readonly text: string) {}
}

export type JsonValue = null | boolean | string | Num | JsonValue[] | { [key: string]: JsonValue };

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?Z$/;
const INT = /^-?\d+$/;
/** A decimal without an exponent and without leading zeros (as JSON writes numbers). */
const PLAIN_DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;
const NONZERO = /[1-9]/;

/**
 * Plain decimal text of a JSON number: exponents are expanded digit by digit (no float arithmetic),
 * `-0` becomes `0`; the digits written in the file are kept (1234.50 stays 1234.50).
 */
export function plainDecimal(text: string): string {
  // the common case: plain digits with an optional fraction, kept as written (but '-0' and '-0.00' lose the sign)
  if (PLAIN_DECIMAL.test(text)) return text.charCodeAt(0) === 45 && !NONZERO.test(text) ? text.slice(1) : text;
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/.exec(text);
  const intPart = m?.[2];
  if (!m || intPart === undefined) throw new Error(`not a number: ${text}`);
  const [, sign, , frac = '', exp] = m;
  let digits = intPart + frac;
  let point = intPart.length + (exp ? Number(exp) : 0);
  if (point <= 0) {
    digits = '0'.repeat(1 - point) + digits;
    point = 1;
  } else if (point > digits.length) {
    digits += '0'.repeat(point - digits.length);
  }
  let whole = digits.slice(0, point).replace(/^0+(?=\d)/, '');
  const fraction = digits.slice(point);
  if (exp && !frac) whole = whole || '0';
  const out = fraction ? `${whole}.${fraction}` : whole;
  return sign && /[1-9]/.test(out) ? `-${out}` : out;
}

/** The largest exponent a decimal in the file may have (its plain text has about that many digits at most). */
export const MAX_DECIMAL_EXPONENT = 1000;

/** Longest value text a message quotes. */
const SHOWN = 100;

/** A value as the file wrote it (numbers in their own text), cut at SHOWN characters. */
function show(v: JsonValue): string {
  let out = '';
  const write = (x: JsonValue): void => {
    if (out.length > SHOWN) return;
    if (x instanceof Num) out += x.text;
    else if (Array.isArray(x)) {
      out += '[';
      x.forEach((item, i) => {
        if (i) out += ',';
        write(item);
      });
      out += ']';
    } else if (x !== null && typeof x === 'object') {
      out += '{';
      Object.entries(x).forEach(([k, item], i) => {
        out += `${i ? ',' : ''}${JSON.stringify(k)}:`;
        write(item);
      });
      out += '}';
    } else out += JSON.stringify(x);
  };
  write(v);
  return out.length > SHOWN ? `${out.slice(0, SHOWN)}…` : out;
}

/** What is wrong with a field's value (the value shown). */
export class ColumnProblem {
  constructor(readonly error: string) {}
}

/** The column value of a field, or what is wrong with it: a value, not an object per value (the import calls this for
 * every value of the file). */
export function toColumn(type: FieldType, v: JsonValue): string | number | ColumnProblem {
  switch (type) {
    case 'int': {
      if (!(v instanceof Num) || !INT.test(v.text)) return new ColumnProblem(`must be an integer, got ${show(v)}`);
      const n = Number(v.text);
      if (n < -2147483648 || n > 2147483647) return new ColumnProblem(`${v.text} is outside the 32-bit integer range`);
      return n;
    }
    case 'decimal':
      if (!(v instanceof Num)) return new ColumnProblem(`must be a number, got ${show(v)}`);
      // stored exactly, but the API writes decimals as JSON numbers, which clients read as doubles
      if (!Number.isFinite(Number(v.text)))
        return new ColumnProblem(`${show(v)} is beyond the range of numbers clients can read (about ±1.8e308)`);
      // written out digit by digit, 1e-100000000 would be 100 MB of zeros (and 0e999999999 more than a string holds)
      if (Math.abs(Number(/[eE]([-+]?\d+)$/.exec(v.text)?.[1] ?? 0)) > MAX_DECIMAL_EXPONENT)
        return new ColumnProblem(
          `${show(v)} has an exponent beyond ±${MAX_DECIMAL_EXPONENT}: written out (decimals are stored digit by digit) it would have more digits than any value needs`,
        );
      return plainDecimal(v.text);
    case 'string': {
      if (typeof v !== 'string') return new ColumnProblem(`must be a string, got ${show(v)}`);
      // as in API bodies (docs/limits.md): no control characters but tab, LF and CR; no lone surrogates
      const problem = textProblem(v, 'body');
      return problem ? new ColumnProblem(`${JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v)} ${problem}`) : v;
    }
    case 'bool':
      return typeof v === 'boolean' ? (v ? 1 : 0) : new ColumnProblem(`must be true or false, got ${show(v)}`);
    case 'date':
      if (typeof v !== 'string') return new ColumnProblem(`must be a date string YYYY-MM-DD, got ${show(v)}`);
      return realDate(v) ? v : new ColumnProblem(`'${v}' is not a valid date (YYYY-MM-DD)`);
    case 'datetime': {
      if (typeof v !== 'string') return new ColumnProblem(`must be a date-time string, got ${show(v)}`);
      const date = DATE_TIME.exec(v)?.[1];
      return date !== undefined && realDate(date)
        ? v
        : new ColumnProblem(`'${v}' is not a valid UTC date-time (YYYY-MM-DDThh:mm:ssZ)`);
    }
  }
}

/** A stored value as JSON text for the export (decimals verbatim, booleans from 0/1). */
export function toJsonText(type: FieldType, v: unknown): string {
  switch (type) {
    case 'int':
      return String(Number(v));
    case 'decimal':
      return String(v);
    case 'bool':
      return Number(v) === 1 ? 'true' : 'false';
    default:
      return JSON.stringify(String(v));
  }
}
