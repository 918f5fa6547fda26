import { BoundedMap, CacheRegistry } from '@calendar/shared/cache';
import { Injectable } from '@nestjs/common';
import { EventGrid, EventService, ListEventsQueryDto } from '@calendar/event';
import { RequestContext } from '@calendar/i18n';
import { OrganizerResponse, OrganizerService } from '@calendar/organizer';
import { plainText, RecordException } from '@calendar/records';
import { AppConfig } from '@calendar/shared/config';
import { ApiException, HtmlErrorAnswer, LinkBuilder, TextAnswer } from '@calendar/shared/http';
import { ListCategoriesQueryDto, ListTagsQueryDto, Taxonomy, TermResponse, TermService } from '@calendar/taxonomy';
import { VenueResponse, VenueService } from '@calendar/venue';
import { DateTime } from 'luxon';
import { eventStartIso, eventTime, eventWhen, firstVenue, googleCalendarLink, jsonForScript, mapLink, venueAddress, webcal } from './page-format';
import { bcp47, languageName, pageText, PageText } from './page-text';
import { PageView, TemplateName } from './page-view';

export const HTML_TYPE = 'text/html; charset=utf-8';

/**
 * Pages run no script (JSON-LD is data, not a script), load styles and images only, post forms only here, and
 * cannot be framed elsewhere (SPEC §14).
 */
export const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'self'; img-src 'self' https: http: data:; form-action 'self'; base-uri 'none'; frame-ancestors 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

/** Events per page of the lists, and per day of a month grid (a busy day links to its list). */
const PER_PAGE = 20;
const PER_DAY = 3;

/** Month grids kept (`PagesService.monthGrid`): months and languages, the oldest out first. */
const MONTH_GRIDS = 500;

/** What a month page shows that depends on the month and the language only. */
interface MonthGrid {
  /** `YYYY-MM`. */
  month: string;
  title: string;
  /** The grid's first and last instants as wall-clock times of the service's zone (`ends_after`, `starts_before`). */
  start: string;
  end: string;
  days: { iso: string; label: string; weekday: string; inMonth: boolean; monday: boolean; startMs: number; endMs: number }[];
  weekdays: { short: string; long: string }[];
  feed: { start_date: string; end_date: string };
  previous: { month: string; label: string };
  next: { month: string; label: string };
}

/** What the layout of every page needs. */
interface PageModel {
  htmlLang: string;
  title: string;
  description?: string;
  site: string;
  canonical: string;
  alternates: { hreflang: string; href: string }[];
  languages: { hreflang: string; label: string; href: string; current: boolean }[];
  home: string;
  month: string;
  section: 'list' | 'month' | 'event' | 'record';
  feed?: { ics: string; webcal: string };
  og?: Record<string, string>;
  jsonLd?: string;
}

/** An event as the lists print it. */
interface EventItem {
  url: string;
  title: string;
  when: string;
  startIso: string;
  place: string;
  excerpt: string;
}

export interface ListQuery {
  page: number;
  search?: string;
  category?: string;
  tag?: string;
  /** One day (`YYYY-MM-DD`, service time zone): the events on it, past or not (a busy day of the month grid). */
  day?: string;
}

/** Date formats, made once per language and options (making one costs more than using it). */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(locale, options);
    if (formatters.size < 500) formatters.set(key, made);
  }
  return made;
}

/**
 * The public pages of SPEC §14, rendered on the server from the domain services (never through the HTTP API), as
 * an anonymous visitor sees them, in the language of their address.
 */
@Injectable()
export class PagesService {
  private readonly view = new PageView();
  /** The days and weeks of months (no event data: a grid depends on the calendar alone). */
  private readonly grids: BoundedMap<MonthGrid>;

