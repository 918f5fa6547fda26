import { Random } from '@calendar/shared/testing';
import { CreateCategoryDto, CreateTagDto, TermService, UpdateCategoryDto } from '@calendar/taxonomy';
import { CreateOrganizerDto, OrganizerService } from '@calendar/organizer';
import { CreateVenueDto, VenueService } from '@calendar/venue';
import { CreateEventDto, ListEventsQueryDto, UpdateEventByIdDto } from '../dto/event.dto';
import { EventListFilter, EventRepository } from '../event.repository';
import { EventService } from '../event.service';
import { EventReader } from '../read/event.reader';
import { Clock } from '../recurrence/clock';
import { SeriesHorizon } from '../recurrence/series-horizon';
import { ServiceHarness, startServices, testEngines } from '../testing/service-harness';
import { DayCounts } from './day-counts';
import { dayCountQuery } from './event-tally';

/*
 * The list totals kept per day (SPEC §10.2), and the terms' published-event counts, against a count of the events
 * themselves, on a real database: after every kind of write — creates, updates of dates, status, links, visibility
 * and featured, trashes and restores, series written, rewritten and trashed, occurrences the horizon adds, a
 * category moved in the tree, terms deleted — every total of every audience, filter key and window, and every
 * term's count, must equal what counting the events gives, and every page found through them must hold the events
 * read from the window's start.
 */
