import { Random } from '@calendar/shared/testing';
import { CreateVenueDto, VenueService } from '@calendar/venue';
import { nearVenuesCondition, EventRepository } from '../event.repository';
import { ServiceHarness, startServices, testEngines } from '../testing/service-harness';

/*
 * The venues within a radius, found in memory among every venue's point (`venuePoints`, `venuesNear`), on a real
 * database: the same venues, and the same cells as the database computes them, as the radius's SQL condition selects
 * over the stored coordinates.
 */
describe.each(testEngines())('venues within a radius (%s)', (engine) => {
  let services: ServiceHarness;
  beforeAll(async () => {
    services = await startServices(engine);
  });
  afterAll(() => services.close());

  it('are those the SQL condition selects, with the cells the database computes, for radii of any size', async () => {
    const caller = await services.caller('editor');
    const random = new Random(1202);
    // Venues round two towns, near the antimeridian, and anywhere; one without coordinates.
    const places: [number, number][] = [
      ...Array.from({ length: 40 }, (): [number, number] => [48.85 + (random.int(0, 2000) - 1000) / 2000, 2.35 + (random.int(0, 2000) - 1000) / 1500]),
      ...Array.from({ length: 20 }, (): [number, number] => [-33.87 + (random.int(0, 2000) - 1000) / 4000, 151.21 + (random.int(0, 2000) - 1000) / 4000]),
      ...Array.from({ length: 10 }, (): [number, number] => [-16.5 + random.int(0, 100) / 100, random.chance(0.5) ? 179.95 : -179.95]),
      ...Array.from({ length: 20 }, (): [number, number] => [(random.int(0, 17_000) - 8500) / 100, (random.int(0, 35_800) - 17_900) / 100]),
    ];
    const venues = services.get(VenueService);
    for (const [index, [lat, lng]] of places.entries()) await venues.create(await services.fields(CreateVenueDto, { venue: `Venue ${index}`, geo_lat: lat, geo_lng: lng }), services.scope(caller));
    await venues.create(await services.fields(CreateVenueDto, { venue: 'Nowhere' }), services.scope(caller));

    const repository = services.get(EventRepository);
    const points = await repository.venuePoints();
    expect(points.size).toBe(places.length);
    const cellSql = '((FLOOR(v.geo_lat * 20) + 1800) * 7201 + FLOOR(v.geo_lng * 20) + 3600)';
    const radii = [
      { lat: 48.85, lng: 2.35, radiusKm: 5 },
      { lat: 48.85, lng: 2.35, radiusKm: 30 },
      { lat: -33.87, lng: 151.21, radiusKm: 12 },
      { lat: -16.2, lng: 180, radiusKm: 40 },
      { lat: 0, lng: 0, radiusKm: 3000 },
      { lat: 10, lng: 100, radiusKm: 20_000 },
      ...Array.from({ length: 40 }, () => ({ lat: (random.int(0, 1800) - 900) / 10, lng: (random.int(0, 3600) - 1800) / 10, radiusKm: random.int(1, 5000) })),
    ];
    let found = 0;
    for (const near of radii) {
      const condition = nearVenuesCondition(near);
      const [sql, params] = services.dataSource.driver.escapeQueryWithParameters(
        `SELECT v.id AS id, ${cellSql} AS cell FROM venues v WHERE v.geo_lat IS NOT NULL AND v.geo_lng IS NOT NULL AND ${condition.sql} ORDER BY v.id`,
        condition.params,
        {},
      );
      const rows: { id: unknown; cell: unknown }[] = await services.dataSource.query(sql, params);
      const selected = rows.map((row) => ({ id: Number(row.id), cell: Number(row.cell) }));
      const resolved = repository.venuesNear(near, points);
      expect({ near, ids: resolved.ids, cells: resolved.cells }).toEqual({ near, ids: selected.map((row) => row.id), cells: [...new Set(selected.map((row) => row.cell))].sort((a, b) => a - b) });
      found += selected.length;
    }
    // The radii hold venues: the comparison is not of empty lists.
    expect(found).toBeGreaterThan(200);
  });
});
