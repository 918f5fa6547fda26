import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '@calendar/shared/config';
import { GaleraNode, TransactionRunner } from '@calendar/shared/database';
import { TermRepository } from '@calendar/taxonomy';
import { DataSource, EntityManager } from 'typeorm';
import { EventRepository } from '../event.repository';
import { CountDelta, CountDeltas, Tally, TALLY_SCHEME, TalliedEvent, tallyOf } from './event-tally';

/** Events per statement when tallies are read and written. */
const BATCH = 500;
/** Rows of `event_day_counts` per upsert. */
const ROWS = 300;

type Row = Record<string, unknown>;

/**
 * Keeps `event_day_counts` exact (SPEC §10.2): inside every write's transaction, the events it changed are tallied
 * again — what each counted for (`event_tallies`) is taken back and what it counts for now is added — so that a list
 * total of whole days is a sum over the window's days. Called with the write's effects (`EventWriter`), and once at
 * start when the days were counted in another time zone or never.
 */
@Injectable()
export class DayCounts implements OnApplicationBootstrap {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly events: EventRepository,
    private readonly terms: TermRepository,
    private readonly galera: GaleraNode,
    private readonly transactions: TransactionRunner,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.countAllIfStale();
  }

  /**
   * Brings what the events `ids` count for in line with what they are now (an event that is gone counts for nothing).
   * `fresh`: events the write created, which count for nothing yet (no tally to take back is read for them).
   * `linkRows`: their links read from the link rows, not from the lists on their rows (`EventRepository.tallied`).
   * `known`: what the writer of an event the write created knows of it, taken instead of its row.
   */
  async retally(
    manager: EntityManager,
    ids: Iterable<number>,
    { fresh = new Set(), linkRows = false, known }: { fresh?: ReadonlySet<number>; linkRows?: boolean; known?: (id: number) => TalliedEvent | undefined } = {},
  ): Promise<void> {
    const all = [...new Set(ids)];
    for (let offset = 0; offset < all.length; offset += BATCH) {
      const chunk = all.slice(offset, offset + BATCH);
      const counted = chunk.filter((id) => !fresh.has(id));
      const before: Row[] =
        counted.length === 0 ? [] : await manager.query(`SELECT event_id, audiences, day, length, filter_keys FROM event_tallies WHERE event_id IN (${counted.map(() => '?').join(', ')})`, counted);
      // An event this write created is counted as its writer gave it (`known`), not read back.
      const now = await this.events.tallied(manager, chunk, { linkRows, known });
      const ancestors = await this.terms.ancestors(manager, [...now.values()].flatMap((event) => event.terms));
      const deltas = new CountDeltas();
      for (const row of before) deltas.add(storedTally(row), -1);
      const tallies = new Map<number, Tally>();
      for (const [id, event] of now) {
        const tally = tallyOf(event, this.config.timezone.zone, ancestors);
        if (tally.audiences !== 0) tallies.set(id, tally);
        deltas.add(tally, 1);
      }
      await this.apply(manager, deltas.changes());
      if (before.length > 0) await manager.query(`DELETE FROM event_tallies WHERE event_id IN (${before.map(() => '?').join(', ')})`, before.map((row) => Number(row['event_id'])));
      const rows = [...tallies];
      for (let start = 0; start < rows.length; start += ROWS) {
        const part = rows.slice(start, start + ROWS);
        await manager.query(
          `INSERT INTO event_tallies (event_id, audiences, day, length, filter_keys) VALUES ${part.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
          part.flatMap(([id, tally]) => [id, tally.audiences, tally.day, tally.length, `,${tally.keys.join(',')},`]),
        );
      }
    }
  }

  /**
   * The events counted under a term (linked to it or to one of its descendants) tallied again: after the term moved
   * in the tree of categories or was deleted, they count for other ancestors. Returns the events tallied.
   */
  async retallyUnderTerms(manager: EntityManager, termIds: readonly number[]): Promise<number[]> {
    if (termIds.length === 0) return [];
    const rows: Row[] = await manager.query(`SELECT event_id FROM event_tallies WHERE ${termIds.map(() => 'filter_keys LIKE ?').join(' OR ')}`, termIds.map((id) => `%,k${id},%`));
    const ids = rows.map((row) => Number(row['event_id']));
    await this.retally(manager, ids);
    return ids;
  }

  /**
   * Counts every event again when the days were counted in another time zone than the service's, under other keys
   * (`TALLY_SCHEME`), or never (the first start after the tables were made): in one transaction, which a second
   * instance starting at the same time waits for, and then finds done.
   */
  async countAllIfStale(): Promise<boolean> {
    const zone = this.config.timezone.name;
    // Instances started at once on a Galera cluster each lock the state row on their own node; all but one lose
    // certification and run again, then find the counts done (`runApart` runs again after a deadlock).
    return this.transactions.runApart(async (manager) => {
      const lock = this.dataSource.options.type === 'mysql' ? ' FOR UPDATE' : '';
      const [state] = await manager.query(`SELECT zone, scheme FROM event_tally_state WHERE id = 1${lock}`);
      if (state?.zone === zone && Number(state?.scheme) === TALLY_SCHEME) return false;
      await manager.query('DELETE FROM event_day_counts');
      await manager.query('DELETE FROM event_tallies');
      for (let after = 0; ; ) {
        const rows: Row[] = await manager.query('SELECT id FROM events WHERE id > ? ORDER BY id LIMIT 2000', [after]);
        if (rows.length === 0) break;
        const ids = rows.map((row) => Number(row['id']));
        // Every event counted anew from its rows, links included: nothing counted before is taken for right.
        await this.retally(manager, ids, { linkRows: true });
        after = ids[ids.length - 1];
      }
      await manager.query('UPDATE event_tally_state SET zone = ?, scheme = ? WHERE id = 1', [zone, TALLY_SCHEME]);
      return true;
    });
  }

  /**
   * Moves the counts of the rows changed (inserted at their change when new), in the table's key order, in the rows
   * of the write's slot: 0, or on a Galera node the node's own (the cluster numbers its nodes, as for the version
   * slots), so that concurrent writes through different nodes never change the same row.
   */
  private async apply(manager: EntityManager, changes: CountDelta[]): Promise<void> {
    if (changes.length === 0) return;
    const mysql = this.dataSource.options.type === 'mysql';
    const merge = mysql
      ? 'ON DUPLICATE KEY UPDATE public_n = public_n + VALUES(public_n), editor_n = editor_n + VALUES(editor_n)'
      : 'ON CONFLICT (filter_key, day, length, slot) DO UPDATE SET public_n = public_n + excluded.public_n, editor_n = editor_n + excluded.editor_n';
    const slot = this.galera.on ? Number((await manager.query('SELECT @@auto_increment_offset AS node'))[0].node) - 1 : 0;
    for (let start = 0; start < changes.length; start += ROWS) {
      const part = changes.slice(start, start + ROWS);
      await manager.query(
        `INSERT INTO event_day_counts (filter_key, day, length, slot, public_n, editor_n) VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')} ${merge}`,
        part.flatMap((row) => [row.key, row.day, row.length, slot, row.public, row.editor]),
      );
    }
  }
}

/** A tally as `event_tallies` holds it. */
function storedTally(row: Row): Tally {
  return {
    audiences: Number(row['audiences']),
    day: Number(row['day']),
    length: Number(row['length']),
    keys: String(row['filter_keys']).split(',').filter((key) => key !== ''),
  };
}