describe.each(testEngines())('list totals per day (%s)', (engine) => {
  let services: ServiceHarness;
  beforeAll(async () => {
    services = await startServices(engine);
  });
  afterAll(() => services.close());

  it('equal a count of the events after every kind of write, for every audience, filter and window', async () => {
    const events = services.get(EventService);
    const terms = services.get(TermService);
    const reader = services.get(EventReader);
    const repository = services.get(EventRepository);
    const clock = services.get(Clock);
    clock.now = () => new Date('2027-01-01T00:00:00Z');
    const editorCaller = await services.caller('editor');
    const editor = services.scope(editorCaller);
    const anonymous = services.scope(null);
    const random = new Random(20271);

    const category = async (name: string, parent?: number) => (await terms.create('category', await services.fields(CreateCategoryDto, { name, ...(parent ? { parent } : {}) }), editor)).id;
    const parent = await category('Music');
    const child = await category('Jazz', parent);
    const grandchild = await category('Bebop', child);
    const other = await category('Theatre');
    const categories = [parent, child, grandchild, other];
    const tags = [
      (await terms.create('tag', await services.fields(CreateTagDto, { name: 'late' }), editor)).id,
      (await terms.create('tag', await services.fields(CreateTagDto, { name: 'free' }), editor)).id,
    ];
    const venues = [
      (await services.get(VenueService).create(await services.fields(CreateVenueDto, { venue: 'Hall' }), editor)).id,
      (await services.get(VenueService).create(await services.fields(CreateVenueDto, { venue: 'Club' }), editor)).id,
    ];
    const organizers = [(await services.get(OrganizerService).create(await services.fields(CreateOrganizerDto, { organizer: 'Guild' }), editor)).id];

    const day = (offset: number) => new Date(Date.UTC(2027, 0, 1 + offset)).toISOString().slice(0, 10);
    const some = <T>(items: T[]) => items.filter(() => random.chance(0.4));
    const fields = () => {
      const start = random.int(0, 80);
      const hours = random.pick([0, 1, 3, 26, 50, 24 * 9]);
      const startHour = random.int(0, 23);
      const end = new Date(Date.UTC(2027, 0, 1 + start, startHour) + hours * 3_600_000);
      return {
        start_date: `${day(start)} ${String(startHour).padStart(2, '0')}:00`,
        end_date: `${end.toISOString().slice(0, 10)} ${end.toISOString().slice(11, 16)}`,
        status: random.pick(['publish', 'publish', 'publish', 'draft', 'pending', 'private']),
        hide_from_listings: random.chance(0.1),
        featured: random.chance(0.3),
        categories: some(categories),
        tags: some(tags),
        venue: random.chance(0.7) ? [random.pick(venues)] : [],
        organizer: some(organizers),
      };
    };
    const ids: number[] = [];
    const create = async (extra: Record<string, unknown> = {}) => {
      const answer = (await events.create(await services.fields(CreateEventDto, { title: `Event ${ids.length}`, ...fields(), ...extra }), editor)).answer.toJSON() as { id: number };
      ids.push(answer.id);
      return answer.id;
    };
    const update = async (id: number, raw: Record<string, unknown>) => events.update({ id }, await services.fields(UpdateEventByIdDto, raw), editor);

    /** Every total the day counts serve, with the count of the events beside it, where they differ. */
    const mismatches = async (): Promise<string[]> => {
      const filters: Record<string, unknown>[] = [
        {},
        ...categories.map((id) => ({ categories: [id] })),
        ...tags.map((id) => ({ tags: [id] })),
        ...venues.map((id) => ({ venue: [id] })),
        ...organizers.map((id) => ({ organizer: [id] })),
        { featured: true },
        { featured: false },
        // Two filters: a pair of keys (of the terms not deleted yet).
        { categories: [categories[0]], venue: [venues[0]] },
        { categories: [categories[1]], tags: [tags[0]] },
        { tags: [tags[tags.length - 1]], featured: true },
        { organizer: [organizers[0]], venue: [venues[1]] },
        { categories: [categories[categories.length - 1]], organizer: [organizers[0]] },
        { featured: false, venue: [venues[0]] },
      ];
      const windows = [
        [day(0), day(120)],
        [day(10), day(12)],
        [day(20), day(20)],
        [day(5), day(40)],
        [day(random.int(0, 60)), day(random.int(60, 100))],
      ];
      const wrong: string[] = [];
      // Every term's published-event count, moved by each write's events, against a count of its links.
      const counts: { id: number; kept: number; counted: number }[] = await services.dataSource.query(
        "SELECT t.id, t.event_count AS kept, (SELECT COUNT(*) FROM event_terms et INNER JOIN events e ON e.id = et.event_id WHERE et.term_id = t.id AND e.status = 'publish') AS counted FROM terms t ORDER BY t.id",
      );
      for (const row of counts) if (Number(row.kept) !== Number(row.counted)) wrong.push(`term ${row.id}: count ${row.kept}, ${row.counted} published events linked`);
      // Each read with a scope of its own, as each request has: a scope holds the data versions it read first.
      for (const who of [anonymous, editor]) {
        for (const filter of filters) {
          for (const [start, end] of windows) {
            const scope = services.scope(who.caller);
            const query = await services.fields(ListEventsQueryDto, { ...filter, start_date: start, end_date: end });
            const { filter: listFilter } = await reader.listQuery(query, scope);
            const audience = scope.caller ? 'editor' : 'public';
            if (!dayCountQuery(listFilter, audience)) wrong.push(`${JSON.stringify(filter)} ${start}..${end} is not counted per day`);
            const perDay = (await repository.countAtVersion(listFilter)).count;
            const counted = (await repository.countAtVersion({ ...listFilter, days: undefined } as EventListFilter)).count;
            if (perDay !== counted) wrong.push(`${audience} ${JSON.stringify(filter)} ${start}..${end}: ${perDay} per day, ${counted} counted`);
            // A total counted from the events, or driven from a word every title holds, with the per-day total beside it in the same statement.
            const searched = (await reader.listQuery(await services.fields(ListEventsQueryDto, { ...filter, search: 'event', start_date: start, end_date: end }), scope)).filter;
            for (const [name, total] of [['counted', { ...listFilter, days: undefined } as EventListFilter], ['searched', searched]] as const) {
              const both = await repository.countAtVersion(total, listFilter);
              if (both.count !== counted || both.alongside !== perDay) wrong.push(`${audience} ${JSON.stringify(filter)} ${start}..${end} ${name}: ${both.count} with ${both.alongside} beside it, ${counted} and ${perDay} apart`);
            }
          }
        }
      }
      // Pages far into a window begin at the day the totals per day find: the same events as the window read from its start.
      for (const who of [anonymous, editor]) {
        for (const filter of [{}, { categories: [parent] }, { featured: false }, { categories: [parent], featured: false }]) {
          const scope = services.scope(who.caller);
          const query = await services.fields(ListEventsQueryDto, { ...filter, start_date: day(0), end_date: day(120), per_page: 3 });
          const { filter: listFilter } = await reader.listQuery(query, scope);
          const total = (await repository.countAtVersion({ ...listFilter, days: undefined } as EventListFilter)).count;
          for (let page = 34; (page - 1) * 3 < total; page += 1) {
            const seen = (await reader.page(await services.fields(ListEventsQueryDto, { ...filter, start_date: day(0), end_date: day(120), per_page: 3, page }), scope)).heads.map((head) => head.id);
            const read = (await repository.page(listFilter, (page - 1) * 3, 3)).heads.map((head) => head.id);
            if (seen.join() !== read.join()) wrong.push(`${scope.caller ? 'editor' : 'public'} ${JSON.stringify(filter)} page ${page}: ${seen.join()} found, ${read.join()} read`);
          }
        }
      }
      return wrong;
    };

    // Creates, in every state (enough for pages past the hundredth event).
    for (let n = 0; n < 130; n += 1) await create();
    expect(await mismatches()).toEqual([]);

    // Updates of dates, status, links, visibility; trashes and restores.
    for (let n = 0; n < 30; n += 1) {
      const id = random.pick(ids);
      const kind = random.int(0, 3);
      if (kind === 0) await update(id, fields());
      else if (kind === 1) await update(id, { status: random.pick(['publish', 'draft', 'private']) });
      else if (kind === 2) await update(id, { categories: some(categories), tags: some(tags), venue: random.chance(0.5) ? [random.pick(venues)] : [] });
      else {
        await events.remove({ id }, editor);
        if (random.chance(0.5)) await update(id, { status: 'publish' });
      }
    }
    expect(await mismatches()).toEqual([]);

    // A series, then its rule and dates changed (occurrences moved, added, deleted), an occurrence edited alone.
    const head = await create({ start_date: `${day(3)} 19:00`, end_date: `${day(3)} 21:00`, status: 'publish', hide_from_listings: false, recurrence: ['RRULE:FREQ=WEEKLY;COUNT=8'], categories: [grandchild] });
    await update(head, { recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,TH;COUNT=9'] });
    await update(head, { start_date: `${day(6)} 23:00`, end_date: `${day(7)} 01:00` });
    const [occurrence] = (await services.dataSource.query('SELECT id FROM events WHERE series_id = ? ORDER BY start_utc LIMIT 1', [head])) as { id: number }[];
    await update(Number(occurrence.id), { categories: [other], featured: true });
    expect(await mismatches()).toEqual([]);
    // The series to the trash with its head, and back.
    await events.remove({ id: head }, editor);
    expect(await mismatches()).toEqual([]);
    await update(head, { status: 'publish' });
    expect(await mismatches()).toEqual([]);

    // An endless series, and the occurrences the horizon adds as time goes on.
    await create({ start_date: `${day(1)} 08:00`, end_date: `${day(1)} 09:00`, status: 'publish', hide_from_listings: false, recurrence: ['RRULE:FREQ=DAILY'], tags: [tags[0]] });
    clock.now = () => new Date('2027-02-15T00:00:00Z');
    expect(await services.get(SeriesHorizon).extend()).toBeGreaterThan(0);
    expect(await mismatches()).toEqual([]);

    // A category moved in the tree (its events now count under other ancestors), then a category and a tag deleted.
    await terms.update('category', grandchild, await services.fields(UpdateCategoryDto, { parent: other }), editor);
    expect(await mismatches()).toEqual([]);
    await terms.remove('category', child, editor);
    await terms.remove('tag', tags[1], editor);
    categories.splice(categories.indexOf(child), 1);
    tags.splice(1, 1);
    expect(await mismatches()).toEqual([]);

    // Counted again from nothing (another time zone, or a first start): the same totals.
    await services.dataSource.query("UPDATE event_tally_state SET zone = 'elsewhere' WHERE id = 1");
    expect(await services.get(DayCounts).countAllIfStale()).toBe(true);
    expect(await mismatches()).toEqual([]);
    // Counted under the keys of an earlier scheme (each filter value alone): counted again, pairs included.
    await services.dataSource.query("DELETE FROM event_day_counts WHERE filter_key LIKE '%&%'");
    await services.dataSource.query('UPDATE event_tally_state SET scheme = 1 WHERE id = 1');
    expect(await services.get(DayCounts).countAllIfStale()).toBe(true);
    expect(await services.get(DayCounts).countAllIfStale()).toBe(false);
    expect(await mismatches()).toEqual([]);
  });
});
