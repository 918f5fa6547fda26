import { Foundation1767225600000 } from './1767225600000-foundation';
import { VenuesOrganizers1767312000000 } from './1767312000000-venues-organizers';
import { Events1767398400000 } from './1767398400000-events';
import { DataVersion1767484800000 } from './1767484800000-data-version';
import { SearchTokens1767571200000 } from './1767571200000-search-tokens';
import { DataParts1767657600000 } from './1767657600000-data-parts';
import { EventRevision1767744000000 } from './1767744000000-event-revision';
import { WriteLog1767830400000 } from './1767830400000-write-log';
import { Recurrence1767916800000 } from './1767916800000-recurrence';
import { EventSpan1768003200000 } from './1768003200000-event-span';
import { IdempotencyKeys1768089600000 } from './1768089600000-idempotency-keys';
import { VersionSlots1768262400000 } from './1768262400000-version-slots';
import { IdempotencyRecord1768176000000 } from './1768176000000-idempotency-record';
import { EventDayCounts1768348800000 } from './1768348800000-event-day-counts';
import { Changes1768435200000 } from './1768435200000-changes';
import { Webhooks1768521600000 } from './1768521600000-webhooks';
import { ChangesByRecord1768608000000 } from './1768608000000-changes-by-record';
import { SearchTokenStart1768694400000 } from './1768694400000-search-token-start';
import { TallyScheme1768780800000 } from './1768780800000-tally-scheme';
import { EventLinkLists1768953600000 } from './1768953600000-event-link-lists';
import { EventVenueStarts1769040000000 } from './1769040000000-event-venue-starts';
import { EventTermStarts1769126400000 } from './1769126400000-event-term-starts';
import { EventOrganizerStarts1769212800000 } from './1769212800000-event-organizer-starts';
import { EventCountedTerms1769299200000 } from './1769299200000-event-counted-terms';
import { EventVenueCells1769385600000 } from './1769385600000-event-venue-cells';
import { SearchTokenOriginal1769472000000 } from './1769472000000-search-token-original';

/** The schema history, oldest first. Every schema change is a new file added here. */
export const MIGRATIONS = [Foundation1767225600000, VenuesOrganizers1767312000000, Events1767398400000, DataVersion1767484800000, SearchTokens1767571200000, DataParts1767657600000, EventRevision1767744000000, WriteLog1767830400000, Recurrence1767916800000, EventSpan1768003200000, IdempotencyKeys1768089600000, IdempotencyRecord1768176000000, VersionSlots1768262400000, EventDayCounts1768348800000, Changes1768435200000, Webhooks1768521600000, ChangesByRecord1768608000000, SearchTokenStart1768694400000, TallyScheme1768780800000, EventLinkLists1768953600000, EventVenueStarts1769040000000, EventTermStarts1769126400000, EventOrganizerStarts1769212800000, EventCountedTerms1769299200000, EventVenueCells1769385600000, SearchTokenOriginal1769472000000];
