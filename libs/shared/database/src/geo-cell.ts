/**
 * The cell of a grid of 0.05° (about 5.5 km north to south) a venue's coordinates lie in, as a whole number, written
 * in SQL so that the links a write keeps and the cells a radius reads are computed by the same engine from the same
 * stored numbers (`event_venues.geo_cell`, migration EventVenueCells1769385600000). NULL when either coordinate is.
 * A radius reads the links of the cells its venues lie in; those of a cell wholly within it (`cellsWithin`) are taken
 * whole, and each link of any other cell is checked against the radius's venues.
 */
export const GEO_CELLS_PER_DEGREE = 20;

/** The earth's mean radius the great-circle distances of radii are measured with, in SQL and here alike. */
export const EARTH_RADIUS_KM = 6371;

/**
 * How far inside the radius every corner of a cell must lie for the cell to count as wholly within it, in km: a
 * cell's north and south edges follow parallels, not great circles, and bulge out from the straight way between
 * their corners by at most 0.3 m (R × (0.05° in radians)² / 16); meridians and the great circles between points of a
 * radius (convex below a quarter of the earth's circumference) stay inside it. The floating-point distance computed
 * by the database and here differ by far less.
 */
const CELL_MARGIN_KM = 0.001;

/** Radii beyond this are not split into cells within and cells on their edge (a cap of a quarter of the earth is not convex). */
const LARGEST_SPLIT_RADIUS_KM = 5000;

/** The great-circle distance between two points in km (haversine), as the list's radius condition computes it in SQL. */
export function greatCircleKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const a = Math.sin(radians(lat2 - lat1) / 2) ** 2 + Math.cos(radians(lat1)) * Math.cos(radians(lat2)) * Math.sin(radians(lng2 - lng1) / 2) ** 2;
  return EARTH_RADIUS_KM * 2 * Math.asin(Math.sqrt(a));
}

/**
 * The cells among `cells` (numbers of `geoCellSql`) that lie wholly within `radiusKm` of a point: all four corners
 * closer than the radius by `CELL_MARGIN_KM`, so that every venue whose stored coordinates fall in the cell is within
 * the radius. None for radii of `LARGEST_SPLIT_RADIUS_KM` or more.
 */
export function cellsWithin(cells: readonly number[], center: { lat: number; lng: number }, radiusKm: number): number[] {
  if (!(radiusKm < LARGEST_SPLIT_RADIUS_KM)) return [];
  const columns = 360 * GEO_CELLS_PER_DEGREE + 1;
  return cells.filter((cell) => {
    const south = (Math.floor(cell / columns) - 90 * GEO_CELLS_PER_DEGREE) / GEO_CELLS_PER_DEGREE;
    const west = ((cell % columns) - 180 * GEO_CELLS_PER_DEGREE) / GEO_CELLS_PER_DEGREE;
    const corners: [number, number][] = [
      [south, west],
      [south, west + 1 / GEO_CELLS_PER_DEGREE],
      [south + 1 / GEO_CELLS_PER_DEGREE, west],
      [south + 1 / GEO_CELLS_PER_DEGREE, west + 1 / GEO_CELLS_PER_DEGREE],
    ];
    return corners.every(([lat, lng]) => greatCircleKm(center.lat, center.lng, lat, lng) <= radiusKm - CELL_MARGIN_KM);
  });
}

/** The cell of the coordinates of the venue row `alias` (columns `geo_lat`, `geo_lng`), as an SQL expression. */
export function geoCellSql(alias: string): string {
  const lat = `FLOOR(${alias}.geo_lat * ${GEO_CELLS_PER_DEGREE})`;
  const lng = `FLOOR(${alias}.geo_lng * ${GEO_CELLS_PER_DEGREE})`;
  // Rows of 360 × 20 + 1 columns, from the south pole and the antimeridian: every cell a whole number of its own.
  return `((${lat} + ${90 * GEO_CELLS_PER_DEGREE}) * ${360 * GEO_CELLS_PER_DEGREE + 1} + ${lng} + ${180 * GEO_CELLS_PER_DEGREE})`;
}

