import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A value that the asynchronous work started by `run` can read (`get`), and nothing else can: an
 * AsyncLocalStorage that is enabled only while one of its runs is under way.
 *
 * On Node.js 20 an enabled AsyncLocalStorage keeps promise hooks installed that every promise of the process goes
 * through, the requests that never read the store included; once enabled it stays so until `disable()`. Used as is
 * by the writes, the first write made every later read pay for it (12 of the 169 KB a single event's read
 * allocated: docs/benchmarks.md). Disabling when the last run ends is safe: no work that reads the store is under
 * way then, and a work that runs later reads nothing, as it would outside any run.
 */
export class ScopedStore<T> {
  private readonly storage = new AsyncLocalStorage<T>();
  private running = 0;

  /** Runs `work` with `value` as what `get` gives inside it, until the promise it returns settles. */
  run<R>(value: T, work: () => Promise<R>): Promise<R> {
    this.running += 1;
    let done: Promise<R>;
    try {
      done = this.storage.run(value, work);
    } catch (error) {
      this.end();
      throw error;
    }
    return done.finally(() => this.end());
  }

  /** The value of the run whose work calls this, or undefined outside every run. */
  get(): T | undefined {
    return this.storage.getStore();
  }

  /** Whether the store is enabled (runs under way): for tests. */
  get active(): boolean {
    return this.running > 0;
  }

  private end(): void {
    this.running -= 1;
    if (this.running === 0) this.storage.disable();
  }
}