  constructor(
    private readonly events: EventService,
    private readonly grid: EventGrid,
    private readonly venues: VenueService,
    private readonly organizers: OrganizerService,
    private readonly terms: TermService,
    private readonly links: LinkBuilder,
    private readonly config: AppConfig,
    caches: CacheRegistry,
  ) {
    this.grids = caches.bounded('month layouts', MONTH_GRIDS, { unit: 'entries' });
  }

  /** Upcoming events, with search and category and tag filters (`/events/`). */
  async list(context: RequestContext, query: ListQuery): Promise<TextAnswer> {
    const t = pageText(context.language);
    const filters: Record<string, string> = {};
    if (query.search) filters['search'] = query.search;
    if (query.category) filters['category'] = query.category;
    if (query.tag) filters['tag'] = query.tag;
    const window: Partial<ListEventsQueryDto> = {};
    let heading = query.search ? `${t.searchResults} “${query.search}”` : t.upcoming;
    if (query.day !== undefined) {
      const day = DateTime.fromFormat(query.day, 'yyyy-MM-dd', { zone: this.config.timezone.zone });
      if (!day.isValid) throw this.failure(context, ApiException.invalidParams({ day: 'must be a date YYYY-MM-DD' }));
      filters['day'] = query.day;
      Object.assign(window, { strict_dates: true, ends_after: day.toFormat('yyyy-MM-dd HH:mm:ss'), starts_before: day.plus({ days: 1 }).toFormat('yyyy-MM-dd HH:mm:ss') });
      heading = day.setLocale(context.language).toLocaleString(DateTime.DATE_HUGE);
    }
    const result = await this.guard(context, () =>
      this.eventList(context, { page: query.page, search: query.search, categories: query.category ? [query.category] : undefined, tags: query.tag ? [query.tag] : undefined, ...window }),
    );
    const [categories, tags] = await Promise.all([this.termOptions(context, 'category', query.category), this.termOptions(context, 'tag', query.tag)]);
    const feedQuery: Record<string, string> = {
      ...(query.search ? { search: query.search } : {}),
      ...(query.category ? { categories: query.category } : {}),
      ...(query.tag ? { tags: query.tag } : {}),
      ...Object.fromEntries(Object.entries(window).map(([key, value]) => [key, String(value)])),
    };
    return this.page(context, 'list', {
      page: this.layout(context, { title: heading, section: 'list', path: 'events', query: { ...filters, ...(query.page > 1 ? { page: String(query.page) } : {}) }, feed: feedQuery }),
      heading,
      filters: { action: this.links.site(context.origin, context.language, 'events'), search: query.search ?? '', categories, tags },
      events: result.items,
      paging: this.paging(context, 'events', filters, query.page, result.totalPages),
    });
  }

  /**
   * A month as a grid of weeks (`/events/month/` and `/events/month/YYYY-MM/`), days in the service's time zone: the
   * first events of each day, and a link to the rest of a busy day.
   */
  async month(context: RequestContext, month: string | undefined): Promise<TextAnswer> {
    const t = pageText(context.language);
    const zone = this.config.timezone.zone;
    const first = month ? DateTime.fromFormat(month, 'yyyy-MM', { zone }) : DateTime.now().setZone(zone).startOf('month');
    if (!first.isValid || first.year < 1900 || first.year > 2200) throw this.notFound(context);
    const locale = context.language;
    const grid = this.monthGrid(first, locale);
    const placed = await this.grid.days(
      this.eventQuery({ strict_dates: true, ends_after: grid.start, starts_before: grid.end }),
      context,
      grid.days,
      PER_DAY,
    );
    const today = DateTime.now().setZone(zone).toISODate();
    const weeks: object[][] = [];
    for (const day of grid.days) {
      if (day.monday) weeks.push([]);
      const startsOn = (event: { startMs: number }) => event.startMs >= day.startMs && event.startMs < day.endMs;
      const { events, more } = placed.get(day.iso) ?? { events: [], more: 0 };
      weeks[weeks.length - 1].push({
        iso: day.iso,
        label: day.label,
        weekday: day.weekday,
        inMonth: day.inMonth,
        today: day.iso === today,
        // The time on the day an event starts; the days it goes on show its title alone.
        events: events.map((event) => ({
          url: event.url,
          title: event.title,
          time: startsOn(event) ? eventTime(event, locale, event.startMs) : null,
        })),
        more: more > 0 ? { count: more, href: this.address(context, context.language, 'events', { day: day.iso }) } : null,
      });
    }
    const monthLink = (link: MonthGrid['previous']) => ({ href: this.links.site(context.origin, context.language, `events/month/${link.month}`), label: link.label });
    return this.page(context, 'month', {
      page: this.layout(context, { title: grid.title, section: 'month', path: `events/month/${grid.month}`, feed: grid.feed }),
      heading: grid.title,
      previous: monthLink(grid.previous),
      next: monthLink(grid.next),
      weekdays: grid.weekdays,
      weeks,
      t,
    });
  }

