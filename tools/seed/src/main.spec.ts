import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { createConnection } from 'mysql2/promise';
import { createTestDatabase } from '@calendar/shared/testing';

const run = promisify(execFile);
const WORKSPACE = join(__dirname, '../../..');
const ENGINES = (globalThis as { TEST_ENGINES?: string[] }).TEST_ENGINES ?? ['sqlite'];

describe('npm run seed', () => {
  let directory: string;
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'calendar-seed-'));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('fills a database through the migrations and the write path: indexed for search, terms counted, data versions moved, writes logged', async () => {
    const file = join(directory, 'seeded.sqlite');
    const { stdout } = await run(process.execPath, ['-r', '@swc-node/register', 'tools/seed/src/main.ts', '--events', '60'], {
      cwd: WORKSPACE,
      env: { ...process.env, DATABASE_URL: `sqlite:${file}` },
    });
    expect(JSON.parse(stdout)).toEqual({ database: 'sqlite', seed: 1, events: 60, venues: 20, organizers: 10, tags: 20, seconds: expect.any(Number) });
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) AS n FROM events').get()).toEqual({ n: 60 });
      const indexed = db.prepare('SELECT kind, COUNT(DISTINCT record_id) AS n FROM search_tokens GROUP BY kind ORDER BY kind').all();
      expect(indexed).toEqual([
        { kind: 'event', n: 60 },
        { kind: 'organizer', n: 10 },
        { kind: 'venue', n: 20 },
      ]);
      // Two writes of the one write path: the places and terms, then the events (one batch), which moves the terms'
      // counts but not the terms' own version (counts are kept per write, apart from the terms' renderings).
      expect(db.prepare('SELECT SUM(writes) AS writes, SUM(venues) AS venues, SUM(organizers) AS organizers, SUM(terms) AS terms FROM version_slots').get()).toEqual({ writes: 2, venues: 1, organizers: 1, terms: 1 });
      const counted = db.prepare("SELECT COUNT(*) AS n FROM event_terms et JOIN events e ON e.id = et.event_id WHERE e.status = 'publish'").get();
      expect(db.prepare('SELECT SUM(event_count) AS n FROM terms').get()).toEqual(counted);
      // The events batch only added events: the write log names each, as after creates through the API.
      expect(db.prepare('SELECT COUNT(DISTINCT event_id) AS n, MIN(event_id) AS first FROM write_log').get()).toEqual({ n: 61, first: 0 });
      expect(db.prepare('SELECT COUNT(*) AS n FROM write_log WHERE event_id = 0').get()).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  }, 60_000);
});

for (const engine of ENGINES.filter((name) => name === 'mysql')) {
  describe(`npm run seed beside another writer (${engine})`, () => {
    it('gives each batch the ids that are next when it is written, so events created meanwhile fail nothing', async () => {
      const database = await createTestDatabase('mysql');
      const writer = await createConnection({ uri: database.url });
      try {
        const seeding = run(process.execPath, ['-r', '@swc-node/register', 'tools/seed/src/main.ts', '--events', '2400', '--batch', '100'], {
          cwd: WORKSPACE,
          env: { ...process.env, DATABASE_URL: database.url },
        });
        let done = false;
        const finished = seeding.finally(() => (done = true));
        // Once the first batch is in, events are added beside the seed as the service adds them: the next id is
        // given by the table (a copy of the first event, without its texts and links).
        let first: Record<string, unknown> | undefined;
        while (!done && first === undefined) {
          const [rows] = await writer.query('SELECT * FROM events ORDER BY id LIMIT 1').catch(() => [[]]);
          first = (rows as Record<string, unknown>[])[0];
          if (first === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(first).toBeDefined();
        // Its span class is made by the database from the times (a generated column, which takes no value).
        const { id: _id, span_class: _spanClass, ...copy } = first as Record<string, unknown>;
        const columns = Object.keys(copy);
        let added = 0;
        while (!done) {
          await writer.query(`INSERT INTO events (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, columns.map((column) => copy[column]));
          added += 1;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const { stdout } = await finished;
        expect(JSON.parse(stdout)).toEqual({ database: 'mysql', seed: 1, events: 2400, venues: 48, organizers: 24, tags: 20, seconds: expect.any(Number) });
        expect(added).toBeGreaterThan(0);
        const [counts] = await writer.query(
          'SELECT COUNT(*) AS events, SUM(EXISTS (SELECT 1 FROM event_translations t WHERE t.event_id = e.id)) AS seeded FROM events e',
        );
        expect(counts).toEqual([{ events: 2400 + added, seeded: '2400' }]);
        // The other writer's events came before some of the seed's: batches were written after them, on later ids.
        const [[order]] = (await writer.query(
          'SELECT (SELECT MIN(id) FROM events e WHERE NOT EXISTS (SELECT 1 FROM event_translations t WHERE t.event_id = e.id)) < (SELECT MAX(event_id) FROM event_translations) AS interleaved',
        )) as unknown as [[{ interleaved: number }]];
        expect(order).toEqual({ interleaved: 1 });
      } finally {
        await writer.end();
        await database.drop();
      }
    }, 120_000);
  });
}
