// Null omission (showNullValues=false), shared by the null-values pipeline step and the streamed v1.0 lists.

/** Removes properties whose value is null, at every depth (arrays keep their elements). */
export function stripNulls(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (v !== null && typeof v === 'object') stripNulls(v);
    }
    return value;
  }
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    for (const k in obj) {
      const v = obj[k];
      if (v === null) delete obj[k];
      else if (typeof v === 'object') stripNulls(v);
    }
  }
  return value;
}
