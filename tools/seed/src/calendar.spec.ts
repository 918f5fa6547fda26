import { DateTime } from 'luxon';
import { eventBatch, movedTo, sizesFor, termRows, venueCity, venueRows } from './calendar';
import { Random } from '@calendar/shared/testing';

const context = { authorIds: [1, 2], venueIds: [1, 20] as [number, number], organizerIds: [1, 10] as [number, number], categoryIds: [1, 2, 3], tagIds: [4, 5, 6] };

describe('the seeded calendar', () => {
  it('is the same for the same seed and different for another', () => {
    const a = eventBatch(new Random(7), 1, 0, 50, context);
    const b = eventBatch(new Random(7), 1, 0, 50, context);
    const c = eventBatch(new Random(8), 1, 0, 50, context);
    expect(a).toEqual(b);
    expect(a.events).not.toEqual(c.events);
  });

  it('spreads events over statuses, time zones, translations and links with unique slugs', () => {
    const batch = eventBatch(new Random(1), 1, 0, 2000, context);
    const statuses = new Set(batch.events.map((event) => event.status));
    expect([...statuses].sort()).toEqual(['draft', 'future', 'pending', 'private', 'publish', 'trash']);
    expect(new Set(batch.events.map((event) => event.timezone)).size).toBeGreaterThan(4);
    expect(new Set(batch.translations.map((row) => row.lang))).toEqual(new Set(['en', 'fr', 'zh-hans']));
    const slugs = batch.translations.map((row) => `${row.lang}/${row.slug}`);
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(batch.events.some((event) => event.featured)).toBe(true);
    expect(batch.events.some((event) => event.password_hash !== null)).toBe(true);
    expect(batch.venues.length).toBeGreaterThan(1500);
    expect(batch.terms.every((row) => [1, 2, 3, 4, 5, 6].includes(row.term_id as number))).toBe(true);
  });

  it('puts an event at a venue in the time zone of the venue\'s city, starting between 8:00 and 21:00 there', () => {
    const { venues } = venueRows(new Random(5), 1, 20, 1);
    const zoneOfVenue = new Map(venues.map((venue) => [venue.id as number, venueCity(venue.id as number)[2]]));
    expect(new Set(venues.map((venue) => venue.city)).size).toBe(8);
    expect(venues.every((venue) => venue.city === venueCity(venue.id as number)[0])).toBe(true);
    const batch = eventBatch(new Random(1), 1, 0, 2000, context);
    const heads = batch.events.filter((event) => event.series_id === null);
    const atVenues = batch.venues.filter((link) => heads.some((event) => event.id === link.event_id));
    expect(atVenues.length).toBeGreaterThan(1500);
    const mismatched = atVenues.filter((link) => batch.events.find((event) => event.id === link.event_id)?.timezone !== zoneOfVenue.get(link.venue_id as number));
    expect(mismatched).toEqual([]);
    const hours = new Set(heads.map((event) => DateTime.fromSQL(event.start_utc as string, { zone: 'UTC' }).setZone(event.timezone as string).hour));
    expect(Math.min(...hours)).toBe(8);
    expect(Math.max(...hours)).toBe(21);
  });

  it('moves a batch to other ids with its texts, links and series references, and keeps its content', () => {
    const batch = eventBatch(new Random(3), 1, 0, 300, context);
    const moved = movedTo(batch, 1001);
    expect(movedTo(batch, 1)).toBe(batch);
    expect(moved.events.map((event) => event.id)).toEqual(batch.events.map((event) => (event.id as number) + 1000));
    const occurrence = batch.events.findIndex((event) => event.series_id !== null);
    expect(occurrence).toBeGreaterThan(-1);
    expect(moved.events[occurrence]).toEqual({ ...batch.events[occurrence], id: (batch.events[occurrence].id as number) + 1000, post_parent: (batch.events[occurrence].post_parent as number) + 1000, series_id: (batch.events[occurrence].series_id as number) + 1000 });
    expect(moved.events.filter((event) => event.series_id === null).every((event) => event.post_parent === 0)).toBe(true);
    for (const key of ['translations', 'venues', 'organizers', 'terms'] as const) {
      expect(moved[key]).toEqual(batch[key].map((row) => ({ ...row, event_id: (row.event_id as number) + 1000 })));
    }
  });

  it('sizes venues, organizers and tags from the number of events, and builds a category tree', () => {
    expect(sizesFor(100_000)).toEqual({ events: 100_000, venues: 2000, organizers: 1000, tags: 500 });
    const terms = termRows(1, 3);
    expect(terms.terms.filter((row) => row.taxonomy === 'category' && row.parent_id !== 0).length).toBeGreaterThan(5);
    expect(terms.tagIds).toHaveLength(3);
  });
});

describe('the seeded series', () => {
  it('writes about one event in ten as a head or occurrence of a series, as the service writes them', () => {
    const batch = eventBatch(new Random(1), 1, 0, 2000, context);
    const members = batch.events.filter((event) => event.recurrence !== null);
    expect(members.length / batch.events.length).toBeGreaterThan(0.05);
    expect(members.length / batch.events.length).toBeLessThan(0.2);
    const heads = members.filter((event) => event.series_id === null);
    const head = heads[0];
    const occurrences = batch.events.filter((event) => event.series_id === head.id);
    expect(occurrences.length).toBeGreaterThan(0);
    for (const occurrence of occurrences) {
      expect(occurrence).toMatchObject({ post_parent: head.id, recurrence: head.recurrence, recurrence_start: occurrence.start_utc, status: head.status, timezone: head.timezone });
    }
    const slug = (id: unknown) => batch.translations.find((row) => row.event_id === id && row.lang === 'en')?.slug as string;
    // The day in the slug is the local one, a day either side of the UTC date.
    const utcDay = Date.parse(`${String(occurrences[0].start_utc).slice(0, 10)}T00:00:00Z`);
    const localDays = [-1, 0, 1].map((shift) => new Date(utcDay + shift * 86_400_000).toISOString().slice(0, 10));
    expect(localDays.map((day) => `${slug(head.id)}-${day}`)).toContain(slug(occurrences[0].id));
    expect(new Set(batch.events.map((event) => event.id)).size).toBe(batch.events.length);
  });
});
