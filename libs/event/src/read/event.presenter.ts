import { Injectable } from '@nestjs/common';
import { RequestContext } from '@calendar/i18n';
import { OrganizerResponse, OrganizerService } from '@calendar/organizer';
import { mayModify, MediaEntity, RecordServiceDeps } from '@calendar/records';
import { CacheRegistry, entryKey, RevisionCache } from '@calendar/shared/cache';
import { JsonPart, JsonTemplate, JsonText } from '@calendar/shared/http';
import { TermResponse, TermService } from '@calendar/taxonomy';
import { VenueResponse, VenueService } from '@calendar/venue';
import { EventJsonLdOwn, EventJsonLdOwnTexts, eventJsonLd, eventJsonLdOwn, eventJsonLdOwnTexts, eventJsonLdText, EventResponse, mapEvent, organizerJsonLdText, placeJsonLdText } from '../dto/event.mapper';
import { EventEntity } from '../entities/event.entity';
import { EventHead, EventLinks, EventRepository } from '../event.repository';

/** The members of an event that embed other records: filled in per answer, from their own kept renderings. */
const EMBEDDED = ['categories', 'tags', 'venue', 'organizer'] as const;
/** ... and, in single answers, its JSON-LD, which embeds its place and organizers. */
type Open = (typeof EMBEDDED)[number] | 'json_ld';

/** The venues, organizers and terms an event links to, as the caller may see them: their kept JSON texts. */
export type Linked = (eventId: number) => {
  venues: JsonText<VenueResponse>[];
  organizers: JsonText<OrganizerResponse>[];
  categories: JsonText<TermResponse>[];
  tags: JsonText<TermResponse>[];
};

/** The models of kept texts, made anew for a caller that needs objects (JSON-LD, models). */
const modelsOf = <T>(items: JsonText<T>[]): T[] => items.map((item) => item.toJSON());

/**
 * The JSON-LD texts made of kept renderings, each kept with (and collected with) what it is made of: an event's own
 * members with its kept rendering, a place or an organizer with the kept text of its venue or organizer, which embeds
 * the same object in every answer that shows it. A single event's JSON-LD is then joined from texts instead of
 * parsing the texts of its venue and organizers and serialising the whole again.
 */
const ownJsonLdTexts = new WeakMap<EventJsonLdOwn, EventJsonLdOwnTexts>();
const embeddedJsonLdTexts = new WeakMap<JsonText, string>();

function keptText<K extends object, V>(kept: WeakMap<K, V>, of: K, make: (of: K) => V): V {
  const known = kept.get(of);
  if (known !== undefined) return known;
  const made = make(of);
  kept.set(of, made);
  return made;
}

/** The JSON text of an event's JSON-LD, as `JSON.stringify(eventJsonLd(own, models of venues, of organizers))`. */
function jsonLdText(own: EventJsonLdOwn, venues: JsonText<VenueResponse>[], organizers: JsonText<OrganizerResponse>[]): string {
  const place = venues.length > 0 ? keptText(embeddedJsonLdTexts, venues[0], (text) => placeJsonLdText(text.toJSON() as VenueResponse)) : undefined;
  const organizerTexts = organizers.map((organizer) => keptText(embeddedJsonLdTexts, organizer, (text) => organizerJsonLdText(text.toJSON() as OrganizerResponse)));
  return eventJsonLdText(keptText(ownJsonLdTexts, own, eventJsonLdOwnTexts), place, organizerTexts);
}

/** How events are presented: single answers carry JSON-LD; a protected event is shown reduced unless unlocked. */
export interface PresentAs {
  single: boolean;
  /** Protected events the caller gave the password of. */
  unlocked?: ReadonlySet<number>;
  /** `false` keeps nothing new (a feed of 100 events should not push the lists' renderings out). */
  keep?: boolean;
  /** Whole records already read with their heads (a single read of an event not kept): not read again. */
  loaded?: readonly EventEntity[];
}

/**
 * What is kept of an event per language, origin, lock and kind of answer, under the event's revision: its own
 * members as JSON text with the members that embed other records open. Flat strings, not object graphs: with
 * models kept instead, the heap's collections cost never-cached single reads a fifth of their speed.
 */
interface KeptEvent {
  template: JsonTemplate<Open>;
  /** Single answers: the members of the JSON-LD that come from the event alone. */
  jsonLd?: EventJsonLdOwn;
}

/** An empty list of embedded records, as a part of an answer. */
const EMPTY_LIST: readonly JsonPart[] = ['[]'];

