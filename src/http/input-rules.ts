// Limits every request input obeys before (and besides) its schema, in time linear in the input's size:
// nesting depth of a JSON body, control characters and lone surrogates in text, strict number syntax in the
// query string and path, and the size of an error map. docs/limits.md describes them for clients.
import type { ErrorMap } from './errors.ts';

/** Deepest accepted nesting of arrays and objects in a JSON body (the deepest interface body needs 4). */
export const MAX_BODY_DEPTH = 32;
/** Messages an error map names at most; the rest are counted in one more message under `$`. */
export const MAX_PROBLEMS = 100;

/**
 * True when the JSON text nests arrays/objects deeper than `max`. One pass over the characters, strings skipped,
 * so the parser and every later walk never meet a body deeper than the limit.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

// C0 controls and DEL; in body strings tab, line feed and carriage return are text.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const QUERY_CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const BODY_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a text is refused, or undefined when it is fine. `where` = 'query' (also path and form) or 'body'. */
export function textProblem(value: string, where: 'query' | 'body'): string | undefined {
  const control = (where === 'query' ? QUERY_CONTROL : BODY_CONTROL).exec(value);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    return `contains the control character U+${code}, which is not allowed`;
  }
  if (LONE_SURROGATE.test(value)) return 'is not valid Unicode (a lone surrogate)';
  return undefined;
}

/** Strict syntax of numbers in the query string and path: optional '-', decimal digits (and a fraction). */
export const STRICT_INTEGER = /^-?[0-9]+$/;
export const STRICT_NUMBER = /^-?[0-9]+(\.[0-9]+)?$/;

export interface BodyProblem {
  path: string;
  message: string;
}

/** '/Building/2/Id' style path of the body walk as an error-map key: 'Building[2].Id'. */
function keyOf(parts: readonly (string | number)[]): string {
  let key = '';
  for (const p of parts) key += typeof p === 'number' ? `[${p}]` : key ? `.${p}` : p;
  return key || '$';
}

/**
 * Control characters and lone surrogates in every string (and property name) of a parsed JSON body, without
 * recursion (the depth is already bounded). Stops after `MAX_PROBLEMS + 1` problems; `total` counts them all.
 */
export function bodyTextProblems(body: unknown): { problems: BodyProblem[]; total: number } {
  const problems: BodyProblem[] = [];
  let total = 0;
  const note = (parts: (string | number)[], message: string) => {
    total++;
    if (problems.length < MAX_PROBLEMS) problems.push({ path: keyOf(parts), message });
  };
  const stack: Array<{ value: unknown; parts: (string | number)[] }> = [{ value: body, parts: [] }];
  while (stack.length) {
    const { value, parts } = stack.pop()!;
    if (typeof value === 'string') {
      const problem = textProblem(value, 'body');
      if (problem) note(parts, `The value of ${keyOf(parts)} ${problem}.`);
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], parts: [...parts, i] });
    } else if (value !== null && typeof value === 'object') {
      const entries: [string, unknown][] = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, v] = entries[i]!;
        const problem = textProblem(k, 'body');
        if (problem) note(parts, `A property name in ${keyOf(parts)} ${problem}.`);
        else stack.push({ value: v, parts: [...parts, k] });
      }
    }
  }
  return { problems, total };
}

const bounded = new WeakSet<ErrorMap>();

/**
 * The error map cut to its first MAX_PROBLEMS messages, plus one message under `$` saying how many more
 * (`known`: the number of problems when the map holds only the first ones). Keys without messages are left out.
 */
export function boundErrorMap(map: ErrorMap, known = 0): ErrorMap {
  if (bounded.has(map)) return map;
  let count = 0;
  for (const k in map) count += map[k]!.length;
  const total = Math.max(count, known);
  const out: ErrorMap = {};
  let kept = 0;
  for (const k in map) {
    if (kept >= MAX_PROBLEMS) break;
    const list = map[k]!.slice(0, MAX_PROBLEMS - kept);
    if (list.length) out[k] = list;
    kept += list.length;
  }
  if (total > kept)
    (out.$ ??= []).push(`... and ${total - kept} more problem(s); only the first ${MAX_PROBLEMS} are listed.`);
  bounded.add(out);
  return out;
}
