// Throttles repeated failed logins per user name (known or not, so the answer reveals nothing).
// Kept in process memory: with several server processes each throttles on its own.
export class LoginThrottle {
  private readonly failures = new Map<string, { count: number; first: number; lockedUntil: number }>();

  constructor(
    private readonly maxFailures: number,
    private readonly lockSeconds: number,
  ) {}

  /** Seconds the caller must still wait, or 0. */
  retryAfter(name: string, now: number): number {
    const entry = this.failures.get(name.toLowerCase());
    if (!entry || entry.lockedUntil <= now) return 0;
    return Math.ceil((entry.lockedUntil - now) / 1000);
  }

  fail(name: string, now: number): void {
    const key = name.toLowerCase();
    let entry = this.failures.get(key);
    if (!entry || now - entry.first > this.lockSeconds * 1000) entry = { count: 0, first: now, lockedUntil: 0 };
    entry.count += 1;
    if (entry.count >= this.maxFailures) entry.lockedUntil = now + this.lockSeconds * 1000;
    this.failures.set(key, entry);
    if (this.failures.size > 100_000) this.prune(now);
  }

  succeed(name: string): void {
    this.failures.delete(name.toLowerCase());
  }

  private prune(now: number): void {
    for (const [k, v] of this.failures)
      if (v.lockedUntil <= now && now - v.first > this.lockSeconds * 1000) this.failures.delete(k);
  }
}