  /**
   * What a month page shows that depends on the month and the language only (its days, their names, the titles of
   * the months around it), made once per month and language: dates are the costly part of a page whose events
   * are already kept rendered.
   */
  private monthGrid(first: DateTime, locale: string): MonthGrid {
    const key = `${first.toFormat('yyyy-MM')}|${locale}`;
    const kept = this.grids.get(key);
    if (kept) return kept;
    const next = first.plus({ months: 1 });
    const start = first.minus({ days: first.weekday - 1 });
    const end = next.weekday === 1 ? next : next.plus({ days: 8 - next.weekday });
    // Intl knows IANA zones; a fixed offset (`UTC+5`) is formatted through luxon.
    const label = (options: Intl.DateTimeFormatOptions) => {
      if (this.config.timezone.fixed) return (day: DateTime) => day.setLocale(locale).toLocaleString(options);
      const format = formatter(locale, { ...options, timeZone: this.config.timezone.name });
      return (day: DateTime) => format.format(day.toJSDate());
    };
    const dayNumber = label({ day: 'numeric' });
    const dayName = label({ weekday: 'long', month: 'long', day: 'numeric' });
    const days: MonthGrid['days'] = [];
    for (let day = start; day < end; day = day.plus({ days: 1 })) {
      days.push({
        iso: day.toISODate() as string,
        label: dayNumber(day),
        weekday: dayName(day),
        inMonth: day.month === first.month,
        monday: day.weekday === 1,
        startMs: day.toMillis(),
        endMs: day.plus({ days: 1 }).toMillis(),
      });
    }
    const named = (value: DateTime) => ({ month: value.toFormat('yyyy-MM'), label: value.setLocale(locale).toLocaleString({ month: 'long', year: 'numeric' }) });
    // Every event that overlaps the grid: it ends after the grid begins and starts before it ends.
    const wall = (value: DateTime) => value.toFormat('yyyy-MM-dd HH:mm:ss');
    const grid: MonthGrid = {
      month: first.toFormat('yyyy-MM'),
      title: named(first).label,
      start: wall(start),
      end: wall(end),
      days,
      weekdays: days.slice(0, 7).map((day) => {
        const date = DateTime.fromISO(day.iso, { zone: this.config.timezone.zone }).setLocale(locale);
        return { short: date.toLocaleString({ weekday: 'short' }), long: date.toLocaleString({ weekday: 'long' }) };
      }),
      feed: { start_date: first.toFormat('yyyy-MM-dd'), end_date: next.minus({ days: 1 }).toFormat('yyyy-MM-dd') },
      previous: named(first.minus({ months: 1 })),
      next: named(next),
    };
    this.grids.set(key, grid);
    return grid;
  }

