import 'reflect-metadata';
import { randomInt } from 'node:crypto';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { ConfigError } from '@calendar/shared/config';
import { TransactionRunner, WriteEffects } from '@calendar/shared/database';
import { DataSource, EntityManager } from 'typeorm';
import { SeedModule } from './seed.module';
import { EventContext, eventBatch, movedTo, organizerRows, sizesFor, termRows, utc, venueRows } from './calendar';
import { progressLine } from './progress';
import { Random } from '@calendar/shared/testing';

/*
 * Fills the database of DATABASE_URL with a realistic calendar, through the service's own migrations and
 * tables, in batched multi-row inserts: `npm run seed -- --events 100000 [--seed 1] [--batch 500]`. Each batch is a
 * write of the service's one write path (`TransactionRunner`): it records every record it creates, the terms to
 * recount and the longest span in its effects, and the coordinator applies them as after any write (search rows of
 * every record it names, term counts, the span, data versions, the write log). The service may run and take writes
 * meanwhile: each batch takes the ids that are next when it is written.
 */

const USAGE = 'Usage: npm run seed -- [--events N (default 100000)] [--seed S (default 1)] [--batch B (default 500)]';

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new Error(`--${name} must be a positive integer\n${USAGE}`);
  return Number(value);
}

async function insertRows(manager: EntityManager, table: string, rows: Record<string, unknown>[], batch: number): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]);
  for (let offset = 0; offset < rows.length; offset += batch) {
    const chunk = rows.slice(offset, offset + batch);
    const placeholders = chunk.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ');
    const params = chunk.flatMap((row) => columns.map((column) => (typeof row[column] === 'boolean' ? (row[column] ? 1 : 0) : row[column])));
    await manager.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${placeholders}`, params);
  }
}

/** Milliseconds since 1970 of a UTC wall-clock time as the rows hold it (`utc`). */
function instant(value: unknown): number {
  return Date.parse(`${String(value).replace(' ', 'T')}Z`);
}

/** The id after the highest of `table`, as the write's transaction sees it. */
async function nextId(manager: EntityManager, table: string): Promise<number> {
  const [row] = await manager.query(`SELECT MAX(id) AS id FROM ${table}`);
  return Number(row?.id ?? 0) + 1;
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { events: { type: 'string' }, seed: { type: 'string' }, batch: { type: 'string' } }, strict: true });
  const events = positive('events', values.events, 100_000);
  const seed = positive('seed', values.seed, 1);
  const batch = positive('batch', values.batch, 500);
  const app = await NestFactory.createApplicationContext(SeedModule, { logger: false, abortOnError: false });
  const dataSource = app.get(DataSource);
  const transactions = app.get(TransactionRunner);
  const started = Date.now();
  try {
    const generator = new Random(seed);
    const sizes = sizesFor(events);
    const now = utc(new Date());

    // The places and terms are made inside their transaction, from the ids the tables have there and from a copy of
    // the generator: run again (a deadlock, another writer's ids), the write makes them anew on the ids then free,
    // as every write must (`TransactionRunner`), with the same content.
    const places = await transactions.run(async (manager) => {
      const own = generator.copy();
      const firstUser = await nextId(manager, 'users');
      const users = Array.from({ length: 5 }, (_, i) => ({ id: firstUser + i, login: `seed-${seed}-author-${firstUser + i}`, role: i === 0 ? 'editor' : 'author', created_at: now }));
      const terms = termRows(await nextId(manager, 'terms'), sizes.tags);
      const venueStart = await nextId(manager, 'venues');
      const venues = venueRows(own, venueStart, sizes.venues, users[0].id);
      const organizerStart = await nextId(manager, 'organizers');
      const organizers = organizerRows(own, organizerStart, sizes.organizers, users[0].id);
      await insertRows(manager, 'users', users, batch);
      await insertRows(manager, 'terms', terms.terms, batch);
      await insertRows(manager, 'term_translations', terms.translations, batch);
      await insertRows(manager, 'venues', venues.venues, batch);
      await insertRows(manager, 'venue_translations', venues.translations, batch);
      await insertRows(manager, 'organizers', organizers.organizers, batch);
      await insertRows(manager, 'organizer_translations', organizers.translations, batch);
      const effects = WriteEffects.of(manager).movePart('venues').movePart('organizers').movePart('terms');
      for (const term of terms.terms) effects.record(term.taxonomy === 'category' ? 'category' : 'tag', Number(term.id), 'created');
      for (const venue of venues.venues) effects.record('venue', Number(venue['id']), 'created').reindex('venue', Number(venue['id']));
      for (const organizer of organizers.organizers) effects.record('organizer', Number(organizer['id']), 'created').reindex('organizer', Number(organizer['id']));
      const context: EventContext = {
        authorIds: users.map((user) => user.id),
        venueIds: [venueStart, venueStart + sizes.venues - 1],
        organizerIds: [organizerStart, organizerStart + sizes.organizers - 1],
        categoryIds: terms.categoryIds,
        tagIds: terms.tagIds,
      };
      return { context, random: own };
    });
    const random = places.random;

    const step = batch * 4;
    let next = await nextId(dataSource.manager, 'events');
    for (let from = 0; from < events; from += step) {
      const to = Math.min(events, from + step);
      // Made before its transaction, numbered from the id expected next (`eventBatch` numbers event n `startId + n`).
      const made = eventBatch(random, next - from, from, to, places.context);
      next = await transactions.run(async (manager) => {
        // Written on the ids next in this transaction: the service may have created events since the batch was
        // made, or since an attempt the runner runs again. Revisions are not content: new random ones, as every
        // write gives, so no rendering kept of an earlier row of the same id can pass for one of these.
        const rows = movedTo(made, await nextId(manager, 'events'));
        // Highest id first: MySQL's next id for the service's own creates moves past the batch at its first row.
        await insertRows(manager, 'events', rows.events.map((row) => ({ ...row, revision: randomInt(1, 2 ** 31 - 1) })).reverse(), batch);
        await insertRows(manager, 'event_translations', rows.translations, batch);
        await insertRows(manager, 'event_venues', rows.venues, batch);
        await insertRows(manager, 'event_organizers', rows.organizers, batch);
        await insertRows(manager, 'event_terms', rows.terms, batch);
        const effects = WriteEffects.of(manager).recount(rows.terms.map((link) => Number(link['term_id'])));
        for (const event of rows.events) {
          effects.record('event', Number(event['id']), 'created').reindex('event', Number(event['id']));
          effects.widenSpan(Math.round((instant(event['end_utc']) - instant(event['start_utc'])) / 1000));
        }
        return Number(rows.events[rows.events.length - 1]['id']) + 1;
      });
      if (process.stderr.isTTY) process.stderr.write(`\r${progressLine(to, events, Date.now() - started)}`);
    }
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    process.stdout.write(`${JSON.stringify({ database: dataSource.options.type === 'mysql' ? 'mysql' : 'sqlite', seed, events, venues: sizes.venues, organizers: sizes.organizers, tags: sizes.tags, seconds })}\n`);
  } finally {
    await app.close();
  }
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `seed failed: ${error.message}`}\n`);
  process.exitCode = 1;
});
