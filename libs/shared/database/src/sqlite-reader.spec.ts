import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { DataSource, QueryFailedError } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options';
import { queryCounter } from './query-counter';
import { READER_YOUNG_GENERATION_MB, readOnThread, SqliteReader } from './sqlite-reader';

describe('reads of an SQLite file on a connection of their own (SqliteReader)', () => {
  let folder: string;
  let dataSource: DataSource;
  let reader: SqliteReader;
  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'calendar-reader-'));
    const file = join(folder, 'calendar.sqlite');
    dataSource = new DataSource(buildDataSourceOptions({ type: 'sqlite', file }));
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL, data BLOB)');
    reader = new SqliteReader(file, { cacheKib: 1000, statements: 2, seen: 2, collectEvery: 5 });
    readOnThread(dataSource, reader);
  });
  afterEach(async () => {
    await dataSource.destroy();
    rmSync(folder, { recursive: true, force: true });
  });

  it('sends what only reads outside a transaction to the thread, which sees every committed write', async () => {
    await dataSource.query('INSERT INTO notes (id, body) VALUES (1, ?)', ['first']);
    expect(await dataSource.query('SELECT id, body FROM notes ORDER BY id')).toEqual([{ id: 1, body: 'first' }]);
    expect(reader.reads).toBe(1);
    await dataSource.transaction(async (manager) => {
      await manager.query('INSERT INTO notes (id, body) VALUES (2, ?)', ['second']);
    });
    expect(await dataSource.query('SELECT COUNT(*) AS count FROM notes')).toEqual([{ count: 2 }]);
    expect(reader.reads).toBe(2);
  });

  it('keeps a statement that begins with WITH on the main connection: it may write', async () => {
    await dataSource.query("WITH next AS (SELECT 7 AS id, 'seventh' AS body) INSERT INTO notes (id, body) SELECT id, body FROM next");
    expect(await dataSource.query('WITH n AS (SELECT body FROM notes) SELECT body FROM n')).toEqual([{ body: 'seventh' }]);
    expect(await dataSource.query('SELECT body FROM notes')).toEqual([{ body: 'seventh' }]);
    expect(reader.reads).toBe(1);
  });

  it('keeps every statement on the main connection while a transaction is open there: a write sees what it wrote', async () => {
    let inside: unknown;
    await dataSource.transaction(async (manager) => {
      await manager.query('INSERT INTO notes (id, body) VALUES (3, ?)', ['third']);
      inside = await manager.query('SELECT body FROM notes WHERE id = ?', [3]);
    });
    expect(inside).toEqual([{ body: 'third' }]);
    expect(reader.reads).toBe(0);
  });

  it('gives the rows of query builders and repositories alike, BLOBs as Buffers', async () => {
    await dataSource.query('INSERT INTO notes (id, body, data) VALUES (4, ?, ?)', ['fourth', Buffer.from([0, 1, 254])]);
    const rows = await dataSource.createQueryBuilder().select('n.id', 'id').addSelect('n.data', 'data').from('notes', 'n').where('n.id = :id', { id: 4 }).getRawMany();
    expect(rows).toEqual([{ id: 4, data: Buffer.from([0, 1, 254]) }]);
    expect(Buffer.isBuffer(rows[0].data)).toBe(true);
    const byBlob = await dataSource.query('SELECT id FROM notes WHERE data = ?', [Buffer.from([0, 1, 254])]);
    expect(byBlob).toEqual([{ id: 4 }]);
    expect(reader.reads).toBe(2);
  });

  it('counts each statement it sends, as the driver does', async () => {
    const before = queryCounter.count;
    await dataSource.query('SELECT 1 AS one');
    await dataSource.query('SELECT 2 AS two');
    expect(queryCounter.count - before).toBe(2);
    expect(reader.reads).toBe(2);
  });

  it('fails a statement the database refuses as the driver does, naming the database error', async () => {
    const failed = dataSource.query('SELECT missing FROM no_such_table');
    await expect(failed).rejects.toBeInstanceOf(QueryFailedError);
    await expect(failed).rejects.toThrow('no such table: no_such_table');
    await expect(failed).rejects.toMatchObject({ driverError: { code: 'SQLITE_ERROR' } });
    // The thread goes on answering.
    expect(await dataSource.query('SELECT COUNT(*) AS count FROM notes')).toEqual([{ count: 0 }]);
  });

  it('answers the same text again and again, kept prepared or not, with parameters of each call', async () => {
    await dataSource.query("INSERT INTO notes (id, body) VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    const texts = ['SELECT body FROM notes WHERE id = ?', 'SELECT body FROM notes WHERE id >= ? ORDER BY id LIMIT 1', 'SELECT body FROM notes WHERE id <= ? ORDER BY id DESC LIMIT 1'];
    const answers: unknown[] = [];
    for (let round = 0; round < 3; round += 1) for (const text of texts) answers.push(...(await dataSource.query(text, [(round % 3) + 1])));
    expect(answers).toEqual([{ body: 'a' }, { body: 'a' }, { body: 'a' }, { body: 'b' }, { body: 'b' }, { body: 'b' }, { body: 'c' }, { body: 'c' }, { body: 'c' }]);
    expect(reader.reads).toBe(9);
  });

  it('sends reads to the main connection once the thread has stopped', async () => {
    await reader.close();
    expect(reader.open).toBe(false);
    await dataSource.query("INSERT INTO notes (id, body) VALUES (5, 'fifth')");
    expect(await dataSource.query('SELECT body FROM notes')).toEqual([{ body: 'fifth' }]);
    expect(reader.reads).toBe(0);
  });

  it('goes on answering through many statement texts of its own, prepared, dropped and collected', async () => {
    await dataSource.query("INSERT INTO notes (id, body) VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    const counts: unknown[] = [];
    for (let n = 0; n < 60; n += 1) counts.push(...(await dataSource.query(`SELECT COUNT(*) AS count, ${n} AS n FROM notes WHERE id <= ${(n % 3) + 1}`)));
    expect(counts).toEqual(Array.from({ length: 60 }, (_, n) => ({ count: (n % 3) + 1, n })));
    expect(reader.reads).toBe(60);
  });

  it('answers reads sent at once, each with its own rows', async () => {
    await dataSource.query("INSERT INTO notes (id, body) VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    const answers = await Promise.all([3, 1, 2, 3, 1].map((id) => dataSource.query('SELECT body FROM notes WHERE id = ?', [id])));
    expect(answers).toEqual([[{ body: 'c' }], [{ body: 'a' }], [{ body: 'b' }], [{ body: 'c' }], [{ body: 'a' }]]);
    expect(reader.reads).toBe(5);
  });

  it("keeps the thread's young generation to its own limit when the process runs with npm start's semi-space flag", async () => {
    // The flag as `npm start` passes it (the process's, read by each heap when it is made), then a thread of its own.
    setFlagsFromString('--max-semi-space-size=8');
    const flagged = new SqliteReader(join(folder, 'calendar.sqlite'), { cacheKib: 1000, statements: 2, seen: 2, collectEvery: 5 });
    try {
      // Rows that live until they are sent: the young generation grows to its limit under them.
      const many = 'SELECT x, printf(\'row %d\', x) AS body FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000) SELECT x FROM c)';
      for (let round = 0; round < 6; round += 1) expect((await flagged.all(many, [])).length).toBe(100000);
      const spaces = await flagged.heapSpaces();
      const young = spaces.filter((space) => space.name === 'new_space').reduce((sum, space) => sum + space.size, 0);
      // Two semi-spaces of a third of the limit each (2 MB), where the flag would make them 8 MB each.
      expect(young).toBeGreaterThan(0);
      expect(young).toBeLessThanOrEqual(((2 * READER_YOUNG_GENERATION_MB) / 3) * 1024 * 1024);
      expect(flagged.reads).toBe(6);
    } finally {
      await flagged.close();
      setFlagsFromString('--max-semi-space-size=0');
    }
  });
});