/** The open members as a model leaves them empty. */
const EMPTY: Record<Open, string> = { categories: '[]', tags: '[]', venue: '[]', organizer: '[]', json_ld: '{}' };
/** Records rendered at a time when many are missing (a sync page, a feed); a list page of up to 100 is one slice. */
const RENDER_SLICE = 100;
/** How many list events' finds weigh in `listsRenderMost` before the older ones weigh half. */
const LIST_FINDS_WEIGHED = 4096;

/**
 * The one place events are rendered (SPEC §4.1), for every answer that shows them: reads and writes as JSON text,
 * feeds, grids and pages as typed models. Each event's own members are made once per revision (its full record
 * loaded and mapped again only after it is written) and kept as JSON text; the venues, organizers and terms it
 * links to come from their own kept renderings, as the caller may see them. The JSON text of an event is the JSON
 * of its model.
 */
@Injectable()
export class EventPresenter {
  private readonly kept: RevisionCache<KeptEvent>;
  /** Of the recent list pages' events, how many were found rendered and how many were rendered anew. */
  private readonly listFinds = { kept: 0, rendered: 0 };

  constructor(
    private readonly deps: RecordServiceDeps,
    caches: CacheRegistry,
    private readonly events: EventRepository,
    private readonly venues: VenueService,
    private readonly organizers: OrganizerService,
    private readonly terms: TermService,
  ) {
    // Kept when rendered a second time: lists of windows and filters no one asks twice render events never shown
    // again, and keeping each would push out the ones asked often and cost the collector an entry that dies old.
    this.kept = caches.revisions('event renderings', deps.config.renderCacheBytes, { admission: 'second sight' });
  }

  /** Events as JSON answers, in the order of `heads` (an event deleted since its head was read is left out). */
  async texts(heads: EventHead[], links: EventLinks | Linked, scope: RequestContext, as: PresentAs): Promise<{ event: EventHead; text: JsonText<EventResponse> }[]> {
    // One after the other: in parallel, each request would hold two connections of the pool.
    const linked = await this.linked(links, scope);
    const own = await this.own(heads, scope, as, false);
    // The kept texts (and bytes: venues and organizers are kept as bytes) placed as they are, between brackets.
    const list = (items: JsonText[]): readonly JsonPart[] => {
      if (items.length === 0) return EMPTY_LIST;
      const parts: JsonPart[] = ['['];
      items.forEach((item, index) => {
        if (index > 0) parts.push(',');
        parts.push(item.part);
      });
      parts.push(']');
      return parts;
    };
    return own.map(({ event, kept: { template, jsonLd } }) => {
      const { venues, organizers, categories, tags } = linked(event.id);
      const parts = template.parts({
        categories: list(categories),
        tags: list(tags),
        venue: venues.length === 1 ? venues[0].part : list(venues),
        organizer: list(organizers),
        json_ld: jsonLd ? jsonLdText(jsonLd, venues, organizers) : '',
      });
      return { event, text: new JsonText<EventResponse>(parts) };
    });
  }

  /** Events as typed models (feeds, grids, pages): the objects whose JSON `texts` gives. */
  async models(heads: EventHead[], links: EventLinks | Linked, scope: RequestContext, as: PresentAs): Promise<{ event: EventHead; model: EventResponse; locked: boolean }[]> {
    // One after the other: in parallel, each request would hold two connections of the pool.
    const linked = await this.linked(links, scope);
    const own = await this.own(heads, scope, as, true);
    return own.map(({ event, kept: { template, jsonLd }, fresh, locked }) => {
      // Made by this call, or revived from what is kept (the cache's own form, as a store outside the process would
      // hold it; callers get models).
      const model = fresh ?? (JSON.parse(template.fill(EMPTY)) as EventResponse);
      if (locked) return { event, model, locked };
      const texts = linked(event.id);
      const [venues, organizers] = [modelsOf(texts.venues), modelsOf(texts.organizers)];
      const full: EventResponse = { ...model, categories: modelsOf(texts.categories), tags: modelsOf(texts.tags), venue: venues.length === 1 ? venues[0] : venues, organizer: organizers };
      if (jsonLd) full.json_ld = eventJsonLd(jsonLd, venues, organizers);
      return { event, model: full, locked };
    });
  }

  /**
   * For each event, the venues, organizers, categories and tags it links to, as the caller may see them (kept
   * renderings, FragmentCache), read once for a whole page.
   */
  async linked(links: EventLinks | Linked, scope: RequestContext): Promise<Linked> {
    if (typeof links === 'function') return links;
    const all = (map: Map<number, number[]>) => [...new Set([...map.values()].flat())];
    const [venues, organizers, terms] = await Promise.all([
      this.venues.presentByIds(all(links.venues), scope),
      this.organizers.presentByIds(all(links.organizers), scope),
      this.terms.presentByIds(all(links.terms), scope),
    ]);
    const pick = <T>(ids: number[] | undefined, map: Map<number, T>) => (ids ?? []).map((id) => map.get(id)).filter((item): item is T => item !== undefined);
    return (eventId) => {
      const eventTerms = pick(links.terms.get(eventId), terms);
      return {
        venues: pick(links.venues.get(eventId), venues),
        organizers: pick(links.organizers.get(eventId), organizers),
        categories: eventTerms.flatMap((term) => (term.taxonomy === 'tribe_events_cat' ? [term.json] : [])),
        tags: eventTerms.flatMap((term) => (term.taxonomy === 'post_tag' ? [term.json] : [])),
      };
    };
  }