  /** One event (`/event/<slug>/`): a protected one shows its title and dates only. */
  async event(context: RequestContext, slug: string): Promise<TextAnswer> {
    const { event, locked } = await this.guard(context, () => this.events.eventPage(slug, context));
    const locale = context.language;
    const venue = firstVenue(event);
    const description = plainText(event.excerpt || event.description);
    const og: Record<string, string> = { 'og:type': 'website', 'og:title': event.title, 'og:url': event.url, 'og:locale': bcp47(context.language).replace('-', '_') };
    if (!locked && description) og['og:description'] = description.slice(0, 300);
    if (!locked && event.image) og['og:image'] = event.image.url;
    return this.page(context, 'event', {
      page: this.layout(context, {
        title: event.title,
        description: locked ? undefined : description.slice(0, 300) || undefined,
        section: 'event',
        record: { kind: 'event', slug: event.slug, translations: event.translations },
        og,
        jsonLd: !locked && event.json_ld ? jsonForScript(event.json_ld) : undefined,
      }),
      locked,
      event: {
        title: event.title,
        when: eventWhen(event, locale),
        startIso: eventStartIso(event),
        image: event.image ? event.image.url : null,
        venue: venue ? { name: venue.venue, url: venue.url, address: venueAddress(venue), map: mapLink(venue) } : null,
        organizers: event.organizer.map((organizer) => ({ name: organizer.organizer, url: organizer.url })),
        cost: event.cost,
        categories: event.categories.map((term) => ({ name: term.name, url: term.url })),
        tags: event.tags.map((term) => ({ name: term.name, url: term.url })),
        website: event.website,
        description: event.description,
        ics: this.links.rest(context.origin, context.language, `events/${event.id}/ics`),
        google: googleCalendarLink(event),
      },
    });
  }

  /** A venue with its upcoming events (`/venue/<slug>/`). */
  async venue(context: RequestContext, slug: string, page: number): Promise<TextAnswer> {
    const t = pageText(context.language);
    const venue: VenueResponse = await this.guard(context, () => this.venues.get({ slug }, context));
    const facts = [
      { label: t.address, value: venueAddress(venue) },
      ...(mapLink(venue) ? [{ label: t.map, value: `${venue.geo_lat}, ${venue.geo_lng}`, href: mapLink(venue) as string }] : []),
      { label: t.phone, value: venue.phone },
      { label: t.website, value: venue.website, href: venue.website },
    ].filter((fact) => fact.value);
    return this.recordPage(context, { kind: 'venue', name: venue.venue, slug: venue.slug, url: venue.url, description: venue.description, translations: venue.translations, jsonLd: venue.json_ld, facts }, page, { venue: [venue.id] });
  }

  /** An organizer with their upcoming events (`/organizer/<slug>/`). */
  async organizer(context: RequestContext, slug: string, page: number): Promise<TextAnswer> {
    const t = pageText(context.language);
    const organizer: OrganizerResponse = await this.guard(context, () => this.organizers.get({ slug }, context));
    const facts = [
      { label: t.phone, value: organizer.phone },
      { label: t.email, value: organizer.email, href: organizer.email ? `mailto:${organizer.email}` : undefined },
      { label: t.website, value: organizer.website, href: organizer.website },
    ].filter((fact) => fact.value);
    return this.recordPage(
      context,
      { kind: 'organizer', name: organizer.organizer, slug: organizer.slug, url: organizer.url, description: organizer.description, translations: organizer.translations, jsonLd: organizer.json_ld, facts },
      page,
      { organizer: [organizer.id] },
    );
  }

