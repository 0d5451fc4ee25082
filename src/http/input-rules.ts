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
// eslint-disable-next-line no-control-regex -- a fast first look for anything the rules below may refuse
const SUSPECT = /[\u0000-\u001f\u007f\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a text is refused, or undefined when it is fine. `where` = 'query' (also path and form) or 'body'. */
export function textProblem(value: string, where: 'query' | 'body'): string | undefined {
  if (!SUSPECT.test(value)) return undefined;
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

/** Where a value sits in the body: its parent's place and its key (the path is spelled out only for a problem). */
interface Place {
  up: Place | undefined;
  key: string | number;
}

/** 'Building[2].Id' for the place of a value; '$' for the body itself. */
function keyOf(place: Place | undefined): string {
  const parts: (string | number)[] = [];
  for (let p = place; p; p = p.up) parts.push(p.key);
  let key = '';
  for (let i = parts.length - 1; i >= 0; i--) {
    const p = parts[i]!;
    key += typeof p === 'number' ? `[${p}]` : key ? `.${p}` : p;
  }
  return key || '$';
}

/** A JSON number JSON.parse could only read as ±Infinity (e.g. 1e400): its text is gone, so it is named as such. */
const isHuge = (v: unknown) => typeof v === 'number' && !Number.isFinite(v);

const isPrototypeCarrier = (v: unknown) => v !== null && typeof v === 'object' && Object.hasOwn(v, 'prototype');

/**
 * Control characters and lone surrogates in every string (and property name) of a parsed JSON body, and the keys of
 * prototype poisoning (`__proto__`, `constructor` with a `prototype`), and numbers too large to read, without
 * recursion (the depth is already bounded) and without allocating per value beyond the walk itself. Keeps the
 * first MAX_PROBLEMS problems; `total` counts them all.
 */
export function bodyTextProblems(body: unknown, name?: string): { problems: BodyProblem[]; total: number } {
  const problems: BodyProblem[] = [];
  let total = 0;
  const note = (place: Place | undefined, message: (key: string) => string) => {
    total++;
    if (problems.length < MAX_PROBLEMS) {
      const path = keyOf(place);
      problems.push({ path, message: message(path) });
    }
  };
  const values: unknown[] = [body];
  // `name`: what the body itself is keyed by (an array body of the assign writes: `Building[2]`), else `$`
  const places: Array<Place | undefined> = [name === undefined ? undefined : { up: undefined, key: name }];
  while (values.length) {
    const value = values.pop();
    const place = places.pop();
    if (typeof value === 'string') {
      const problem = textProblem(value, 'body');
      if (problem) note(place, (key) => `The value of ${key} ${problem}.`);
    } else if (isHuge(value)) {
      note(place, (key) => `The value of ${key} is a number beyond ±1.8e308, which no field takes.`);
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        const item: unknown = value[i];
        if (item !== null && typeof item === 'object') {
          values.push(item);
          places.push({ up: place, key: i });
        } else if ((typeof item === 'string' && textProblem(item, 'body')) || isHuge(item)) {
          values.push(item);
          places.push({ up: place, key: i });
        }
      }
    } else if (value !== null && typeof value === 'object') {
      const obj = value as Record<string, unknown>;
      for (const k in obj) {
        const problem = textProblem(k, 'body');
        if (problem) {
          note(place, (key) => `A property name in ${key} ${problem}.`);
          continue;
        }
        const v = obj[k];
        // Prototype poisoning (JSON.parse makes these own properties; a merge would make them prototypes): refused
        // as the unknown properties they are, keyed by their place.
        if (k === '__proto__' || (k === 'constructor' && isPrototypeCarrier(v))) {
          note({ up: place, key: k }, (key) => `Unknown property '${k}' at ${key}: it may not be sent.`);
          continue;
        }
        if ((v !== null && typeof v === 'object') || (typeof v === 'string' && textProblem(v, 'body')) || isHuge(v)) {
          values.push(v);
          places.push({ up: place, key: k });
        }
      }
    }
  }
  return { problems, total };
}

/** An open object or array while scanning a JSON text: its place, and where the scan is inside it. */
interface Frame {
  place: Place | undefined;
  /** An object's names so far (undefined for an array). */
  names: Set<string> | undefined;
  /** The object's current name, or the array's current index. */
  at: string | number;
}

/**
 * A property name given twice in one object of a JSON text (valid JSON: JSON.parse read it), which JSON.parse would
 * resolve silently to the last value: each is a problem keyed by its place (`Name`, `Building[2].Code`; `name` is
 * what the body itself is keyed by, as for bodyTextProblems). One pass over the characters; names with escapes are
 * decoded before they are compared (`"a"` and `"\u0061"` are one name).
 */
export function duplicateProperties(text: string, name?: string): { problems: BodyProblem[]; total: number } {
  const problems: BodyProblem[] = [];
  let total = 0;
  const stack: Frame[] = [];
  const root: Place | undefined = name === undefined ? undefined : { up: undefined, key: name };
  let expectName = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === 0x22) {
      const start = i;
      let escaped = false;
      for (i++; text.charCodeAt(i) !== 0x22; i++) {
        if (text.charCodeAt(i) === 0x5c) {
          escaped = true;
          i++;
        }
      }
      if (top?.names && expectName) {
        const key = escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : text.slice(start + 1, i);
        if (top.names.has(key)) {
          if (++total <= MAX_PROBLEMS) {
            const path = keyOf({ up: top.place, key });
            problems.push({ path, message: `The property ${path} is given more than once; give it once.` });
          }
        } else top.names.add(key);
        top.at = key;
        expectName = false;
      }
    } else if (c === 0x7b || c === 0x5b) {
      const place = top ? { up: top.place, key: top.at } : root;
      const object = c === 0x7b;
      stack.push({ place, names: object ? new Set() : undefined, at: object ? '' : 0 });
      expectName = object;
    } else if (c === 0x7d || c === 0x5d) stack.pop();
    else if (c === 0x2c && top) {
      if (top.names) expectName = true;
      else top.at = (top.at as number) + 1;
    }
  }
  return { problems, total };
}

