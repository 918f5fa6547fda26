/** The REST namespace every resource route lives under, below the API root. */
export const NAMESPACE = 'calendar/events/v1';
/** Bodies larger than this are refused with 413. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
/** Path segment of a numeric id: anything else is an unknown route (404 `rest_no_route`). */
export const ID_SEGMENT = ':id(^\\d+$)';
/** How much of a refused body is read and thrown away after the 413 before the connection is closed. */
export const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;
