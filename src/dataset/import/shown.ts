// How a value appears in an import problem's message (a module of its own: the parsing thread needs it, and nothing
// of the database).

/** A stored value (an id, a ledger) in a message: scalars as they are, anything else as JSON. */
export const shown = (value: unknown): string =>
  typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
