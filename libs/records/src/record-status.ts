import { can } from '@calendar/shared/auth';
import type { Caller } from '@calendar/shared/http';

export const WRITABLE_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const;
export const STATUSES = [...WRITABLE_STATUSES, 'trash'] as const;
export type RecordStatus = (typeof STATUSES)[number];

/** Statuses only a role that may publish can give (SPEC §8). */
const PUBLISHING: readonly RecordStatus[] = ['publish', 'future', 'private'];

/**
 * The status a write ends with: the requested one, except that a role that may not publish gets `pending`
 * for publish/future/private; a create without status is `publish` for those who may publish, else `draft`.
 */
export function statusForWrite(requested: RecordStatus | undefined, caller: Caller | null, current?: RecordStatus): RecordStatus {
  const status = requested ?? current ?? (can.publish(caller) ? 'publish' : 'draft');
  if (PUBLISHING.includes(status) && !can.publish(caller) && status !== current) return 'pending';
  return status;
}

export function isPublished(status: RecordStatus): boolean {
  return status === 'publish';
}
