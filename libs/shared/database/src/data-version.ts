import { Injectable } from '@nestjs/common';
import { DATA_PARTS, DataVersions, DataVersionSource } from '@calendar/shared/http';
import { DataSource } from 'typeorm';

/**
 * How many rows of `version_slots` writes spread over. Each write transaction moves one slot on; two writes wait
 * on each other (or, on two Galera nodes, conflict) only when they take the same one.
 */
export const VERSION_SLOTS = 32;

/** Moves every version on, as a write to everything would (for tools that write outside the service). */
export const BUMP_VERSIONS = `UPDATE version_slots SET writes = writes + 1, ${DATA_PARTS.map((part) => `${part} = ${part} + 1`).join(', ')} WHERE slot = 0`;

/** The versions from the rows of `version_slots`: sums over the slots, and each slot's count of writes. */
export function versionsOf(rows: Record<string, unknown>[]): DataVersions {
  const slots = new Array<number>(VERSION_SLOTS).fill(0);
  const parts: DataVersions['parts'] = Object.fromEntries(DATA_PARTS.map((part) => [part, 0]));
  for (const row of rows) {
    slots[Number(row['slot'])] = Number(row['writes']);
    for (const part of DATA_PARTS) parts[part] = (parts[part] ?? 0) + Number(row[part]);
  }
  return { global: slots.reduce((sum, writes) => sum + writes, 0), parts, slots };
}

/**
 * A scalar subquery giving the slots' counts of writes as `slot:writes` pairs, for a statement that must read
 * them together with what it computes (the same snapshot); `parseSlots` reads its value back.
 */
export function slotsSubquery(type: DataSource['options']['type']): string {
  return type === 'mysql'
    ? `(SELECT GROUP_CONCAT(CONCAT(slot, ':', writes)) FROM version_slots)`
    : `(SELECT group_concat(slot || ':' || writes) FROM version_slots)`;
}

/** The slots' counts of writes from the value of `slotsSubquery`. */
export function parseSlots(value: unknown): number[] {
  const slots = new Array<number>(VERSION_SLOTS).fill(0);
  for (const pair of String(value ?? '').split(',')) {
    const [slot, writes] = pair.split(':').map(Number);
    if (Number.isInteger(slot) && slot >= 0 && slot < VERSION_SLOTS) slots[slot] = writes;
  }
  return slots;
}

/** The data versions as the database holds them: one read of the rows of `version_slots`. */
@Injectable()
export class DatabaseDataVersion extends DataVersionSource {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async read(): Promise<DataVersions> {
    return versionsOf(await this.dataSource.query(`SELECT slot, writes, ${DATA_PARTS.join(', ')} FROM version_slots`));
  }
}
