import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Context, RequestContext } from '@calendar/i18n';
import { TextAnswer } from '@calendar/shared/http';
import calendarCss from './calendar.css';
import { PagesService } from './pages.service';

/** The routes of the public pages (SPEC §14), outside the API root; each also under `/<lang>`. */
export const PAGE_PATHS = [
  'events',
  'events/month',
  'events/month/:month',
  'event/:slug',
  'venue/:slug',
  'organizer/:slug',
  'events/category/:slug',
  'events/tag/:slug',
  'assets/calendar.css',
];

/** A page number from the query: a positive integer, else the first page. */
function pageNumber(value: unknown): number {
  const number = typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : 1;
  return number >= 1 ? number : 1;
}

/** A text filter from the query: a trimmed string of at most 200 characters, or nothing. */
function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim().slice(0, 200);
  return trimmed === '' ? undefined : trimmed;
}

/**
 * Public pages: HTML for people, made by the domain services as anonymous reads (a token sent along changes
 * nothing), cached and validated like every GET. Not part of the API description.
 */
@ApiExcludeController()
@Controller()
export class PagesController {
  constructor(private readonly pages: PagesService) {}

  @Get('events')
  list(@Query() query: Record<string, unknown>, @Context() context: RequestContext): Promise<TextAnswer> {
    return this.pages.list(this.anonymous(context), { page: pageNumber(query['page']), search: text(query['search']), category: text(query['category']), tag: text(query['tag']), day: text(query['day']) });
  }

  @Get('events/month')
  thisMonth(@Context() context: RequestContext): Promise<TextAnswer> {
    return this.pages.month(this.anonymous(context), undefined);
  }

  @Get('events/month/:month')
  month(@Param('month') month: string, @Context() context: RequestContext): Promise<TextAnswer> {
    if (!/^\d{4}-\d{2}$/.test(month)) throw this.pages.notFound(this.anonymous(context));
    return this.pages.month(this.anonymous(context), month);
  }

  @Get('event/:slug')
  event(@Param('slug') slug: string, @Context() context: RequestContext): Promise<TextAnswer> {
    return this.pages.event(this.anonymous(context), slug);
  }

  @Get('venue/:slug')
  venue(@Param('slug') slug: string, @Query() query: Record<string, unknown>, @Context() context: RequestContext): Promise<TextAnswer> {
    return this.pages.venue(this.anonymous(context), slug, pageNumber(query['page']));
  }

  @Get('organizer/:slug')
  organizer(@Param('slug') slug: string, @Query() query: Record<string, unknown>, @Context() context: RequestContext): Promise<TextAnswer> {
    return this.pages.organizer(this.anonymous(context), slug, pageNumber(query['page']));
  }

  @Get('events/category/:slug')
  category(@Param('slug') slug: string, @Query() query: Record<string, unknown>, @Context() context: RequestContext): Promise<TextAnswer> {
    return this.pages.archive(this.anonymous(context), 'category', slug, pageNumber(query['page']));
  }

  @Get('events/tag/:slug')
  tag(@Param('slug') slug: string, @Query() query: Record<string, unknown>, @Context() context: RequestContext): Promise<TextAnswer> {
    return this.pages.archive(this.anonymous(context), 'tag', slug, pageNumber(query['page']));
  }

  @Get('assets/calendar.css')
  stylesheet(): TextAnswer {
    return new TextAnswer(calendarCss, 'text/css; charset=utf-8', { 'cache-control': 'public, max-age=3600' });
  }

  /** Pages show what anyone may see, whoever asks. */
  private anonymous(context: RequestContext): RequestContext {
    return { ...context, caller: null };
  }
}
