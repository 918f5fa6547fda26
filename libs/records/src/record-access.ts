import { can } from '@calendar/shared/auth';
import type { Caller } from '@calendar/shared/http';
import type { RecordEntity } from './entities/record.entity';

export type ReadAccess = 'ok' | 'trashed' | 'hidden';

/** Who may read a record (SPEC §4.3, §8): everyone when published; else editors, administrators and the owner. */
export function readAccess(record: Pick<RecordEntity, 'status' | 'authorId'>, caller: Caller | null): ReadAccess {
  if (record.status === 'publish') return 'ok';
  if (can.readOthersPrivate(caller) || (caller !== null && caller.id === record.authorId)) return 'ok';
  return record.status === 'trash' ? 'trashed' : 'hidden';
}

/**
 * Who may update or delete a record: editors and administrators always; authors their own; contributors
 * their own while it is not published.
 */
export function mayModify(record: Pick<RecordEntity, 'status' | 'authorId'>, caller: Caller | null): boolean {
  if (!caller) return false;
  if (can.editOthers(caller)) return true;
  if (caller.id !== record.authorId) return false;
  return caller.role === 'author' || !['publish', 'future', 'private'].includes(record.status);
}
