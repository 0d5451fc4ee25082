// Checked element access for tests (noUncheckedIndexedAccess): a missing element fails the test with a message
// naming the index and the length, instead of handing `undefined` on to the next line.
import assert from 'node:assert/strict';

/** The element at `index` (negative counts from the end); fails when the list has no such element. */
export function at<T>(list: readonly T[], index: number): T {
  const i = index < 0 ? list.length + index : index;
  if (i < 0 || i >= list.length) assert.fail(`expected an element at index ${index}, the list has ${list.length}`);
  return list[i] as T;
}

/** The first element; fails on an empty list. */
export const first = <T>(list: readonly T[]): T => at(list, 0);

/** The only element; fails unless the list has exactly one. */
export function only<T>(list: readonly T[]): T {
  assert.equal(list.length, 1, `expected exactly one element, the list has ${list.length}`);
  return at(list, 0);
}

type Tuple<T, N extends number, R extends T[] = []> = R['length'] extends N ? R : Tuple<T, N, [...R, T]>;

/** The first `n` elements as a tuple, to destructure (`const [a, b] = take(list, 2)`); fails on a shorter list. */
export function take<T, N extends number>(list: readonly T[], n: N): Tuple<T, N> {
  if (list.length < n) assert.fail(`expected at least ${n} elements, the list has ${list.length}`);
  return list.slice(0, n) as Tuple<T, N>;
}