/** The statement giving the venue links that `where` selects (on `event_venues`) the cell of their venue's coordinates. */
export function linkCellsUpdate(where: string): string {
  return `UPDATE event_venues SET geo_cell = (SELECT ${geoCellSql('v')} FROM venues v WHERE v.id = event_venues.venue_id) WHERE ${where}`;
}

/** A radius around a point, in km. */
export interface Radius {
  lat: number;
  lng: number;
  radiusKm: number;
}

/**
 * The box of latitudes and longitudes a radius lies within, which its venues are first selected by (in SQL and in
 * `GeoPoints` alike): `lngWraps` when the box crosses the antimeridian or reaches a pole, and every longitude is then
 * taken.
 */
export function radiusBox({ lat, lng, radiusKm }: Radius): { latMin: number; latMax: number; lngMin: number; lngMax: number; lngWraps: boolean } {
  const latSpan = (radiusKm / EARTH_RADIUS_KM) * (180 / Math.PI);
  const cosLat = Math.cos((lat * Math.PI) / 180);
  const lngSpan = cosLat < 1e-6 ? 180 : Math.min(180, latSpan / cosLat);
  return {
    latMin: lat - latSpan,
    latMax: lat + latSpan,
    lngMin: lng - lngSpan,
    lngMax: lng + lngSpan,
    lngWraps: lng - lngSpan < -180 || lng + lngSpan > 180 || lngSpan >= 180,
  };
}

/** One point of `GeoPoints.of`: a venue's id, its stored coordinates and its cell as the database computes it (`geoCellSql`). */
export interface GeoPoint {
  id: number;
  lat: number;
  lng: number;
  cell: number;
}

/**
 * The venues with coordinates, in order of latitude, in flat arrays (some 32 bytes a venue, outside the collector's
 * object graph): the venues within a radius are those of its box's latitudes (a binary search), within its box's
 * longitudes and within its great-circle distance (`greatCircleKm`). Made from every venue row at once, and kept per
 * version of the venues (`FragmentCache.value`), so that a radius costs a search of memory instead of a statement
 * that reads and sends every venue of its box (at 20,000 venues, 1,500 rows and 3–4 ms of the database for a radius
 * of 60 km around a city).
 */
export class GeoPoints {
  private constructor(
    private readonly ids: Float64Array,
    private readonly lats: Float64Array,
    private readonly lngs: Float64Array,
    private readonly cells: Float64Array,
  ) {}

  static of(points: readonly GeoPoint[]): GeoPoints {
    const sorted = [...points].sort((a, b) => a.lat - b.lat || a.id - b.id);
    const column = (pick: (point: GeoPoint) => number) => Float64Array.from(sorted, pick);
    return new GeoPoints(
      column((point) => point.id),
      column((point) => point.lat),
      column((point) => point.lng),
      column((point) => point.cell),
    );
  }

  /** How many points are held. */
  get size(): number {
    return this.ids.length;
  }

  /** The points within a radius, by id (ascending), each with its cell. */
  within(radius: Radius): { id: number; cell: number }[] {
    const { latMin, latMax, lngMin, lngMax, lngWraps } = radiusBox(radius);
    const found: { id: number; cell: number }[] = [];
    for (let at = this.firstAtOrAbove(latMin); at < this.lats.length && this.lats[at] <= latMax; at += 1) {
      const lng = this.lngs[at];
      if (!lngWraps && (lng < lngMin || lng > lngMax)) continue;
      if (greatCircleKm(radius.lat, radius.lng, this.lats[at], lng) <= radius.radiusKm) found.push({ id: this.ids[at], cell: this.cells[at] });
    }
    return found.sort((a, b) => a.id - b.id);
  }

  /** The index of the first point whose latitude is `lat` or more. */
  private firstAtOrAbove(lat: number): number {
    let low = 0;
    let high = this.lats.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.lats[middle] < lat) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
