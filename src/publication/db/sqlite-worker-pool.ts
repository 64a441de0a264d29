/**
 * A small pool of worker threads that own the SQLite connections (see sqlite-worker.cjs). Work
 * goes to the worker with the fewest requests in flight; a worker that dies fails its pending
 * requests and is replaced, so one bad query never takes the service down.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** A message waiting for its answer, with what it needs to be sent again elsewhere. */
interface Job {
  message: Record<string, unknown>;
  /** Epoch ms after which it must not run (absent: no time limit). */
  deadline?: number;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  timer?: NodeJS.Timeout;
  grace?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Job>;
  /**
   * Shared with the worker: [0] the id of the message it must interrupt, [1] the id of the
   * message it is running (0 between messages).
   */
  shared: Int32Array;
}

const CANCEL = 0;
const RUNNING = 1;

/** After asking a worker to interrupt, how long to wait before terminating it outright. */
const INTERRUPT_GRACE_MS = 1000;

const interrupted = () => new SqliteWorkerError('statement interrupted: request time-out', 'INTERRUPTED');

export class SqliteWorkerError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'SqliteWorkerError';
  }
}

const WORKER_URL = new URL('./sqlite-worker.cjs', import.meta.url);

export class SqliteWorkerPool {
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private closed = false;
  private readonly modulePath = createRequire(import.meta.url).resolve('better-sqlite3');

  /**
   * The first worker starts with the first message; the others, up to `size`, when a message
   * arrives while every worker has one in flight. Each worker is an isolate with better-sqlite3
   * and its page caches (about 7 MB before any query): a server that has not been asked anything
   * yet holds none, a lightly used one not all of them.
   */
  constructor(
    private readonly dir: string,
    private readonly size: number,
    /** SQLite's page cache per connection, in MB (absent: the build's default, 16 MB). */
    private readonly cacheMb?: number,
  ) {}

  private spawn(): Slot {
    const sharedBuffer = new SharedArrayBuffer(8);
    const worker = new Worker(WORKER_URL, {
      workerData: { dir: this.dir, modulePath: this.modulePath, sharedBuffer, cacheMb: this.cacheMb },
    });
    const slot: Slot = { worker, pending: new Map(), shared: new Int32Array(sharedBuffer) };
    worker.on(
      'message',
      (msg: { id: number; result?: unknown; error?: { message: string; code?: string } }) => {
        const job = slot.pending.get(msg.id);
        if (!job) return;
        slot.pending.delete(msg.id);
        clearTimeout(job.timer);
        clearTimeout(job.grace);
        if (msg.error) job.reject(new SqliteWorkerError(msg.error.message, msg.error.code));
        else job.resolve(msg.result);
      },
    );
    const fail = (err: Error) => {
      const jobs = [...slot.pending.values()];
      slot.pending.clear();
      const index = this.slots.indexOf(slot);
      if (index >= 0 && !this.closed) this.slots[index] = this.spawn();
      // Terminated by close(): the engine is gone for whatever was still waiting.
      const reason = this.closed ? new SqliteWorkerError('SQLite pool is closed', 'CLOSED') : err;
      for (const job of jobs) {
        clearTimeout(job.timer);
        clearTimeout(job.grace);
        job.reject(reason);
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new SqliteWorkerError(`SQLite worker exited with code ${code}`)));
    worker.unref();
    return slot;
  }

  /**
   * Runs one message on the least busy worker. With `timeoutMs`, a message still queued when
   * time runs out is answered INTERRUPTED at once (the worker skips it when it gets there); a
   * running statement is interrupted (error code INTERRUPTED), and a worker that does not stop
   * within a grace period is terminated and replaced, the other messages it held going to the
   * replacement (retire), so the work is stopped either way and nothing else fails with it.
   */
  /** Workers started, those with a message in flight, the messages waiting behind another, the most workers. */
  stats(): { workers: number; busy: number; queued: number; max: number } {
    let busy = 0;
    let queued = 0;
    for (const slot of this.slots) {
      if (slot.pending.size > 0) {
        busy += 1;
        queued += slot.pending.size - 1;
      }
    }
    return { workers: this.slots.length, busy, queued, max: this.size };
  }

  run<T>(message: Record<string, unknown>, timeoutMs?: number): Promise<T> {
    const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
    return new Promise<T>((resolve, reject) =>
      this.dispatch({ message, deadline, resolve: resolve as (v: unknown) => void, reject }),
    );
  }

  private dispatch(job: Job): void {
    if (this.closed) {
      job.reject(new SqliteWorkerError('SQLite pool is closed', 'CLOSED'));
      return;
    }
    const remaining = job.deadline === undefined ? undefined : job.deadline - Date.now();
    if (remaining !== undefined && remaining <= 0) {
      job.reject(interrupted());
      return;
    }
    let slot = this.slots[0];
    for (const s of this.slots) if (slot && s.pending.size < slot.pending.size) slot = s;
    if (slot === undefined || (slot.pending.size > 0 && this.slots.length < this.size)) {
      slot = this.spawn();
      this.slots.push(slot);
    }
    const id = this.nextId++;
    slot.pending.set(id, job);
    if (remaining !== undefined) {
      job.timer = setTimeout(() => this.timeOut(slot, id), remaining);
      job.timer.unref();
    }
    slot.worker.postMessage({ ...job.message, id, deadline: job.deadline });
  }

  private timeOut(slot: Slot, id: number): void {
    const job = slot.pending.get(id);
    if (!job) return;
    if (Atomics.load(slot.shared, RUNNING) !== id) {
      // Still waiting behind other messages: answer now; the worker will not start it.
      slot.pending.delete(id);
      job.reject(interrupted());
      return;
    }
    Atomics.store(slot.shared, CANCEL, id);
    job.grace = setTimeout(() => {
      if (!slot.pending.has(id) || Atomics.load(slot.shared, RUNNING) !== id) return;
      slot.pending.delete(id);
      job.reject(interrupted());
      this.retire(slot);
    }, INTERRUPT_GRACE_MS);
    job.grace.unref();
  }

  /**
   * Replaces a worker whose statement would not stop: a fresh worker takes its place and the
   * messages queued behind the statement (they did nothing wrong) at once, keeping their
   * deadlines; the old one is terminated, which takes effect when SQLite next hands control
   * back to JavaScript.
   */
  private retire(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index < 0 || this.closed) return;
    this.slots[index] = this.spawn();
    const jobs = [...slot.pending.values()];
    slot.pending.clear();
    for (const job of jobs) {
      clearTimeout(job.timer);
      clearTimeout(job.grace);
      this.dispatch(job);
    }
    void slot.worker.terminate();
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
