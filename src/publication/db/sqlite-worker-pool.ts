/**
 * A small pool of worker threads that own the SQLite connections (see sqlite-worker.cjs). Work
 * goes to the worker with the fewest requests in flight; a worker that dies fails its pending
 * requests and is replaced, so one bad query never takes the service down.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
  /** Shared with the worker: the id of the message it must interrupt. */
  cancel: Int32Array;
}

/** After asking a worker to interrupt, how long to wait before terminating it outright. */
const INTERRUPT_GRACE_MS = 1000;

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

  constructor(
    private readonly dir: string,
    size: number,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const cancelBuffer = new SharedArrayBuffer(4);
    const worker = new Worker(WORKER_URL, {
      workerData: { dir: this.dir, modulePath: this.modulePath, cancelBuffer },
    });
    const slot: Slot = { worker, pending: new Map(), cancel: new Int32Array(cancelBuffer) };
    worker.on(
      'message',
      (msg: { id: number; result?: unknown; error?: { message: string; code?: string } }) => {
        const p = slot.pending.get(msg.id);
        if (!p) return;
        slot.pending.delete(msg.id);
        if (msg.error) p.reject(new SqliteWorkerError(msg.error.message, msg.error.code));
        else p.resolve(msg.result);
      },
    );
    const fail = (err: Error) => {
      // Workers terminated by close(): the engine is gone for whatever was still waiting.
      const reason = this.closed ? new SqliteWorkerError('SQLite pool is closed', 'CLOSED') : err;
      for (const p of slot.pending.values()) p.reject(reason);
      slot.pending.clear();
      const index = this.slots.indexOf(slot);
      if (index >= 0 && !this.closed) this.slots[index] = this.spawn();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new SqliteWorkerError(`SQLite worker exited with code ${code}`)));
    worker.unref();
    return slot;
  }

  /**
   * Runs one message on the least busy worker. With `timeoutMs`, the statement is interrupted
   * when time runs out (error code INTERRUPTED); a worker that does not stop within a grace
   * period is terminated and replaced, so the work is stopped either way.
   */
  run<T>(message: Record<string, unknown>, timeoutMs?: number): Promise<T> {
    if (this.closed) return Promise.reject(new SqliteWorkerError('SQLite pool is closed', 'CLOSED'));
    let slot = this.slots[0]!;
    for (const s of this.slots) if (s.pending.size < slot.pending.size) slot = s;
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      let grace: NodeJS.Timeout | undefined;
      const settle = () => {
        clearTimeout(timer);
        clearTimeout(grace);
      };
      slot.pending.set(id, {
        resolve: (v) => {
          settle();
          resolve(v as T);
        },
        reject: (e) => {
          settle();
          reject(e);
        },
      });
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          Atomics.store(slot.cancel, 0, id);
          grace = setTimeout(() => {
            const p = slot.pending.get(id);
            if (!p) return;
            slot.pending.delete(id);
            p.reject(new SqliteWorkerError('statement interrupted: request time-out', 'INTERRUPTED'));
            void slot.worker.terminate();
          }, INTERRUPT_GRACE_MS);
          grace.unref();
        }, timeoutMs);
        timer.unref();
      }
      slot.worker.postMessage({ ...message, id });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
