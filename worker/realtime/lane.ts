const noop = () => undefined;

/**
 * The order of one room's chat work. Writes (store a message and broadcast it, or broadcast a deletion) run one
 * at a time, in the order they arrive. Reads (a `chat.sync`: query, answer, mark the connection synced) queued
 * between the same two writes run together. So every sync sees each write that came before it and is finished
 * before the next write broadcasts: a connection never misses a message between its history and its live frames.
 */
export class Lane {
  private tail: Promise<void> = Promise.resolve();
  /** The reads started after the last write, and the point they start from. */
  private readers: { start: Promise<void>; runs: Promise<unknown>[] } | null = null;

  write<T>(fn: () => T | Promise<T>): Promise<T> {
    this.readers = null;
    const run = this.tail.then(fn);
    this.tail = run.then(noop, noop);
    return run;
  }

  read<T>(fn: () => T | Promise<T>): Promise<T> {
    // A long run of reads is cut into groups, so the list of promises stays short.
    if (!this.readers || this.readers.runs.length >= 64) this.readers = { start: this.tail, runs: [] };
    const run = this.readers.start.then(fn);
    this.readers.runs.push(run);
    this.tail = Promise.allSettled(this.readers.runs).then(noop);
    return run;
  }
}
