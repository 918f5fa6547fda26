import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options';
import { DatabaseDataVersion, VERSION_SLOTS } from './data-version';
import { TransactionRunner } from './transaction';
import { slotFor, WRITE_LOG_PER_SLOT } from './write-coordinator';
import { WriteEffects } from './write-effects';

describe('TransactionRunner and the data versions', () => {
  let dataSource: DataSource;
  beforeAll(async () => {
    dataSource = new DataSource(buildDataSourceOptions({ type: 'sqlite', file: ':memory:' }));
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
  });
  afterAll(() => dataSource.destroy());

  it('moves the global version on with every write, and the versions of the parts a write marks', async () => {
    const runner = new TransactionRunner(dataSource);
    const versions = new DatabaseDataVersion(dataSource);
    const none = new Array(VERSION_SLOTS).fill(0);
    expect(await versions.read()).toEqual({ global: 0, parts: { venues: 0, organizers: 0, terms: 0 }, slots: none });
    await runner.run(async () => undefined);
    await runner.run(async (manager) => {
      WriteEffects.of(manager).movePart('terms').movePart('venues').movePart('terms');
    });
    const after = await versions.read();
    expect(after).toEqual({ global: 2, parts: { venues: 1, organizers: 0, terms: 1 }, slots: expect.any(Array) });
    // Each write moved one slot on.
    expect(after.slots.reduce((sum, writes) => sum + writes, 0)).toBe(2);
    await expect(
      runner.run(async (manager) => {
        WriteEffects.of(manager).movePart('organizers');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await versions.read()).toEqual(after);
    expect(await versions.current()).toBe(2);
  });

  it('runs a write again whole when the database gave it up for a concurrent one, up to its bound', async () => {
    const runner = new TransactionRunner(dataSource, 4);
    const versions = new DatabaseDataVersion(dataSource);
    const before = await versions.current();
    const conflicts = [{ errno: 1213, code: 'ER_LOCK_DEADLOCK' }, { errno: 1205, code: 'ER_LOCK_WAIT_TIMEOUT' }, { errno: 1047, code: 'ER_UNKNOWN_COM_ERROR' }];
    let attempts = 0;
    const result = await runner.run(async () => {
      const conflict = conflicts[attempts++];
      if (conflict) throw Object.assign(new Error(conflict.code), { driverError: conflict });
      return 'written';
    });
    // Three attempts gave way, the fourth was written, once.
    expect([result, attempts, await versions.current()]).toEqual(['written', 4, before + 1]);
    let tries = 0;
    await expect(
      runner.run(async () => {
        tries += 1;
        throw Object.assign(new Error('ER_LOCK_DEADLOCK'), { driverError: { errno: 1213 } });
      }),
    ).rejects.toThrow('ER_LOCK_DEADLOCK');
    expect([tries, await versions.current()]).toEqual([4, before + 1]);
  });

  it('logs each write under its slot and count: the events it only added, or event 0; and forgets old writes', async () => {
    const runner = new TransactionRunner(dataSource);
    await dataSource.query('DELETE FROM write_log');
    await runner.run(async (manager) => {
      WriteEffects.of(manager).record('event', 41, 'created').record('venue', 7, 'created').record('event', 42, 'created');
    });
    await runner.run(async () => undefined);
    // An update of an event is not an addition, even beside one.
    await runner.run(async (manager) => {
      WriteEffects.of(manager).record('event', 44, 'created').record('event', 40, 'updated');
    });
    await expect(
      runner.run(async (manager) => {
        WriteEffects.of(manager).record('event', 43, 'created');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const slots: { slot: number; writes: number }[] = await dataSource.query('SELECT slot, writes FROM version_slots');
    const log: { slot: number; seq: number; event_id: number }[] = await dataSource.query('SELECT slot, seq, event_id FROM write_log ORDER BY event_id DESC');
    // Each write's rows carry its slot and the count it moved that slot to.
    expect(log.map((row) => row.event_id)).toEqual([42, 41, 0, 0]);
    expect(log[0].slot === log[1].slot && log[0].seq === log[1].seq).toBe(true);
    for (const row of log) expect(slots.find((slot) => slot.slot === row.slot)?.writes).toBeGreaterThanOrEqual(row.seq);
    expect(new Set(log.map((row) => `${row.slot}:${row.seq}`)).size).toBe(3);
    // Every 16th write of a slot, that slot's rows more than WRITE_LOG_PER_SLOT behind go.
    await dataSource.query('UPDATE version_slots SET writes = ?', [WRITE_LOG_PER_SLOT + 15]);
    await dataSource.query('DELETE FROM write_log');
    for (let slot = 0; slot < VERSION_SLOTS; slot++) await dataSource.query('INSERT INTO write_log (slot, seq, event_id) VALUES (?, 16, 0), (?, 17, 0)', [slot, slot]);
    await runner.run(async () => undefined);
    const [{ written }] = await dataSource.query(`SELECT slot AS written FROM version_slots WHERE writes = ${WRITE_LOG_PER_SLOT + 16}`);
    expect(await dataSource.query('SELECT seq FROM write_log WHERE slot = ? ORDER BY seq', [written])).toEqual([{ seq: 17 }, { seq: WRITE_LOG_PER_SLOT + 16 }]);
    expect(await dataSource.query('SELECT COUNT(*) AS n FROM write_log WHERE slot <> ? AND seq <= 17', [written])).toEqual([{ n: 2 * (VERSION_SLOTS - 1) }]);
  });

  it('applies the registered appliers to each write\'s effects inside its transaction, in the order they registered', async () => {
    const runner = new TransactionRunner(dataSource);
    const seen: string[] = [];
    runner.coordinator.register('first', async (manager, effects) => {
      seen.push(`first ${effects.changes.map((change) => `${change.kind} ${change.id} ${change.action}`).join(', ')}`);
      await manager.query('SELECT 1');
    });
    runner.coordinator.register('second', async (_manager, effects) => {
      seen.push(`second ${[...effects.terms].join(',')}`);
    });
    expect(() => runner.coordinator.register('first', async () => undefined)).toThrow('An applier named first is registered already');
    await runner.run(async (manager) => {
      WriteEffects.of(manager).record('venue', 3, 'created').record('venue', 3, 'updated').record('event', 5, 'updated').record('event', 5, 'trashed').recount([2, 9, 2]);
      WriteEffects.of(manager).record('tag', 8, 'created').record('tag', 8, 'deleted');
    });
    expect(seen).toEqual(['first venue 3 created, event 5 trashed', 'second 2,9']);
    expect(() => WriteEffects.of(dataSource.manager)).toThrow('No write runs on this manager: writes go through TransactionRunner.run');
  });

  it('refuses a query a write would send on another connection than its transaction, and allows it after', async () => {
    const runner = new TransactionRunner(dataSource);
    await expect(runner.run(() => dataSource.query('SELECT 1 AS one'))).rejects.toThrow('A query inside a write transaction must go through its manager, not through another connection');
    expect(await runner.run((manager) => manager.query('SELECT 1 AS one'))).toEqual([{ one: 1 }]);
    expect(await dataSource.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('gives each node of a cluster its own slots, and spreads writes over them', () => {
    const taken = (node: number, nodes: number) => new Set(Array.from({ length: 2000 }, () => slotFor(node, nodes)));
    const everyThird = (first: number) => Array.from({ length: VERSION_SLOTS }, (_, slot) => slot).filter((slot) => slot % 3 === first);
    expect([...taken(1, 3)].sort((a, b) => a - b)).toEqual(everyThird(0));
    expect([...taken(2, 3)].sort((a, b) => a - b)).toEqual(everyThird(1));
    expect([...taken(3, 3)].sort((a, b) => a - b)).toEqual(everyThird(2));
    expect(taken(1, 1).size).toBe(VERSION_SLOTS);
    // More nodes than slots: still a slot.
    expect([...taken(40, 64)]).toEqual([39 % VERSION_SLOTS]);
  });
});
