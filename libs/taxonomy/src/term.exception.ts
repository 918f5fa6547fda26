import { ApiException } from '@calendar/shared/http';
import { TAXONOMIES, Taxonomy } from './taxonomy';

export enum TermErrorCode {
  TermExists = 'term-exists',
}

/** The errors of the taxonomy context, with their codes of SPEC §3.1. */
export class TermException extends ApiException {
  static notFound(taxonomy: Taxonomy): TermException {
    return new TermException(404, TAXONOMIES[taxonomy].notFoundCode, `The ${taxonomy} does not exist.`);
  }

  static exists(termId: number, reason: 'name' | 'slug'): TermException {
    const message = reason === 'name' ? 'A term with that name already exists under the same parent.' : 'A term with that slug already exists.';
    return new TermException(409, TermErrorCode.TermExists, message, { term_id: termId });
  }
}
