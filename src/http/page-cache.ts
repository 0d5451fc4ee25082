// A cache of serialized read responses, keyed by route URL and visible ledgers, and valid only for the
// database's data version at the time it was filled: any committed change, by any server process sharing the
// database, moves the version on, so a cached page is never older than the last committed change.
// The hooks that use it are the pipeline step src/pipeline/07-page-cache.ts.

interface Entry {
  version: string;
  /** The encoded body: a hit is sent as it is (no UTF-8 encoding or length count per request). */
  body: Buffer;
}

/** Least-recently-used map bounded by the total size of its bodies. */
export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string, version: string): Buffer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.version !== version) {
      this.bytes -= entry.body.length;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.body;
  }

  set(key: string, version: string, body: Buffer): void {
    if (body.length > this.maxBytes / 4) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.body.length;
      this.entries.delete(key);
    }
    this.entries.set(key, { version, body });
    this.bytes += body.length;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.body.length;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
