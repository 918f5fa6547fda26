import { Injectable } from '@nestjs/common';
import { BoundedMap, BoundedMapOptions, CacheStats } from './bounded-map';
import { RevisionCache } from './revision-cache';

/**
 * Every cache of a running service, by name: made here (so that none is a private map out of sight), their sizes
 * and hit counts readable (`stats`), each one off on demand (`turnOff`, for a test or a measurement that must see
 * the code without it). One registry per application, provided by the HTTP platform module.
 */
@Injectable()
export class CacheRegistry {
  private readonly maps = new Map<string, BoundedMap<unknown>>();

  /** A bounded map registered under `name`. */
  bounded<V>(name: string, capacity: number, options: BoundedMapOptions<V>): BoundedMap<V> {
    return this.add(name, new BoundedMap<V>(capacity, options));
  }

  /** A revision cache (bounded by bytes) registered under `name`. */
  revisions<V>(name: string, capacityBytes: number, options: Pick<BoundedMapOptions<V>, 'admission'> = {}): RevisionCache<V> {
    const cache = new RevisionCache<V>(capacityBytes, options);
    this.add(name, cache.map);
    return cache;
  }

  /** What every cache holds and how often it served, by name. */
  stats(): CacheStats[] {
    return [...this.maps].map(([name, map]) => map.stats(name));
  }

  /** Turns a cache off: it empties and keeps nothing from then on. */
  turnOff(name: string): void {
    this.named(name).resize(0);
  }

  /** Empties a cache, which keeps what comes next as before (a test that must start from nothing kept). */
  empty(name: string): void {
    this.named(name).clear();
  }

  private named(name: string): BoundedMap<unknown> {
    const map = this.maps.get(name);
    if (!map) throw new Error(`no cache is named ${name}; the caches are: ${[...this.maps.keys()].join(', ')}`);
    return map;
  }

  private add<V>(name: string, map: BoundedMap<V>): BoundedMap<V> {
    if (this.maps.has(name)) throw new Error(`a cache named ${name} is already registered`);
    this.maps.set(name, map as BoundedMap<unknown>);
    return map;
  }
}
