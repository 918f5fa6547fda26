import { ApiException } from '@calendar/shared/http';
/** The part of a record kind its errors need. */
type Kind = { kind: string; trashedCode: string };

/** The record errors of SPEC §3.1, with the kind in their codes. */
export class RecordException extends ApiException {
  static notFound(kind: Kind): RecordException {
    return new RecordException(404, `rest-${kind.kind}-not-found`, `The ${kind.kind} does not exist.`);
  }

  static notAccessible(kind: Kind): RecordException {
    return new RecordException(403, `${kind.kind}-not-accessible`, `The ${kind.kind} is not published and you may not read it.`);
  }

  static trashed(kind: Kind): RecordException {
    return new RecordException(403, kind.trashedCode, `The ${kind.kind} is in the trash.`);
  }

  static inTrash(kind: Kind): RecordException {
    return new RecordException(410, `${kind.kind}-is-in-trash`, `The ${kind.kind} is already in the trash.`);
  }

  static slugExists(kind: Kind, id: number): RecordException {
    return new RecordException(409, 'slug-exists', `Another ${kind.kind} uses that slug in this language.`, { id });
  }
}
