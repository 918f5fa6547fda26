import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * What taxonomy needs to know about the records that carry terms, provided by the library that owns those
 * links (events), so that taxonomy never depends on it.
 */
export interface TermLinkReader {
  /** The ids of the terms attached to an event, or null when no such event exists. */
  termIdsForEvent(eventId: number): Promise<number[] | null>;
  /** The ids of the events that carry a term, read inside `manager`'s transaction. */
  eventIdsForTerm(manager: EntityManager, termId: number): Promise<number[]>;
}

/** Where the owner of event-term links registers its reader at start-up. */
@Injectable()
export class TermLinkRegistry {
  private reader: TermLinkReader | null = null;

  register(reader: TermLinkReader): void {
    this.reader = reader;
  }

  /** With no event store registered, no event exists. */
  async termIdsForEvent(eventId: number): Promise<number[] | null> {
    return this.reader ? this.reader.termIdsForEvent(eventId) : null;
  }

  /** With no event store registered, no event carries a term. */
  async eventIdsForTerm(manager: EntityManager, termId: number): Promise<number[]> {
    return this.reader ? this.reader.eventIdsForTerm(manager, termId) : [];
  }
}
