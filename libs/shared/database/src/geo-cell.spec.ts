import { cellsWithin, GEO_CELLS_PER_DEGREE, greatCircleKm } from './geo-cell';

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
});
