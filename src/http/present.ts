// Conversions from stored values to wire values, shared by every presenter.

/**
 * A decimal for the wire; null stays null. The stored text (NUMERIC/TEXT column) is kept as it is, typed as the number
 * it is on the wire: the response serializers (src/http/serializer.ts) write valid JSON number text unchanged, so
 * `12345678901234567.89` keeps every digit instead of passing through a double.
 */
export const dec = (v: string | number | null | undefined): number | null =>
  v === null || v === undefined ? null : (v as number);

/** Stored 0/1 to boolean; null stays null. */
export const bool = (v: number | boolean | null | undefined): boolean | null =>
  v === null || v === undefined ? null : v === 1 || v === true;

/** A stored date 'YYYY-MM-DD' shown as a date-time of that day, UTC. Stored date-times pass through. */
export const dateTime = (v: string | null | undefined): string | null =>
  v ? (v.length === 10 ? `${v}T00:00:00Z` : v) : null;

/** A {Id, Code}-style reference, or null when the id is null. */
export function ref<T extends object>(id: number | null | undefined, rest: T): ({ Id: number } & T) | null {
  return id === null || id === undefined ? null : { Id: id, ...rest };
}
