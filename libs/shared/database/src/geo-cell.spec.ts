import fc from 'fast-check';
import { cellsWithin, GEO_CELLS_PER_DEGREE, GeoPoints, greatCircleKm, radiusBox } from './geo-cell';

/** The cell of a point as `geoCellSql` computes it. */
function cellOf(lat: number, lng: number): number {
  return (Math.floor(lat * GEO_CELLS_PER_DEGREE) + 90 * GEO_CELLS_PER_DEGREE) * (360 * GEO_CELLS_PER_DEGREE + 1) + Math.floor(lng * GEO_CELLS_PER_DEGREE) + 180 * GEO_CELLS_PER_DEGREE;
}

describe('geo cells', () => {
  const paris = { lat: 48.85, lng: 2.35 };

  it('measures great-circle distances as the radius condition does', () => {
    expect(greatCircleKm(48.85, 2.35, 48.85, 2.35)).toBe(0);
    // Paris to Lyon, about 391 km.
    expect(Math.round(greatCircleKm(48.8566, 2.3522, 45.764, 4.8357))).toBe(391);
  });

  it('finds the cells whose every corner lies within the radius', () => {
    // The cell from (48.85, 2.35) to (48.90, 2.40): its far corner lies 6.7 km from the centre.
    const home = cellOf(48.86, 2.36);
    // One row north, from 48.90 to 48.95: its far corners lie 11.1 km away.
    const north = cellOf(48.93, 2.36);
    expect(cellsWithin([home, north], paris, 10)).toEqual([home]);
    expect(cellsWithin([home, north], paris, 12)).toEqual([home, north]);
    expect(cellsWithin([home, north], paris, 6)).toEqual([]);
    // West and south of the centre too (the cells' numbers hold negative degrees as well).
    const southWest = cellOf(-33.87, -70.66);
    expect(cellsWithin([southWest], { lat: -33.87, lng: -70.66 }, 8)).toEqual([southWest]);
    expect(cellsWithin([southWest], { lat: -33.87, lng: -70.66 }, 2)).toEqual([]);
  });

  it('keeps every point of a cell it finds within the radius', () => {
    const cells = [];
    for (let lat = 48.6; lat < 49.1; lat += 0.05) for (let lng = 2.0; lng < 2.7; lng += 0.05) cells.push(cellOf(lat + 0.01, lng + 0.01));
    // Of a grid of 11 × 15 cells: none, the four round the centre, then 12 and 48.
    for (const [radius, count] of [[3, 0], [7.5, 4], [12, 12], [20, 48]]) {
      const within = cellsWithin(cells, paris, radius);
      expect([radius, within.length]).toEqual([radius, count]);
      for (const cell of within) {
        const columns = 360 * GEO_CELLS_PER_DEGREE + 1;
        const south = (Math.floor(cell / columns) - 90 * GEO_CELLS_PER_DEGREE) / GEO_CELLS_PER_DEGREE;
        const west = ((cell % columns) - 180 * GEO_CELLS_PER_DEGREE) / GEO_CELLS_PER_DEGREE;
        for (let i = 0; i <= 10; i++) for (let j = 0; j <= 10; j++) expect(greatCircleKm(paris.lat, paris.lng, south + i / 200, west + j / 200)).toBeLessThanOrEqual(radius);
      }
    }
  });

  it('splits no radius of 5,000 km or more', () => {
    expect(cellsWithin([cellOf(48.86, 2.36)], paris, 5000)).toEqual([]);
  });

  describe('GeoPoints', () => {
    const latitude = fc.double({ min: -90, max: 90, noNaN: true });
    const longitude = fc.double({ min: -180, max: 180, noNaN: true });
    const radius = fc.record({ lat: latitude, lng: longitude, radiusKm: fc.oneof(fc.double({ min: 0, max: 300, noNaN: true }), fc.double({ min: 300, max: 21000, noNaN: true })) });
    /** Points round a few places (as venues gather in towns) and anywhere, ids in any order. */
    const points = fc
      .array(fc.oneof(fc.record({ lat: fc.double({ min: 48, max: 49.5, noNaN: true }), lng: fc.double({ min: 1.5, max: 3.5, noNaN: true }) }), fc.record({ lat: latitude, lng: fc.constantFrom(-180, -179.99, 179.99, 180) }), fc.record({ lat: latitude, lng: longitude })), { maxLength: 200 })
      .map((coordinates) => coordinates.map((point, index) => ({ id: 1 + ((index * 7919) % 1009), ...point, cell: cellOf(point.lat, point.lng) })));
    /** What the radius condition selects in SQL: the box, then the distance; by id. */
    const bruteForce = (all: { id: number; lat: number; lng: number; cell: number }[], near: { lat: number; lng: number; radiusKm: number }) => {
      const box = radiusBox(near);
      return all
        .filter((point) => point.lat >= box.latMin && point.lat <= box.latMax && (box.lngWraps || (point.lng >= box.lngMin && point.lng <= box.lngMax)))
        .filter((point) => greatCircleKm(near.lat, near.lng, point.lat, point.lng) <= near.radiusKm)
        .sort((a, b) => a.id - b.id)
        .map(({ id, cell }) => ({ id, cell }));
    };

    it('finds the points within a radius that the box and distance of the SQL condition select, by id', () => {
      fc.assert(
        fc.property(points, radius, (all, near) => {
          const unique = [...new Map(all.map((point) => [point.id, point])).values()];
          expect(GeoPoints.of(unique).within(near)).toEqual(bruteForce(unique, near));
        }),
        { numRuns: 500, seed: 20261202 },
      );
    });

    it('finds the venues round a city and none beyond the radius, over the antimeridian too', () => {
      const held = GeoPoints.of([
        { id: 3, lat: 48.8566, lng: 2.3522, cell: cellOf(48.8566, 2.3522) },
        { id: 1, lat: 48.9, lng: 2.4, cell: cellOf(48.9, 2.4) },
        { id: 2, lat: 45.764, lng: 4.8357, cell: cellOf(45.764, 4.8357) },
        { id: 4, lat: -16.5, lng: 179.9, cell: cellOf(-16.5, 179.9) },
        { id: 5, lat: -16.5, lng: -179.9, cell: cellOf(-16.5, -179.9) },
      ]);
      expect(held.size).toBe(5);
      expect(held.within({ lat: 48.85, lng: 2.35, radiusKm: 10 })).toEqual([
        { id: 1, cell: cellOf(48.9, 2.4) },
        { id: 3, cell: cellOf(48.8566, 2.3522) },
      ]);
      expect(held.within({ lat: 48.85, lng: 2.35, radiusKm: 400 }).map((point) => point.id)).toEqual([1, 2, 3]);
      expect(held.within({ lat: -16.5, lng: 180, radiusKm: 15 }).map((point) => point.id)).toEqual([4, 5]);
      expect(held.within({ lat: 0, lng: 0, radiusKm: 100 })).toEqual([]);
      expect(GeoPoints.of([]).within({ lat: 0, lng: 0, radiusKm: 20000 })).toEqual([]);
    });
  });
});
