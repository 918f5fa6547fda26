import { setTimeout as sleep } from 'node:timers/promises';
import { ScopedStore } from './scoped-store';

describe('ScopedStore', () => {
  it('gives each run its own value through its awaits, and nothing outside the runs', async () => {
    const store = new ScopedStore<string>();
    const seen: (string | undefined)[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const long = store.run('a', async () => {
      seen.push(store.get());
      await gate;
      seen.push(store.get());
      return 'long';
    });
    const short = await store.run('b', async () => {
      await sleep(1);
      seen.push(store.get());
      return 'short';
    });
    // The short run ended while the long one waits: the long one still reads its value.
    expect(store.active).toBe(true);
    release();
    expect([await long, short]).toEqual(['long', 'short']);
    expect(seen).toEqual(['a', 'b', 'a']);
    expect(store.get()).toBeUndefined();
    expect(store.active).toBe(false);
  });

  it('is disabled once its last run has ended: work a run left behind reads nothing afterwards', async () => {
    const store = new ScopedStore<number>();
    let leftBehind!: Promise<number | undefined>;
    await store.run(1, async () => {
      leftBehind = sleep(5).then(() => store.get());
    });
    // A plain AsyncLocalStorage would give 1 here: it stays enabled, and its promise hooks with it.
    expect(await leftBehind).toBeUndefined();
    // A later run enables it again.
    expect(await store.run(2, async () => store.get())).toBe(2);
  });

  it('ends a run whose work fails, and passes the failure on', async () => {
    const store = new ScopedStore<number>();
    await expect(
      store.run(1, async () => {
        throw new Error('failed');
      }),
    ).rejects.toThrow('failed');
    expect(() =>
      store.run(1, () => {
        throw new Error('at once');
      }),
    ).toThrow('at once');
    expect(store.active).toBe(false);
    expect(store.get()).toBeUndefined();
  });
});
