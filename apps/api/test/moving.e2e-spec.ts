import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, mysqlReachable, TestDatabase, WORKSPACE_ROOT } from '@calendar/shared/testing';
import { ENGINE, startTestApp, TestApp } from './support/test-app';

/*
 * Moving and keeping the data (SPEC §19): `cli export` of a calendar, `cli import` into a new database of the other
 * engine, and every answer of the API the same before and after: every list page in every language and status,
 * every record by id and by slug, as an administrator and anonymously. The commands run as people run them
 * (`npm run cli` is `node -r @swc-node/register tools/cli/src/main.ts`).
 */

const NS = '/wp-json/calendar/events/v1';
const LANGUAGES = ['', '/fr', '/zh-hans'];
const run = promisify(execFile);

/** Runs the command line against a database; answers its exit code, its one JSON line, and what it said on stderr. */
async function cli(databaseUrl: string, ...args: string[]): Promise<{ code: number; out: Record<string, unknown> | null; err: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['-r', '@swc-node/register', 'tools/cli/src/main.ts', ...args], {
      cwd: WORKSPACE_ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      timeout: 120_000,
    });
    return { code: 0, out: JSON.parse(stdout) as Record<string, unknown>, err: stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: null, err: failed.stderr };
  }
}

/** A calendar with every kind of record in every status, translated, linked, with a series and its exceptions. */
async function writeCalendar(t: TestApp, token: string): Promise<void> {
  const send = async (method: string, path: string, json?: Record<string, unknown>) => {
    const reply = await t.request(method, path, { token, json });
    if (reply.status >= 300) throw new Error(`${method} ${path}: ${reply.status} ${reply.text}`);
    return reply.body;
  };
  const music = await send('POST', `${NS}/categories`, { name: 'Music', description: 'Concerts' });
  const jazz = await send('POST', `${NS}/categories`, { name: 'Jazz', parent: music.id });
  await send('POST', `/fr${NS}/categories/${music.id}`, { name: 'Musique' });
  await send('POST', `${NS}/tags`, { name: 'outdoor' });
  const hall = await send('POST', `${NS}/venues`, { venue: 'Grand Hall', address: '1 Main St', city: 'Lyon', country: 'France', geo_lat: 45.76, geo_lng: 4.83, website: 'https://hall.example' });
  await send('POST', `/fr${NS}/venues/${hall.id}`, { venue: 'Grande Salle' });
  await send('POST', `${NS}/venues`, { venue: 'Draft venue', status: 'draft' });
  const trashedVenue = await send('POST', `${NS}/venues`, { venue: 'Old barn' });
  await send('DELETE', `${NS}/venues/${trashedVenue.id}`);
  const crew = await send('POST', `${NS}/organizers`, { organizer: 'Jazz crew', email: 'crew@example.org', phone: '+33 1 23' });
  await send('POST', `/zh-hans${NS}/organizers/${crew.id}`, { organizer: '爵士团' });
  const concert = await send('POST', `${NS}/events`, {
    title: 'Open air concert',
    description: '<p>Bands <strong>under the trees</strong>.</p>',
    excerpt: 'Bands outside',
    start_date: '2030-05-01 19:00',
    end_date: '2030-05-01 22:30',
    timezone: 'Europe/Paris',
    cost: '10 EUR',
    categories: [jazz.id],
    tags: ['outdoor', 'summer'],
    venue: hall.id,
    organizer: [crew.id],
    featured: true,
    image: 'https://images.example/concert.jpg',
  });
  await send('POST', `/fr${NS}/events/${concert.id}`, { title: 'Concert en plein air', excerpt: 'Des groupes dehors' });
  await send('POST', `/zh-hans${NS}/events/${concert.id}`, { title: '露天音乐会' });
  await send('POST', `${NS}/events`, { title: 'Market day', start_date: '2030-05-02', end_date: '2030-05-02', all_day: true, categories: [music.id], sticky: true });
  await send('POST', `${NS}/events`, { title: 'Members only', start_date: '2030-05-03 10:00', end_date: '2030-05-03 11:00', password: 'secret' });
  await send('POST', `${NS}/events`, { title: 'Plan', start_date: '2030-05-04 10:00', end_date: '2030-05-04 11:00', status: 'draft' });
  await send('POST', `${NS}/events`, { title: 'Board meeting', start_date: '2030-05-05 10:00', end_date: '2030-05-05 11:00', status: 'private', hide_from_listings: true });
  await send('POST', `${NS}/events`, { title: 'Review', start_date: '2030-05-06 10:00', end_date: '2030-05-06 11:00', status: 'pending' });
  const gone = await send('POST', `${NS}/events`, { title: 'Cancelled', start_date: '2030-05-07 10:00', end_date: '2030-05-07 11:00' });
  await send('DELETE', `${NS}/events/${gone.id}`);
  // A weekly series: one occurrence edited on its own, one removed.
  const series = await send('POST', `${NS}/events`, { title: 'Weekly class', start_date: '2027-01-04 18:00', end_date: '2027-01-04 19:00', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5'], categories: [music.id], venue: hall.id });
  const occurrences = await t.request('GET', `${NS}/events?post_parent=${series.id}&start_date=2027-01-01&end_date=2027-03-01`, { token });
  await send('POST', `${NS}/events/${occurrences.body.events[1].id}`, { title: 'Weekly class (room B)' });
  await send('DELETE', `${NS}/events/${occurrences.body.events[3].id}`);
}

/** Every answer the walk reads: status, body text and the paging headers, by request. */
async function walk(t: TestApp, token: string): Promise<Map<string, unknown>> {
  const answers = new Map<string, unknown>();
  const read = async (path: string, caller: string | undefined) => {
    const reply = await t.request('GET', path, { token: caller });
    answers.set(`${caller ? 'admin' : 'anonymous'} ${path}`, { status: reply.status, body: reply.text, total: reply.headers['x-wp-total'], pages: reply.headers['x-wp-totalpages'], link: reply.headers['link'] });
    return reply;
  };
  const lists: [string, string][] = [
    ['events', 'start_date=2000-01-01&end_date=2100-01-01'],
    ['venues', ''],
    ['organizers', ''],
    ['categories', 'hide_empty=false'],
    ['tags', 'hide_empty=false'],
  ];
  const statuses: Record<string, string[]> = { events: ['', 'status=publish,future,draft,pending,private', 'status=trash'], venues: ['', 'status=publish,draft', 'status=trash'], organizers: ['', 'status=publish,draft', 'status=trash'], categories: [''], tags: [''] };
  for (const caller of [undefined, token]) {
    for (const language of LANGUAGES) {
      for (const [kind, filter] of lists) {
        for (const status of caller ? statuses[kind] : ['']) {
          for (let page = 1; ; page += 1) {
            const reply = await read(`${language}${NS}/${kind}?per_page=3&page=${page}&${filter}&${status}`, caller);
            if (reply.status !== 200) throw new Error(`${kind} page ${page}: ${reply.status} ${reply.text}`);
            for (const item of reply.body[kind] as { id: number; slug?: string }[]) {
              await read(`${language}${NS}/${kind}/${item.id}`, caller);
              if (item.slug && !['categories', 'tags'].includes(kind)) await read(`${language}${NS}/${kind}/by-slug/${encodeURIComponent(item.slug)}`, caller);
            }
            if (page >= Number(reply.headers['x-wp-totalpages'])) break;
          }
        }
      }
    }
  }
  return answers;
}

describe('Moving a calendar to the other engine (SPEC §19)', () => {
  let directory: string;
  let source: TestDatabase;
  let target: TestDatabase;
  let t: TestApp;
  let admin: { token: string };
  let before: Map<string, unknown>;
  let targetEngine: 'sqlite' | 'mysql';
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'calendar-move-'));
    source = ENGINE === 'sqlite' ? { url: `sqlite:${join(directory, 'source.sqlite')}`, drop: async () => undefined } : await createTestDatabase('mysql');
    // SQLite → MySQL and MySQL → SQLite; SQLite → SQLite where no MySQL answers.
    targetEngine = ENGINE === 'mysql' || !(await mysqlReachable()) ? 'sqlite' : 'mysql';
    t = await startTestApp({}, { database: source });
    admin = await t.user('administrator', 'chief');
    await t.user('editor', 'ed');
    await writeCalendar(t, admin.token);
    before = await walk(t, admin.token);
  });
  afterAll(async () => {
    await t.close();
    await source.drop();
    await target?.drop();
    rmSync(directory, { recursive: true, force: true });
  });

  const newTarget = async (): Promise<TestDatabase> => (targetEngine === 'mysql' ? createTestDatabase('mysql') : { url: `sqlite:${join(directory, `target-${Date.now()}.sqlite`)}`, drop: async () => undefined });

  it('exports, imports into the other engine, and answers every request as before', async () => {
    const file = join(directory, 'calendar.jsonl');
    const exported = await cli(source.url, 'export', '--to', file, '--with-secrets');
    expect([exported.code, exported.err]).toEqual([0, '']);
    expect(exported.out?.['exported']).toMatchObject({ users: 2, api_tokens: 2, venues: 3, organizers: 1, terms: 4, webhooks: 0 });
    target = await newTarget();
    const imported = await cli(target.url, 'import', '--from', file);
    expect([imported.code, imported.err, imported.out?.['imported']]).toEqual([0, '', exported.out?.['exported']]);
    const moved = await startTestApp({}, { database: target });
    try {
      const after = await walk(moved, admin.token);
      expect(after.size).toBe(before.size);
      // Each answer compared on its own, so that a difference names its request.
      for (const [request, answer] of before) expect([request, after.get(request)]).toEqual([request, answer]);
      // The moved calendar goes on: writes, search and sync work on what was imported.
      const written = await moved.request('POST', `${NS}/events`, { token: admin.token, json: { title: 'After the move', start_date: '2030-07-01 10:00', end_date: '2030-07-01 11:00', venue: 1 } });
      expect([written.status, written.body.id > 0]).toEqual([201, true]);
      // Search rows are made again by the import's write.
      for (const [language, word] of [['', 'trees'], ['/fr', 'plein'], ['', 'class']]) {
        const path = `${language}${NS}/events?search=${word}&start_date=2000-01-01&end_date=2100-01-01`;
        const titles = (reply: { body: { events: { title: string }[] } }) => reply.body.events.map((event) => event.title);
        const found = await moved.request('GET', path);
        expect([word, found.status, titles(found).length > 0]).toEqual([word, 200, true]);
        expect(titles(found)).toEqual(titles(await t.request('GET', path)));
      }
    } finally {
      await moved.close();
    }
  });

  it('leaves out token digests and webhooks unless asked, and never writes over a file', async () => {
    const file = join(directory, 'plain.jsonl');
    const exported = await cli(source.url, 'export', '--to', file);
    expect(exported.code).toBe(0);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ format: 'calendar-export', version: 1, engine: ENGINE, secrets: false });
    expect(lines.filter((line) => ['api_tokens', 'webhooks'].includes(line.table))).toEqual([]);
    // Nor the link lists kept on events' rows: derived from the link rows, the import's write makes them again.
    const events = lines.filter((line) => line.table === 'events');
    expect([events.length > 0, events.filter((line) => ['venue_ids', 'organizer_ids', 'term_ids'].some((column) => column in line.row))]).toEqual([true, []]);
    expect(lines.at(-1)).toEqual({ end: true, rows: exported.out?.['exported'] });
    const again = await cli(source.url, 'export', '--to', file);
    expect([again.code, again.err]).toEqual([1, `error: ${file} exists already: name a new file\n`]);
  });

  it('refuses a file cut short, damaged, of another schema or not an export, and a database that is not empty, writing nothing', async () => {
    const file = join(directory, 'whole.jsonl');
    expect((await cli(source.url, 'export', '--to', file)).code).toBe(0);
    const text = readFileSync(file, 'utf8');
    const lines = text.trimEnd().split('\n');
    const variant = (name: string, content: string) => {
      const path = join(directory, name);
      writeFileSync(path, content);
      return path;
    };
    const header = JSON.parse(lines[0]);
    const cases: [string, string][] = [
      [variant('cut-mid-line.jsonl', text.slice(0, Math.floor(text.length / 2))), 'is not JSON: the file is damaged or cut short'],
      [variant('cut-at-line.jsonl', `${lines.slice(0, -5).join('\n')}\n`), 'without its last line: it was cut short'],
      [variant('other-schema.jsonl', [JSON.stringify({ ...header, schema: 'Webhooks1768521600000' }), ...lines.slice(1)].join('\n')), `the file was exported from a database at schema Webhooks1768521600000; this one is at ${header.schema}: export and import with the same version of the service`],
      [variant('other-version.jsonl', [JSON.stringify({ ...header, version: 2 }), ...lines.slice(1)].join('\n')), 'the file is in version 2 of the export format; this service reads version 1'],
      [variant('not-an-export.jsonl', 'id,title\n1,Concert\n'), 'the file is not an export of this service (its first line is not JSON)'],
      [variant('lost-rows.jsonl', [...lines.slice(0, 3), ...lines.slice(4)].join('\n')), 'rows of'],
    ];
    const empty = await newTarget();
    try {
      for (const [path, problem] of cases) {
        const refused = await cli(empty.url, 'import', '--from', path);
        expect([path, refused.code, refused.err.startsWith('error: '), refused.err.includes(problem)]).toEqual([path, 1, true, true]);
      }
      // Nothing of any of them was written: the whole file still imports.
      const imported = await cli(empty.url, 'import', '--from', file);
      expect(imported.code).toBe(0);
      const twice = await cli(empty.url, 'import', '--from', file);
      expect([twice.code, twice.err]).toEqual([1, 'error: the database is not empty (users has 2 rows): import into a new database\n']);
    } finally {
      await empty.drop();
    }
    // About ten runs of the command-line tool, each a process of its own that starts the modules: 33–36 s alone on a
    // 2-core machine, over 60 s with the rest of the suite beside it.
  }, 180_000);
});