const MORE = /^\.\.\. and ([0-9]+) more problem\(s\); only the first [0-9]+ are listed\.$/;

/** The message that stands for `n` problems not listed. */
export const moreMessage = (n: number) => `... and ${n} more problem(s); only the first ${MAX_PROBLEMS} are listed.`;

/** How many problems a message stands for: N for a "... and N more" message, 1 for any other. */
export const problemsIn = (message: string): number => {
  const more = MORE.exec(message);
  return more ? Number(more[1]) : 1;
};

/**
 * The error map cut to its first MAX_PROBLEMS messages, plus one message under `$` saying how many more
 * (`known`: the number of problems when the map holds only the first ones; "... and N more" messages already in
 * the map are counted, not listed). Keys without messages are left out.
 */
/**
 * The message list of `key` in an error map, made an own property when missing. Keys come from the request (body
 * property names, query names), so `constructor`, `toString` or `__proto__` must be keys like any other, never the
 * object's inherited members.
 */
export function messagesAt(map: ErrorMap, key: string): string[] {
  if (!Object.hasOwn(map, key))
    Object.defineProperty(map, key, { value: [], enumerable: true, writable: true, configurable: true });
  return map[key]!;
}

export function boundErrorMap(map: ErrorMap, known = 0): ErrorMap {
  const out: ErrorMap = {};
  let kept = 0;
  let total = 0;
  for (const k of Object.keys(map)) {
    for (const message of map[k]!) {
      const n = problemsIn(message);
      total += n;
      if (n !== 1 || MORE.test(message) || kept >= MAX_PROBLEMS) continue;
      messagesAt(out, k).push(message);
      kept++;
    }
  }
  total = Math.max(total, known);
  if (total > kept) messagesAt(out, '$').push(moreMessage(total - kept));
  return out;
}
