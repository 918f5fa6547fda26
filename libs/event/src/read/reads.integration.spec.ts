import { CacheRegistry } from '@calendar/shared/cache';
import { CreateEventDto, ListEventsQueryDto, UpdateEventByIdDto } from '../dto/event.dto';
import { EventResponse } from '../dto/event.mapper';
import { EventRepository } from '../event.repository';
import { EventService } from '../event.service';
import { ServiceHarness, startServices, testEngines } from '../testing/service-harness';
import { EventPresenter } from './event.presenter';
import { EventReader } from './event.reader';

/*
 * Event reads through the services, on a real database and without HTTP: the one presenter gives the same event as
 * JSON text (reads and writes) and as a typed model (feeds, grids, pages), whatever it has kept; list totals kept
 * per data version stay equal to a count of the rows after every kind of write.
 */
describe.each(testEngines())('event reads (%s)', (engine) => {
  let services: ServiceHarness;
  beforeAll(async () => {
    services = await startServices(engine);
  });
  afterAll(() => services.close());
  beforeEach(() => services.reset());

  const create = async (raw: Record<string, unknown>, scope: ReturnType<ServiceHarness['scope']>): Promise<EventResponse> =>
    (await services.get(EventService).create(await services.fields(CreateEventDto, raw), scope)).answer.toJSON();
  const query = (raw: Record<string, unknown>) => services.fields(ListEventsQueryDto, { start_date: '2030-01-01', end_date: '2030-12-31', per_page: 50, ...raw });
  const rendered = async (scope: ReturnType<ServiceHarness['scope']>, single: boolean) => {
    const { heads, links } = await services.get(EventReader).page(await query({}), scope);
    const presenter = services.get(EventPresenter);
    const texts = (await presenter.texts(heads, links, scope, { single })).map(({ text }) => text.text);
    const models = (await presenter.models(heads, links, scope, { single })).map(({ model }) => model);
    return { texts, models };
  };

  it('reads a page with its whole records in one statement, the same heads, links, records and answers as in two', async () => {
    const caller = await services.caller('editor');
    const editor = () => services.scope(caller);
    await create({ title: 'Gig', start_date: '2030-06-01 19:00', end_date: '2030-06-01 22:00', venue: [{ venue: 'Hall', city: 'Lyon' }], categories: ['Jazz'], tags: 'late' }, editor());
    const both = await create({ title: 'Both', start_date: '2030-06-02 19:00', end_date: '2030-06-02 22:00', organizer: [{ organizer: 'Band' }] }, editor());
    await services.get(EventService).update({ id: both.id }, await services.fields(UpdateEventByIdDto, { title: 'Les deux' }), services.scope(caller, 'fr'));
    await create({ title: 'Secret', start_date: '2030-06-03 19:00', end_date: '2030-06-03 22:00', password: 'pass' }, editor());
    const reader = services.get(EventReader);
    const presenter = services.get(EventPresenter);
    const present = async (times: number) => {
      for (let time = 0; time < times; time += 1) {
        const page = await reader.page(await query({}), services.scope(null));
        await presenter.texts(page.heads, page.links, services.scope(null), { single: false });
      }
    };
    // Lists whose events are found rendered read their rows first; lists that render most of theirs, with records.
    const caches = services.get(CacheRegistry);
    await present(20);
    expect(presenter.listsRenderMost()).toBe(false);
    for (let time = 0; time < 40; time += 1) {
      caches.empty('event renderings');
      await present(1);
    }
    expect(presenter.listsRenderMost()).toBe(true);

    const repository = services.get(EventRepository);
    for (const raw of [{}, { page: 2, per_page: 2 }]) {
      const scope = services.scope(null);
      const plain = await reader.page(await query(raw), scope);
      const joined = await reader.page(await query(raw), scope, { withRecords: true });
      expect(plain.records).toBeUndefined();
      expect([joined.heads, joined.links, joined.total]).toEqual([plain.heads, plain.links, plain.total]);
      expect(joined.records).toEqual(await repository.load(plain.heads.map((head) => head.id)));
      const texts = async (page: typeof plain) => {
        // Rendered anew: from the records read with the page, or read after it.
        caches.empty('event renderings');
        return (await presenter.texts(page.heads, page.links, scope, { single: false, loaded: page.records })).map(({ text }) => text.text);
      };
      expect(await texts(joined)).toEqual(await texts(plain));
    }
    expect((await reader.page(await query({}), services.scope(null), { withRecords: true })).records?.map((record) => [record.translations.map((text) => text.lang).sort()])).toEqual([[['en']], [['en', 'fr']], [['en']]]);
  });

  it('answers as JSON exactly the models feeds and pages get, locked or not, with its renderings kept or turned off', async () => {
    // A scope is one request's: it holds the data versions that request is answered at.
    const caller = await services.caller('editor');
    const editor = () => services.scope(caller);
    const anonymous = () => services.scope(null);
    const gig = await create(
      { title: 'Gig', start_date: '2030-06-01 19:00', end_date: '2030-06-01 22:00', venue: [{ venue: 'Hall', city: 'Lyon' }], organizer: [{ organizer: 'Band' }], categories: ['Jazz'], tags: 'late' },
      editor(),
    );
    const secret = await create({ title: 'Secret', description: '<p>Where</p>', start_date: '2030-06-02 19:00', end_date: '2030-06-02 22:00', categories: ['Jazz'] }, editor());
    // A password is set by an update (SPEC §4.5).
    await services.get(EventService).update({ id: secret.id }, await services.fields(UpdateEventByIdDto, { password: 'pass' }), editor());

    for (const scope of [anonymous, editor]) {
      for (const single of [false, true]) {
        const { texts, models } = await rendered(scope(), single);
        expect(texts.map((text) => JSON.parse(text))).toEqual(JSON.parse(JSON.stringify(models)));
      }
    }
    const { models: list } = await rendered(anonymous(), true);
    expect(list.map((event) => [event.id, event.venue, event.organizer.map((organizer) => organizer.organizer), event.categories.map((term) => term.name), event.description, event.json_ld?.['location']])).toEqual([
      [gig.id, gig.venue, ['Band'], ['Jazz'], '', { '@type': 'Place', name: 'Hall', address: { '@type': 'PostalAddress', streetAddress: '', addressLocality: 'Lyon', addressRegion: '', postalCode: '', addressCountry: '' }, url: (gig.venue as { url: string }).url }],
      [secret.id, [], [], [], '', undefined],
    ]);
    const { models: own } = await rendered(editor(), false);
    expect([own[1].description, own[1].categories.map((term) => term.name)]).toEqual(['<p>Where</p>', ['Jazz']]);

    // Asked again, every event comes from what is kept; turned off, the same text is made anew.
    const caches = services.get(CacheRegistry);
    const kept = () => caches.stats().find((stats) => stats.name === 'event renderings');
    const before = kept();
    const again = await rendered(anonymous(), false);
    expect([kept()?.hits, kept()?.misses]).toEqual([(before?.hits ?? 0) + 4, before?.misses]);
    caches.turnOff('event renderings');
    expect(await rendered(anonymous(), false)).toEqual(again);
    expect([kept()?.entries, kept()?.capacity]).toEqual([0, 0]);
  });

  it('reads no rows for a list whose total is none: an empty page of total 0, with or without records', async () => {
    const caller = await services.caller('editor');
    const gig = await create({ title: 'Gig', start_date: '2030-06-01 19:00', end_date: '2030-06-01 22:00', venue: [{ venue: 'Hall', city: 'Lyon' }] }, services.scope(caller));
    const hall = (gig.venue as { id: number }).id;
    const reader = services.get(EventReader);
    const pages = jest.spyOn(services.get(EventRepository), 'page');
    try {
      const empty = [{ start_date: '2030-07-01', end_date: '2030-07-31' }, { venue: String(hall), start_date: '2030-05-01', end_date: '2030-05-31' }, { search: 'nothing-matches' }];
      for (const raw of empty) {
        for (const withRecords of [false, true]) {
          const page = await reader.page(await query(raw), services.scope(null), { withRecords });
          expect({ heads: page.heads, links: page.links, records: page.records, total: page.total }).toEqual({
            heads: [],
            links: { venues: new Map(), organizers: new Map(), terms: new Map() },
            records: withRecords ? [] : undefined,
            total: 0,
          });
        }
      }
      expect(pages).not.toHaveBeenCalled();
      // The same venue's month with its event: the page is read.
      const found = await reader.page(await query({ venue: String(hall), start_date: '2030-06-01', end_date: '2030-06-30' }), services.scope(null), { withRecords: true });
      expect([found.total, found.heads.map((head) => head.id), found.records?.map((record) => record.id), [...found.links.venues]]).toEqual([1, [gig.id], [gig.id], [[gig.id, [hall]]]]);
      expect(pages).toHaveBeenCalledTimes(1);
    } finally {
      pages.mockRestore();
    }
  });

  it('keeps list totals equal to a count of the rows after creates, updates, trashing and restoring', async () => {
    const caller = await services.caller('editor');
    const editor = () => services.scope(caller);
    const ids: number[] = [];
    for (let day = 1; day <= 5; day += 1) {
      ids.push((await create({ title: `Day ${day}`, start_date: `2030-03-0${day} 10:00`, end_date: `2030-03-0${day} 11:00`, categories: ['Jazz'] }, editor())).id);
    }
    await create({ title: 'Other', start_date: '2030-03-06 10:00', end_date: '2030-03-06 11:00', categories: ['Folk'] }, editor());
    const jazz = (await services.dataSource.query("SELECT term_id FROM term_translations WHERE slug = 'jazz'"))[0].term_id;
    const counted = async () =>
      Number(
        (
          await services.dataSource.query(
            "SELECT COUNT(*) AS n FROM events e JOIN event_terms t ON t.event_id = e.id WHERE t.term_id = ? AND e.status = 'publish' AND e.start_utc >= '2030-01-01'",
            [jazz],
          )
        )[0].n,
      );
    const total = async () => (await services.get(EventReader).page(await query({ categories: 'jazz' }), services.scope(null))).total;
    const totals: [number, number][] = [[await total(), await counted()]];
    const service = services.get(EventService);
    await create({ title: 'Day 7', start_date: '2030-03-07 10:00', end_date: '2030-03-07 11:00', categories: ['Jazz'] }, editor());
    totals.push([await total(), await counted()]);
    await service.update({ id: ids[0] }, await services.fields(UpdateEventByIdDto, { status: 'draft' }), editor());
    totals.push([await total(), await counted()]);
    await service.remove({ id: ids[1] }, editor());
    totals.push([await total(), await counted()]);
    await service.update({ id: ids[1] }, await services.fields(UpdateEventByIdDto, { status: 'publish' }), editor());
    totals.push([await total(), await counted()]);
    await service.update({ id: ids[2] }, await services.fields(UpdateEventByIdDto, { categories: ['Folk'] }), editor());
    totals.push([await total(), await counted()]);
    expect(totals).toEqual([
      [5, 5],
      [6, 6],
      [5, 5],
      [4, 4],
      [5, 5],
      [4, 4],
    ]);
  });
});
