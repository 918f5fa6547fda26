import { FixedOffsetZone, IANAZone, Zone } from 'luxon';

/** A time zone as the client named it, with the luxon zone that implements its rules. */
export interface TimeZone {
  /** The name as stored and returned: an IANA name, `UTC`, or a fixed offset such as `UTC+5:30`. */
  readonly name: string;
  readonly zone: Zone;
  /** True for `UTC+H[:MM]` style zones, whose abbreviation is the name itself. */
  readonly fixed: boolean;
}

const OFFSET_PATTERN = /^UTC([+-])(\d{1,2})(?::?(\d{2}))?$/i;

/** Offsets allowed by the tz database: −12:00 to +14:00. */
const MIN_OFFSET_MINUTES = -12 * 60;
const MAX_OFFSET_MINUTES = 14 * 60;

export const TIME_ZONE_RULE = 'an IANA time zone name (e.g. Europe/Paris, UTC) or an offset UTC+H[:MM] between UTC-12 and UTC+14';

/** Zones already parsed, by the text given; bounded, since the text may come from a client. */
const parsedZones = new Map<string, TimeZone | null>();
const PARSED_ZONES_KEPT = 2000;

/**
 * Parses an IANA zone name or a `UTC±H[:MM]` offset; returns null for anything else. Every event answer names
 * its zone, and checking an IANA name builds an `Intl.DateTimeFormat`, so results are kept by input.
 */
export function parseTimeZone(input: string): TimeZone | null {
  const known = parsedZones.get(input);
  if (known !== undefined) return known;
  const parsed = parseTimeZoneText(input);
  if (parsedZones.size < PARSED_ZONES_KEPT) parsedZones.set(input, parsed);
  return parsed;
}

function parseTimeZoneText(input: string): TimeZone | null {
  const value = input.trim();
  if (value === '') return null;
  const offset = OFFSET_PATTERN.exec(value);
  if (offset) {
    const [, sign, hours, minutes = '00'] = offset;
    if (Number(minutes) >= 60) return null;
    const total = (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
    if (total < MIN_OFFSET_MINUTES || total > MAX_OFFSET_MINUTES) return null;
    const name = `UTC${sign}${Number(hours)}${minutes === '00' ? '' : `:${minutes}`}`;
    return { name, zone: FixedOffsetZone.instance(total), fixed: true };
  }
  if (/^utc$/i.test(value)) return { name: 'UTC', zone: FixedOffsetZone.utcInstance, fixed: false };
  if (!IANAZone.isValidZone(value)) return null;
  const zone = IANAZone.create(value);
  return { name: zone.name, zone, fixed: false };
}
