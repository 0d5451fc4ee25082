// The data versions seen by one request, read once and shared by the caches that request consults.
import type { DataVersions, Database } from './database.ts';

const seen = new WeakMap<object, Promise<DataVersions>>();

export function versionsFor(database: Database, request: object): Promise<DataVersions> {
  let v = seen.get(request);
  if (!v) {
    v = database.versions();
    seen.set(request, v);
  }
  return v;
}
