import { Controller, Get, Param, ParseIntPipe, Query, Res } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { Context, RequestContext } from '@calendar/i18n';
import { ApiAnswers, ID_SEGMENT, NAMESPACE, TextAnswer } from '@calendar/shared/http';
import type { FastifyReply } from 'fastify';
import { EventItemDto, ListEventsFeedQueryDto } from '../dto/event.dto';
import { EventFeedService } from './event-feed.service';

/** The body of a feed: an iCalendar stream (RFC 5545). */
const CALENDAR = { schema: { type: 'string', description: 'An iCalendar stream (RFC 5545)' }, type: 'text/calendar' };

/** iCalendar feeds of events (SPEC §12). */
@ApiTags('events')
@Controller(`${NAMESPACE}/events`)
export class EventFeedController {
  constructor(private readonly feeds: EventFeedService) {}

  @Get('ics')
  @ApiAnswers(CALENDAR, { list: 'events', errors: [404], description: 'The events of the equivalent list, as a calendar (one VEVENT each, in list order)' })
  list(@Query() query: ListEventsFeedQueryDto, @Context() context: RequestContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<TextAnswer> {
    return this.feeds.list(query, context, reply);
  }

  @Get(`${ID_SEGMENT}/ics`)
  @ApiAnswers(CALENDAR, { errors: [403, 404], description: 'The event as a calendar' })
  @ApiParam({ name: 'id', type: 'integer', description: 'Event id' })
  get(@Param('id', ParseIntPipe) id: number, @Query() query: EventItemDto, @Context() context: RequestContext): Promise<TextAnswer> {
    return this.feeds.single({ id }, context, query.password);
  }

  @Get('by-slug/:slug/ics')
  @ApiAnswers(CALENDAR, { errors: [403, 404], description: 'The event as a calendar' })
  @ApiParam({ name: 'slug', type: 'string', description: 'Event slug, in any language' })
  getBySlug(@Param('slug') slug: string, @Query() query: EventItemDto, @Context() context: RequestContext): Promise<TextAnswer> {
    return this.feeds.single({ slug }, context, query.password);
  }
}
