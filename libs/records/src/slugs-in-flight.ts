import type { EntityManager } from 'typeorm';
import { onTransactionEnd } from '@calendar/shared/database';

/**
 * Generated slugs that writes of this instance have chosen and not yet committed or given up, per language. A
 * write choosing the first free slug of a title passes over them as well as over those in the database, so that
 * simultaneous creates with one title through one instance take `title`, `title-2`, ... at once instead of each
 * finding `title` free and all but one being run again (the unique index still settles what two instances choose
 * at the same moment).
 */
export class SlugsInFlight {
  private readonly held = new Map<string, number>();

  /** `taken` with the slugs held in `language` by writes still running. */
  including(language: string, taken: ReadonlySet<string>): Set<string> {
    const all = new Set(taken);
    const prefix = `${language}\n`;
    for (const key of this.held.keys()) if (key.startsWith(prefix)) all.add(key.slice(prefix.length));
    return all;
  }

  /** Holds `slug` until the transaction of `manager` ends. */
  hold(manager: EntityManager, language: string, slug: string): void {
    const key = `${language}\n${slug}`;
    this.held.set(key, (this.held.get(key) ?? 0) + 1);
    onTransactionEnd(manager, () => {
      const count = (this.held.get(key) ?? 1) - 1;
      if (count > 0) this.held.set(key, count);
      else this.held.delete(key);
    });
  }

  /** How many slugs are held (for tests). */
  get size(): number {
    return this.held.size;
  }
}