describe('Backing up the embedded SQLite database while the service writes (SPEC §19)', () => {
  let directory: string;
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'calendar-backup-'));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  if (ENGINE === 'mysql') {
    it('points MySQL users to mariadb-dump and mariabackup', async () => {
      const database = await createTestDatabase('mysql');
      try {
        const refused = await cli(database.url, 'backup', '--to', join(directory, 'copy.sqlite'));
        expect([refused.code, refused.err]).toEqual([
          1,
          'error: backup copies the embedded SQLite database; for MySQL or MariaDB use mariadb-dump --single-transaction or mariabackup (see the README, "Backups")\n',
        ]);
      } finally {
        await database.drop();
      }
    });
    return;
  }

  it('copies one consistent state of the database while creates go on, and the copy serves the calendar', async () => {
    const file = join(directory, 'live.sqlite');
    const live = await startTestApp({}, { database: { url: `sqlite:${file}`, drop: async () => undefined } });
    const editor = await live.user('editor');
    const create = (i: number) =>
      live.request('POST', `${NS}/events`, { token: editor.token, json: { title: `Busy ${i}`, start_date: '2030-09-01 10:00', end_date: '2030-09-01 11:00', venue: { venue: `Room ${i}` }, categories: ['Busy'] } });
    let backup: Awaited<ReturnType<typeof cli>> | undefined;
    try {
      for (let i = 0; i < 20; i += 1) expect((await create(i)).status).toBe(201);
      // Creates keep coming while the copy is made.
      let writing = true;
      let written = 20;
      const writer = (async () => {
        while (writing) {
          expect((await create(written)).status).toBe(201);
          written += 1;
        }
      })();
      backup = await cli(`sqlite:${file}`, 'backup', '--to', join(directory, 'copy.sqlite'));
      writing = false;
      await writer;
      expect([backup.code, backup.err, backup.out?.['backup']]).toEqual([0, '', join(directory, 'copy.sqlite')]);
      expect(written).toBeGreaterThan(20);
    } finally {
      await live.close();
    }
    // The copy is a database the service starts on: each event there whole, with its venue and category, and the
    // totals what its rows say.
    const copy = await startTestApp({}, { database: { url: `sqlite:${join(directory, 'copy.sqlite')}`, drop: async () => undefined } });
    try {
      const [{ n }] = await copy.dataSource.query('SELECT COUNT(*) AS n FROM events');
      const admin = await copy.user('administrator');
      const list = await copy.request('GET', `${NS}/events?per_page=50&start_date=2030-09-01&end_date=2030-09-02`, { token: admin.token });
      expect([list.status, list.headers['x-wp-total'], Number(n) >= 20]).toEqual([200, String(n), true]);
      const busy = await copy.request('GET', `${NS}/categories?search=busy&hide_empty=false`);
      expect(busy.body.categories.map((term: { count: number }) => term.count)).toEqual([Number(n)]);
      for (const event of list.body.events as { id: number; title: string; venue: { venue: string } }[]) {
        expect(event.venue.venue).toBe(event.title.replace('Busy', 'Room'));
      }
    } finally {
      await copy.close();
    }
  });
});