  /**
   * Whether an open (not reduced) rendering of an event is kept for the scope's language and origin, at whatever
   * revision: if not, a single read renders it, and reads its record with its head.
   */
  keeps(id: number, scope: RequestContext, single: boolean): boolean {
    return this.kept.holds(this.keyOf(id, scope, false, single));
  }

  /**
   * Whether list pages lately rendered most of their events anew (every window and filter new, or renderings not
   * kept at all): a page then reads its events' records with its rows, in one statement, rather than its rows first
   * and the records of those not kept after.
   */
  listsRenderMost(): boolean {
    return this.listFinds.rendered >= this.listFinds.kept;
  }

  /** Whether the caller sees an event reduced (SPEC §4.7): protected, not unlocked, and not theirs to edit. */
  locked(event: EventHead, scope: RequestContext, unlocked?: ReadonlySet<number>): boolean {
    return event.passwordHash !== null && !unlocked?.has(event.id) && !mayModify(event, scope.caller);
  }

  /** Each event's kept own members, made for those written since they were kept; in the order of `heads`. */
  private async own(
    heads: EventHead[],
    scope: RequestContext,
    { single, unlocked, keep = true, loaded = [] }: PresentAs,
    models: boolean,
  ): Promise<{ event: EventHead; kept: KeptEvent; fresh?: EventResponse; locked: boolean }[]> {
    const keyOf = (event: EventHead, locked: boolean) => this.keyOf(event.id, scope, locked, single);
    const found = new Map<number, { event: EventHead; kept: KeptEvent; fresh?: EventResponse; locked: boolean }>();
    const missing = heads.filter((event) => {
      const locked = this.locked(event, scope, unlocked);
      const kept = this.kept.get(keyOf(event, locked), event.revision);
      if (kept) found.set(event.id, { event, kept, locked });
      return !kept;
    });
    if (!single) {
      this.listFinds.kept += heads.length - missing.length;
      this.listFinds.rendered += missing.length;
      // The last few thousand events weigh most.
      if (this.listFinds.kept + this.listFinds.rendered > LIST_FINDS_WEIGHED) {
        this.listFinds.kept /= 2;
        this.listFinds.rendered /= 2;
      }
    }
    // In slices: a sync page of 1,000 reads its records ten statements of 100 at a time, and holds one slice of
    // records at once, not a thousand.
    const given = new Map(loaded.map((record) => [record.id, record]));
    for (let from = 0; from < missing.length; from += RENDER_SLICE) {
      const slice = missing.slice(from, from + RENDER_SLICE);
      const unread = slice.filter((event) => !given.has(event.id)).map((event) => event.id);
      const records = [...slice.flatMap((event) => given.get(event.id) ?? []), ...(await this.events.load(unread))];
      const images = records.length > 0 ? await this.deps.media.byIds(records.map((event) => event.imageId)) : new Map<number, MediaEntity>();
      for (const event of records) {
        const locked = this.locked(event, scope, unlocked);
        const own = mapEvent(event, scope, this.deps, { image: images.get(event.imageId ?? 0) ?? null, venues: [], organizers: [], categories: [], tags: [], locked }, false);
        const withJsonLd = single && !locked;
        // The open members are placed where the full rendering has them: the embedded ones in turn, JSON-LD last.
        if (withJsonLd) own.json_ld = {};
        const kept: KeptEvent = {
          template: JsonTemplate.of<Open>(own, locked ? [] : withJsonLd ? [...EMBEDDED, 'json_ld'] : EMBEDDED),
          jsonLd: withJsonLd ? eventJsonLdOwn(own, event) : undefined,
        };
        if (keep) this.kept.set(keyOf(event, locked), event.revision, kept, kept.template.size);
        found.set(event.id, { event, kept, fresh: models ? own : undefined, locked });
      }
    }
    return heads.flatMap((head) => {
      const entry = found.get(head.id);
      return entry ? [entry] : [];
    });
  }

  private keyOf(id: number, scope: RequestContext, locked: boolean, single: boolean): string {
    return entryKey(id, scope.language, scope.origin, locked ? 'locked' : 'open', single ? 'single' : 'list');
  }
}
