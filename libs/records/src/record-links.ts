import { Injectable } from '@nestjs/common';
import type { Caller } from '@calendar/shared/http';

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
  /** A condition on `alias.id`: linked to at least one event that is not a draft, pending or trashed. */
  linkedCondition(kind: LinkedKind, alias: string): SqlCondition;
  /** A condition on `alias.id`: linked to at least one event the caller sees in event lists that has not ended yet. */
  upcomingCondition(kind: LinkedKind, alias: string, caller: Caller | null): SqlCondition;
}

const NOTHING: SqlCondition = { sql: '1 = 0', params: {} };

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
  linkedCondition(kind: LinkedKind, alias: string): SqlCondition {
    return this.reader ? this.reader.linkedCondition(kind, alias) : NOTHING;
  }

  upcomingCondition(kind: LinkedKind, alias: string, caller: Caller | null): SqlCondition {
    return this.reader ? this.reader.upcomingCondition(kind, alias, caller) : NOTHING;
  }
}
