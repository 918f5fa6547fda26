import { ApiException } from './api-exception';
import { JsonText, listBytes } from './json-text';
import { LocalizedDto } from './localized.dto';
import { IntegerParam, StringParam } from './validation';

/** The parameters every sync route takes (SPEC §16.2); each kind adds its filters. */
export class SyncQueryDto extends LocalizedDto {
  @StringParam({ maxLength: 500, description: 'The token the last page of the previous sync gave: only what changed since (incremental sync); without it, a full sync' })
  sync_token?: string;

  @StringParam({ maxLength: 500, description: 'The next page of a sync in progress, as `next_rest_url` carries it (opaque)' })
  cursor?: string;

  @IntegerParam({ min: 1, max: 1000, default: 100, description: 'Records per page' })
  per_page = 100;
}

/** The parameters of lists that a sync refuses (SPEC §16.2): it has no date window, no search, no pages nor order. */
export const NOT_SYNC_FILTERS = [
  'start_date',
  'end_date',
  'starts_before',
  'starts_after',
  'ends_before',
  'ends_after',
  'strict_dates',
  'modified_after',
  'modified_before',
  'search',
  'page',
  'orderby',
  'order',
  'include',
  'geoloc',
  'geoloc_lat',
  'geoloc_lng',
  'geoloc_radius',
] as const;

/** 400 naming every parameter of the raw query that a sync does not take, with what it takes instead. */
export function refuseNonSyncParams(raw: Record<string, unknown>, allowed: readonly string[], alsoRefused: readonly string[] = []): void {
  const problems: Record<string, string> = {};
  for (const name of [...NOT_SYNC_FILTERS, ...alsoRefused]) {
    if (raw[name] !== undefined) problems[name] = `is not a filter of a sync; a sync takes ${allowed.join(', ')}`;
  }
  if (Object.keys(problems).length > 0) throw ApiException.invalidParams(problems);
}

/** A sync page as JSON text: items rendered ahead (JsonText) are placed as they are. */
export function syncBody(key: string, items: (JsonText | object)[], restUrl: string, next: { nextUrl?: string; token?: string }): JsonText {
  const rest: Record<string, string> = { rest_url: restUrl };
  if (next.nextUrl !== undefined) rest['next_rest_url'] = next.nextUrl;
  if (next.token !== undefined) rest['sync_token'] = next.token;
  return new JsonText(listBytes(key, items, rest));
}
