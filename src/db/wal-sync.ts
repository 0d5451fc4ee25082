// Makes the group commit's batches durable off the event loop: the write queue (write-queue.ts) commits a batch with
// synchronous=NORMAL (WAL mode: the COMMIT writes the WAL but does not fsync it) and hands its callers here; they are
// answered only after an fdatasync of the `-wal` file that STARTED after their COMMIT completed, run on libuv's pool
// while the next batch already executes. On Linux an fdatasync through our own descriptor of the file flushes the
// same inode SQLite wrote to, so everything written to the WAL before the call is on disk when it returns.
// Checkpoints stay safe on their own: with synchronous=NORMAL SQLite syncs the WAL before it copies pages into the
// database file and the database file after. See docs/performance.md (S5) and docs/deployment.md (SQLite durability).
import fs from 'node:fs';

export type Fdatasync = (fd: number, callback: (err: NodeJS.ErrnoException | null) => void) => void;

/** One caller of a committed batch: answered once its commit is durable, or failed if the sync fails. */
export interface Settle {
  done(): void;
  fail(err: unknown): void;
}

export class WalSync {
  private fd: number | undefined;
  private ino = -1;
  private dev = -1;
  /** Callers whose COMMIT completed and that wait for the next fdatasync to start. */
  private waiting: Settle[] = [];
  private running = false;
  private idle: Array<() => void> = [];

  /** `file` is the database file; its WAL is `${file}-wal`. */
  constructor(
    private readonly file: string,
    private readonly fdatasync: Fdatasync = fs.fdatasync,
  ) {}

  /** To be called right after a COMMIT completed: answers `settle` after the next fdatasync that starts from now. */
  afterCommit(settle: Settle[]): void {
    for (const s of settle) this.waiting.push(s);
    if (!this.running) this.start();
  }

  /** Waits for a running fdatasync and closes the descriptor (the queue must be idle). */
  async close(): Promise<void> {
    if (this.running) await new Promise<void>((resolve) => this.idle.push(resolve));
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }

  private start(): void {
    const batch = this.waiting;
    this.waiting = [];
    this.running = true;
    let fd: number;
    try {
      fd = this.descriptor();
    } catch (err) {
      this.finished(batch, err);
      return;
    }
    this.fdatasync(fd, (err) => this.finished(batch, err));
  }

  private finished(batch: Settle[], err: unknown): void {
    for (const s of batch) {
      if (err) s.fail(err);
      else s.done();
    }
    if (this.waiting.length) {
      this.start();
      return;
    }
    this.running = false;
    for (const resolve of this.idle.splice(0)) resolve();
  }

  /**
   * The WAL's descriptor, opened after the first commit (the file exists while the connection is open in WAL mode)
   * and reopened if the path names another inode than the one we hold (a WAL deleted and created anew). Without a
   * WAL file (never expected while the connection is open) the database file itself is synced.
   */
  private descriptor(): number {
    let target = `${this.file}-wal`;
    let stat = fs.statSync(target, { throwIfNoEntry: false });
    if (!stat) stat = fs.statSync((target = this.file));
    if (this.fd !== undefined && stat.ino === this.ino && stat.dev === this.dev) return this.fd;
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
    const fd = fs.openSync(target, 'r+');
    const opened = fs.fstatSync(fd);
    this.fd = fd;
    this.ino = opened.ino;
    this.dev = opened.dev;
    return fd;
  }
}
