import type { Caller, Role } from '@calendar/shared/http';

export const ROLES: readonly Role[] = ['administrator', 'editor', 'author', 'contributor'];

const EDITORS: readonly Role[] = ['administrator', 'editor'];

/** The capabilities of SPEC §8, one function each, so that services state rules by name. */
export const can = {
  /** Read others' non-published and trashed records. */
  readOthersPrivate: (caller: Caller | null | undefined): boolean => !!caller && EDITORS.includes(caller.role),
  /** Create events, venues and organizers. */
  createRecords: (caller: Caller | null | undefined): boolean => !!caller,
  /** Give a record the status publish, future or private. */
  publish: (caller: Caller | null | undefined): boolean => !!caller && caller.role !== 'contributor',
  /** Update or delete records of other users; set another user as author. */
  editOthers: (caller: Caller | null | undefined): boolean => !!caller && EDITORS.includes(caller.role),
  /** Create, update and delete categories and tags. */
  manageTerms: (caller: Caller | null | undefined): boolean => !!caller && EDITORS.includes(caller.role),
  /** Manage users and tokens (the command-line tool). */
  manageUsers: (caller: Caller | null | undefined): boolean => caller?.role === 'administrator',
};