  /** A category's or tag's archive: its upcoming events (`/events/category/<slug>/`, `/events/tag/<slug>/`). */
  async archive(context: RequestContext, taxonomy: Taxonomy, slug: string, page: number): Promise<TextAnswer> {
    const query = Object.assign(taxonomy === 'category' ? new ListCategoriesQueryDto() : new ListTagsQueryDto(), { page: 1, per_page: 1, slug: [slug] });
    const [term] = (await this.terms.list(taxonomy, query, context)).items;
    if (!term) throw this.notFound(context);
    const key = taxonomy === 'category' ? 'categories' : 'tags';
    const result = await this.guard(context, () => this.eventList(context, { page, [key]: [term.id] }));
    const path = `events/${taxonomy}/${term.slug}`;
    return this.page(context, 'list', {
      page: this.layout(context, {
        title: term.name,
        description: plainText(term.description).slice(0, 300) || undefined,
        section: 'list',
        path,
        query: page > 1 ? { page: String(page) } : {},
        termTranslations: term.translations,
        feed: { [key]: String(term.id) },
      }),
      heading: term.name,
      intro: term.description,
      events: result.items,
      paging: this.paging(context, path, {}, page, result.totalPages),
    });
  }

  /** The HTML 404 page (unknown slugs and addresses of the pages). */
  notFound(context: RequestContext): HtmlErrorAnswer {
    const t = pageText(context.language);
    const html = this.view.render('error', { t, page: this.layout(context, { title: t.notFound, section: 'list', path: 'events' }), heading: t.notFound, message: t.notFoundText });
    return new HtmlErrorAnswer(404, html, PAGE_HEADERS);
  }

