/**
 * The cell of a grid of 0.05° (about 5.5 km north to south) a venue's coordinates lie in, as a whole number, written
 * in SQL so that the links a write keeps and the cells a radius reads are computed by the same engine from the same
 * stored numbers (`event_venues.geo_cell`, migration EventVenueCells1769385600000). NULL when either coordinate is.
 * Nothing depends on the cells' shape but that equality: a radius reads the links of the cells its venues lie in,
 * and still checks each link's venue against them.
 */
export const GEO_CELLS_PER_DEGREE = 20;

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
