import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';

const run = promisify(execFile);
const WORKSPACE = join(__dirname, '../../..');

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
      // Two writes of the one write path: the places and terms, then the events (one batch), which recounts terms.
      expect(db.prepare('SELECT SUM(writes) AS writes, SUM(venues) AS venues, SUM(organizers) AS organizers, SUM(terms) AS terms FROM version_slots').get()).toEqual({ writes: 2, venues: 1, organizers: 1, terms: 2 });
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
