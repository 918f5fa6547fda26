import { Injectable } from '@nestjs/common';

export type LinkedKind = 'venue' | 'organizer';

export interface SqlCondition {
  sql: string;
  params: Record<string, unknown>;
}

/**
 * What venues and organizers need to know about the events that link to them, provided by the library that
 * owns those links (events), so that neither depends on it.
 */
export interface EventLinkReader {
  /** Ids of the venues/organizers an event links to, or null when no such event exists. */
  idsForEvent(kind: LinkedKind, eventId: number): Promise<number[] | null>;
  /**
   * A condition on `alias.id`: linked to at least one event that is not a draft, pending or trashed
   * (`upcoming`: one visible event that has not ended yet).
   */
  linkedCondition(kind: LinkedKind, alias: string, upcoming: boolean): SqlCondition;
}

/** Where the owner of event links registers its reader at start-up. */
@Injectable()
export class EventLinkRegistry {
  private reader: EventLinkReader | null = null;

  register(reader: EventLinkReader): void {
    this.reader = reader;
  }

  /** With no event store registered, no event exists. */
  async idsForEvent(kind: LinkedKind, eventId: number): Promise<number[] | null> {
    return this.reader ? this.reader.idsForEvent(kind, eventId) : null;
  }

  /** With no event store registered, nothing is linked. */
  linkedCondition(kind: LinkedKind, alias: string, upcoming: boolean): SqlCondition {
    return this.reader ? this.reader.linkedCondition(kind, alias, upcoming) : { sql: '1 = 0', params: {} };
  }
}
