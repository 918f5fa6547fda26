/**
 * The rows that stand for an event in a list read from a set (its venue links, read by cell for a radius; its search
 * rows, read by word) carry what the listing index holds of it besides its start: whether it is listed (published
 * and not hidden from listings), its end and whether it is featured (`listed`, `end_utc`, `featured`; migration
 * ListingStateCarried1769644800000). An anonymous list's total or page read from such a set then checks its events
 * on the set's own rows, instead of finding each one on the listing index (at a million events, two thirds of a
 * searched or radius total's time). The one write path writes them with the start: with every event a write changes
 * or touches (`EventRepository.refreshLinkLists`), and with the search rows it rebuilds.
 */
export type ListingStateTable = 'event_venues' | 'search_tokens';

/** The column of each such table that names the event. */
const EVENT_COLUMN: Record<ListingStateTable, string> = { event_venues: 'event_id', search_tokens: 'record_id' };

/** Whether an event of `status` and `hidden` from listings is listed: what anonymous lists show. */
export function isListed(status: string, hidden: boolean): boolean {
  return status === 'publish' && !hidden;
}

/**
 * The statement giving the rows of `table` that `where` selects (SQL on alias `l`; the search rows of events only)
 * their event's start and listing state, from the event's row (`engine`: MySQL and MariaDB join it, SQLite reads it
 * per row).
 */
export function listingStateUpdate(engine: 'mysql' | 'sqlite', table: ListingStateTable, where: string): string {
  const event = EVENT_COLUMN[table];
  const listed = `(e.status = 'publish' AND e.hide_from_listings = 0)`;
  if (engine === 'mysql') {
    return `UPDATE ${table} l INNER JOIN events e ON e.id = l.${event} SET l.start_utc = e.start_utc, l.listed = ${listed}, l.end_utc = e.end_utc, l.featured = e.featured WHERE ${where}`;
  }
  return `UPDATE ${table} AS l SET (start_utc, listed, end_utc, featured) = (SELECT e.start_utc, ${listed}, e.end_utc, e.featured FROM events e WHERE e.id = l.${event}) WHERE ${where}`;
}
