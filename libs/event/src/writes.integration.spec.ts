import { WriteEffects } from '@calendar/shared/database';
import { DateTime } from 'luxon';
import { CreateEventDto, UpdateEventByIdDto } from './dto/event.dto';
import { EventService } from './event.service';
import { Clock } from './recurrence/clock';
import { SeriesHorizon } from './recurrence/series-horizon';
import { ServiceHarness, startServices, testEngines } from './testing/service-harness';

/*
 * Event writes through the services, on a real database and without HTTP: what each write records in its effects
 * (every record it changed, the terms it recounts), what the coordinator then applies (counts, the write log), and
 * how the series writer matches a head's occurrences when the head changes.
 */
describe.each(testEngines())('event writes and their effects (%s)', (engine) => {
  let services: ServiceHarness;
  let events: EventService;
  beforeAll(async () => {
    services = await startServices(engine);
    events = services.get(EventService);
  });
  afterAll(() => services.close());
  beforeEach(() => services.reset());

  const changes = (effects: WriteEffects) => effects.changes.map((change) => `${change.action} ${change.kind} ${change.id}`);
  const create = async (raw: Record<string, unknown>, scope: Parameters<EventService['create']>[1]) => (await events.create(await services.fields(CreateEventDto, raw), scope)).answer.toJSON();
  const update = async (id: number, raw: Record<string, unknown>, scope: Parameters<EventService['create']>[1]) => events.update({ id }, await services.fields(UpdateEventByIdDto, raw), scope);
  const counts = async () =>
    (await services.dataSource.query('SELECT event_count FROM terms ORDER BY id')).map((row: { event_count: number | string }) => Number(row.event_count));
  /** What the write log holds of the writes since `forgetLog` (each write's rows: the events it only added, or 0). */
  const logged = async () => (await services.dataSource.query('SELECT event_id FROM write_log ORDER BY event_id')).map((row: { event_id: number | string }) => Number(row.event_id));
  const forgetLog = () => services.dataSource.query('DELETE FROM write_log');

  it('records a create with what was made for it, recounts its terms, and logs it as an addition', async () => {
    const editor = services.scope(await services.caller('editor'));
    await forgetLog();
    const created = await create({ title: 'Gig', start_date: '2030-06-01 19:00', end_date: '2030-06-01 22:00', venue: [{ venue: 'Hall' }], categories: ['Jazz'], tags: 'late' }, editor);
    const [effects] = services.effects();
    const venueId = (created.venue as { id: number }).id;
    const [jazz, late] = [created.categories[0].id, created.tags[0].id];
    expect(changes(effects)).toEqual([`created venue ${venueId}`, `created category ${jazz}`, `created tag ${late}`, `created event ${created.id}`]);
    expect([[...effects.terms].sort(), [...effects.parts].sort(), effects.reindexed('event'), effects.reindexed('venue'), effects.onlyAddedEvents()]).toEqual([
      [jazz, late].sort(),
      ['terms', 'venues'],
      [created.id],
      [venueId],
      [created.id],
    ]);
    expect([await counts(), await logged()]).toEqual([[1, 1], [created.id]]);

    await forgetLog();
    await update(created.id, { status: 'draft' }, editor);
    await events.remove({ id: created.id }, editor);
    await update(created.id, { status: 'publish' }, editor);
    const [unpublished, trashed, restored] = services.effects();
    expect([changes(unpublished), changes(trashed), changes(restored)]).toEqual([[`updated event ${created.id}`], [`trashed event ${created.id}`], [`updated event ${created.id}`]]);
    expect([[...unpublished.terms], unpublished.onlyAddedEvents()]).toEqual([[jazz, late], null]);
    expect([await counts(), await logged()]).toEqual([[1, 1], [0, 0, 0]]);
  });

  it('matches occurrences by position when the dates move, then by start and by day when the rule changes, across DST', async () => {
    const editor = services.scope(await services.caller('editor'));
    services.get(Clock).now = () => new Date('2027-01-01T00:00:00Z');
    // Tuesdays at 19:00 in Paris, from before the change to summer time (2027-03-28) to after it.
    const head = await create(
      { title: 'Quartet', start_date: '2027-03-02 19:00', end_date: '2027-03-02 21:00', timezone: 'Europe/Paris', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5'], categories: ['Jazz'] },
      editor,
    );
    const series = async () => {
      const rows: { id: number; start_utc: string | Date; status: string; detached: string | null }[] = await services.dataSource.query(
        'SELECT id, start_utc, status, detached FROM events WHERE series_id = ? ORDER BY start_utc, id',
        [head.id],
      );
      const names = new Map<number, string>(
        (await services.dataSource.query('SELECT event_id, name FROM event_translations WHERE event_id IN (SELECT id FROM events WHERE series_id = ?)', [head.id])).map(
          (row: { event_id: number | string; name: string }) => [Number(row.event_id), row.name],
        ),
      );
      return rows.map((row) => {
        const utc = row.start_utc instanceof Date ? DateTime.fromJSDate(row.start_utc, { zone: 'utc' }) : DateTime.fromSQL(row.start_utc, { zone: 'utc' });
        return `${Number(row.id)} ${utc.setZone('Europe/Paris').toFormat('ccc dd HH:mm')} ${row.status} ${names.get(Number(row.id))}`;
      });
    };
    const idsByStart = async (): Promise<number[]> =>
      (await services.dataSource.query('SELECT id FROM events WHERE series_id = ? ORDER BY start_utc', [head.id])).map((row: { id: number | string }) => Number(row.id));
    const [a, b, c, d] = await idsByStart();
    const jazz = head.categories[0].id;
    // The head is recorded once its series is written; the wall-clock time stays 19:00 across the change of offset.
    expect(changes(services.effects()[0])).toEqual([`created category ${jazz}`, ...[a, b, c, d].map((id) => `created event ${id}`), `created event ${head.id}`]);
    expect(await series()).toEqual([`${a} Tue 09 19:00 publish Quartet`, `${b} Tue 16 19:00 publish Quartet`, `${c} Tue 23 19:00 publish Quartet`, `${d} Tue 30 19:00 publish Quartet`]);

    // An occurrence's own title is detached from its head.
    await update(b, { title: 'Special' }, editor);
    expect(changes(services.effects()[0])).toEqual([`updated event ${b}`]);

    // The head's dates move: each occurrence takes the rule's new start of its position, and keeps its own title.
    await update(head.id, { start_date: '2027-03-02 20:00', end_date: '2027-03-02 22:00' }, editor);
    expect(changes(services.effects()[0])).toEqual([...[a, b, c, d].map((id) => `updated event ${id}`), `updated event ${head.id}`]);
    expect(await series()).toEqual([`${a} Tue 09 20:00 publish Quartet`, `${b} Tue 16 20:00 publish Special`, `${c} Tue 23 20:00 publish Quartet`, `${d} Tue 30 20:00 publish Quartet`]);

    // A new rule keeps the occurrences whose start it still has, adds the new ones, and deletes the rest.
    await update(head.id, { recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=5'] }, editor);
    const [thu04, , thu11] = await idsByStart();
    expect(changes(services.effects()[0])).toEqual([
      `deleted event ${c}`,
      `deleted event ${d}`,
      `updated event ${a}`,
      `updated event ${b}`,
      `created event ${thu04}`,
      `created event ${thu11}`,
      `updated event ${head.id}`,
    ]);
    expect(await series()).toEqual([`${thu04} Thu 04 20:00 publish Quartet`, `${a} Tue 09 20:00 publish Quartet`, `${thu11} Thu 11 20:00 publish Quartet`, `${b} Tue 16 20:00 publish Special`]);

    // A new rule at a new time keeps the occurrences of the days it still has; one edited on its own that the rule
    // no longer has goes to the trash as it is, the others are deleted.
    await update(thu11, { cost: '12' }, editor);
    services.effects();
    await update(head.id, { start_date: '2027-03-02 21:00', end_date: '2027-03-02 23:00', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] }, editor);
    expect(changes(services.effects()[0])).toEqual([`deleted event ${thu04}`, `trashed event ${thu11}`, `updated event ${a}`, `updated event ${b}`, `updated event ${head.id}`]);
    expect(await series()).toEqual([`${a} Tue 09 21:00 publish Quartet`, `${thu11} Thu 11 20:00 trash Quartet`, `${b} Tue 16 21:00 publish Special`]);
    // The category counts the head and its two published occurrences.
    expect(await counts()).toEqual([3]);
    // Every occurrence is found by the words of the texts it shows, its own title included; deleted ones by none.
    const words = async (id: number) =>
      (await services.dataSource.query("SELECT DISTINCT token FROM search_tokens WHERE kind = 'event' AND record_id = ? ORDER BY token", [id])).map(
        (row: { token: string }) => row.token,
      );
    expect([await words(a), await words(b), await words(thu11), await words(c), await words(d), await words(thu04)]).toEqual([
      ['quartet'],
      ['special'],
      ['quartet'],
      [],
      [],
      [],
    ]);
  });

  it('counts the occurrences the horizon adds in their terms, and logs them as additions', async () => {
    const clock = services.get(Clock);
    clock.now = () => new Date('2027-01-05T10:00:00Z');
    const editor = services.scope(await services.caller('editor'));
    const head = await create({ title: 'Weekly', start_date: '2027-01-05 19:00', end_date: '2027-01-05 20:00', timezone: 'UTC', recurrence: ['RRULE:FREQ=WEEKLY'], tags: 'weekly' }, editor);
    services.effects();
    const published = async () => Number((await services.dataSource.query("SELECT COUNT(*) AS n FROM events WHERE status = 'publish'"))[0].n);
    expect(await counts()).toEqual([await published()]);
    await forgetLog();
    // Sixty days on, the horizon reaches the Tuesdays from 2029-01-08 to 2029-03-05: eight occurrences.
    clock.now = () => new Date('2027-03-06T10:00:00Z');
    const added = await services.get(SeriesHorizon).extend();
    const [extended] = services.effects();
    const ids = extended.onlyAddedEvents() ?? [];
    expect([added, ids.length, changes(extended), [...extended.terms]]).toEqual([8, 8, ids.map((id) => `created event ${id}`), [head.tags[0].id]]);
    expect([await counts(), await logged()]).toEqual([[await published()], ids]);
    // The added occurrences are searchable with the write that added them.
    const found = await services.dataSource.query("SELECT DISTINCT record_id FROM search_tokens WHERE kind = 'event' AND token = 'weekly' ORDER BY record_id");
    expect(found.map((row: { record_id: number | string }) => Number(row.record_id)).filter((id: number) => ids.includes(id))).toEqual([...ids].sort((x, y) => x - y));
  });
});