  /** Runs a read of the page: what the API answers 404 or 403 (not visible to anonymous readers) is the 404 page. */
  private async guard<T>(context: RequestContext, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      throw this.failure(context, error);
    }
  }

  private failure(context: RequestContext, error: unknown): unknown {
    if (error instanceof RecordException && (error.status === 404 || error.status === 403)) return this.notFound(context);
    if (error instanceof ApiException && error.status === 400) {
      const t = pageText(context.language);
      const params = error.data['params'];
      const message = params && typeof params === 'object' && !Array.isArray(params) ? Object.entries(params).map(([name, rule]) => `${name}: ${String(rule)}`).join('; ') : '';
      const html = this.view.render('error', { t, page: this.layout(context, { title: t.badRequest, section: 'list', path: 'events' }), heading: t.badRequest, message: message || error.message });
      return new HtmlErrorAnswer(400, html, PAGE_HEADERS);
    }
    return error;
  }

  private async recordPage(
    context: RequestContext,
    record: { kind: 'venue' | 'organizer'; name: string; slug: string; url: string; description: string; translations: Record<string, { slug: string }>; jsonLd?: Record<string, unknown>; facts: { label: string; value: string; href?: string }[] },
    page: number,
    filter: Partial<ListEventsQueryDto>,
  ): Promise<TextAnswer> {
    const result = await this.guard(context, () => this.eventList(context, { page, ...filter }));
    return this.page(context, 'record', {
      page: this.layout(context, {
        title: record.name,
        description: plainText(record.description).slice(0, 300) || undefined,
        section: 'record',
        record: { kind: record.kind, slug: record.slug, translations: record.translations },
        og: { 'og:type': 'website', 'og:title': record.name, 'og:url': record.url },
        jsonLd: record.jsonLd ? jsonForScript(record.jsonLd) : undefined,
        feed: Object.fromEntries(Object.entries(filter).map(([key, value]) => [key, String(value)])),
      }),
      record,
      events: result.items,
    });
  }

  /** A page of upcoming events as the lists print them. */
  private async eventList(context: RequestContext, query: Partial<ListEventsQueryDto>): Promise<{ items: EventItem[]; totalPages: number }> {
    const result = await this.events.listModels(this.eventQuery({ per_page: PER_PAGE, ...query }), context);
    const locale = context.language;
    const items = result.items.map((event) => {
      const venue = firstVenue(event);
      return {
        url: event.url,
        title: event.title,
        when: eventWhen(event, locale),
        startIso: eventStartIso(event),
        place: venue ? [venue.venue, venue.city].filter(Boolean).join(', ') : '',
        excerpt: event.excerpt,
      };
    });
    return { items, totalPages: result.totalPages };
  }

  private eventQuery(values: Partial<ListEventsQueryDto>): ListEventsQueryDto {
    return Object.assign(new ListEventsQueryDto(), values);
  }

  /** A taxonomy's terms that have events, for the list's filter, with the one chosen marked. */
  private async termOptions(context: RequestContext, taxonomy: Taxonomy, chosen: string | undefined): Promise<{ slug: string; name: string; selected: boolean }[]> {
    const query = Object.assign(taxonomy === 'category' ? new ListCategoriesQueryDto() : new ListTagsQueryDto(), { page: 1, per_page: 100, hide_empty: true });
    const terms: TermResponse[] = (await this.terms.list(taxonomy, query, context)).items;
    return terms.map((term) => ({ slug: term.slug, name: term.name, selected: term.slug === chosen }));
  }

  private paging(context: RequestContext, path: string, filters: Record<string, string>, page: number, totalPages: number) {
    const t = pageText(context.language);
    const at = (number: number) => this.address(context, context.language, path, { ...filters, ...(number > 1 ? { page: String(number) } : {}) });
    return { previous: page > 1 ? at(page - 1) : null, next: page < totalPages ? at(page + 1) : null, label: `${t.page} ${page} / ${Math.max(1, totalPages)}` };
  }

  /** A page's address in a language, with its query. */
  private address(context: RequestContext, language: string, path: string, query: Record<string, string> = {}): string {
    const search = new URLSearchParams(query).toString();
    return `${this.links.site(context.origin, language, path)}${search ? `?${search}` : ''}`;
  }

  /**
   * What the layout needs: the page's address in every language (a record's or term's own slug in each, where it
   * has one), the language switcher, the feed of what the page shows.
   */
  private layout(
    context: RequestContext,
    options: {
      title: string;
      description?: string;
      section: PageModel['section'];
      path?: string;
      query?: Record<string, string>;
      record?: { kind: string; slug: string; translations: Record<string, { slug: string }> };
      termTranslations?: Record<string, { slug: string }>;
      feed?: Record<string, string>;
      og?: Record<string, string>;
      jsonLd?: string;
    },
  ): PageModel {
    const pathIn = (language: string): string => {
      if (options.record) return `${options.record.kind}/${options.record.translations[language]?.slug ?? options.record.slug}`;
      if (options.termTranslations && options.path) {
        const [base, taxonomy] = options.path.split('/');
        return `${base}/${taxonomy}/${options.termTranslations[language]?.slug ?? options.path.split('/')[2]}`;
      }
      return options.path ?? 'events';
    };
    const hrefIn = (language: string) => this.address(context, language, pathIn(language), options.query);
    const languages = this.config.languages;
    return {
      htmlLang: bcp47(context.language),
      title: options.title,
      description: options.description,
      site: this.config.siteName ?? this.links.siteHost(context.origin),
      canonical: hrefIn(context.language),
      alternates: [...languages.map((language) => ({ hreflang: bcp47(language), href: hrefIn(language) })), { hreflang: 'x-default', href: hrefIn(this.config.defaultLanguage) }],
      languages: languages.map((language) => ({ hreflang: bcp47(language), label: languageName(language), href: hrefIn(language), current: language === context.language })),
      home: this.links.site(context.origin, context.language, 'events'),
      month: this.links.site(context.origin, context.language, 'events/month'),
      section: options.section,
      feed: options.feed ? this.feed(context, options.feed) : undefined,
      og: options.og,
      jsonLd: options.jsonLd,
    };
  }

  private feed(context: RequestContext, query: Record<string, string>): { ics: string; webcal: string } {
    const ics = this.links.rest(context.origin, context.language, 'events/ics', query);
    return { ics, webcal: webcal(ics) };
  }

  private page(context: RequestContext, template: TemplateName, model: { page: PageModel; t?: PageText } & Record<string, unknown>): TextAnswer {
    const html = this.view.render(template, { t: pageText(context.language), ...model });
    return new TextAnswer(html, HTML_TYPE, PAGE_HEADERS);
  }
}
