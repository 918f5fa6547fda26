import { Injectable } from '@nestjs/common';
import { RequestContext } from '@calendar/i18n';
import { RecordTarget } from '@calendar/records';
import { AppConfig } from '@calendar/shared/config';
import { applyListHeaders, TextAnswer } from '@calendar/shared/http';
import type { FastifyReply } from 'fastify';
import { ListEventsFeedQueryDto } from '../dto/event.dto';
import { EventService } from '../event.service';
import { EventFeeds } from '../read/event-feeds';
import { calendarText, feedItem, seriesItems } from './event-calendar';

export const CALENDAR_TYPE = 'text/calendar; charset=utf-8';

/** `inline`, with an ASCII file name and the UTF-8 one (RFC 6266) when they differ. */
function disposition(name: string, fallback: string): string {
  const ascii = /^[\x20-\x7e]+$/.test(name) && !/["\\]/.test(name);
  return ascii ? `inline; filename="${name}.ics"` : `inline; filename="${fallback}.ics"; filename*=UTF-8''${encodeURIComponent(name)}.ics`;
}

/**
 * The iCalendar feeds of SPEC §12: the events of a list, or one event, as a calendar. The events are the list's and
 * the single read's own answers (same filters, visibility, access rules, language and paging), written as VEVENTs.
 */
@Injectable()
export class EventFeedService {
  constructor(
    private readonly events: EventService,
    private readonly feeds: EventFeeds,
    private readonly config: AppConfig,
  ) {}

  async list(query: ListEventsFeedQueryDto, context: RequestContext, reply: FastifyReply): Promise<TextAnswer> {
    const result = await this.feeds.list(query, context);
    applyListHeaders(reply, result);
    const name = await this.feeds.name(query, context);
    return this.answer(calendarText(result.items, { name, timezone: this.config.timezone.name }), 'events', 'events');
  }

  async single(target: RecordTarget, context: RequestContext, password: string | undefined): Promise<TextAnswer> {
    const event = await this.events.eventModel(target, context, password);
    const name = await this.feeds.name({}, context);
    // An event of a series gives the whole series (SPEC §13).
    const series = await this.feeds.series(event, context, password);
    const items = series ? seriesItems(series) : [feedItem(event, false)];
    return this.answer(calendarText(items, { name, timezone: this.config.timezone.name }), event.slug, `event-${event.id}`);
  }

  private answer(text: string, fileName: string, fallback: string): TextAnswer {
    return new TextAnswer(text, CALENDAR_TYPE, { 'content-disposition': disposition(fileName, fallback) });
  }
}
