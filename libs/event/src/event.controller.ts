import { Idempotent } from '@calendar/shared/database';
import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Patch, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { Context, RequestContext } from '@calendar/i18n';
import { RequiresLogin } from '@calendar/shared/auth';
import { ApiAnswers, ID_SEGMENT, NAMESPACE, Preconditions, WritePrecondition } from '@calendar/shared/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateEventDto, EventItemDto, EventSlugItemDto, ListEventsQueryDto, SyncEventsQueryDto, UpdateEventByIdDto, UpdateEventDto } from './dto/event.dto';
import { EventResponse } from './dto/event.mapper';
import { EventService } from './event.service';

const ID = ApiParam({ name: 'id', type: 'integer', description: 'Event id' });
const SLUG = ApiParam({ name: 'slug', type: 'string', description: 'Event slug, in any language' });
const BY_SLUG = 'by-slug/:slug';

@ApiTags('events')
@Controller(`${NAMESPACE}/events`)
export class EventController {
  constructor(private readonly events: EventService) {}

  @Get()
  @ApiAnswers(EventResponse, { list: 'events', errors: [404] })
  list(@Query() query: ListEventsQueryDto, @Context() context: RequestContext) {
    return this.events.listEvents(query, context);
  }

  @Get('sync')
  @ApiAnswers(EventResponse, { sync: 'events', errors: [410], description: 'A page of a sync of events: current objects and tombstones (SPEC §16.2)' })
  sync(@Query() query: SyncEventsQueryDto, @Req() request: FastifyRequest, @Context() context: RequestContext) {
    return this.events.sync(query, request.query as Record<string, unknown>, context);
  }

  @Post()
  @ApiAnswers(EventResponse, { status: 201, write: true, etag: true, errors: [403, 409, 413, 415, 422], description: 'The created event' })
  @RequiresLogin()
  @Idempotent()
  @HttpCode(201)
  async create(@Body() body: CreateEventDto, @Context() context: RequestContext, @Res({ passthrough: true }) reply: FastifyReply) {
    const { answer, location } = await this.events.create(body, context);
    reply.header('Location', location);
    return answer;
  }

  @Get(ID_SEGMENT)
  @ApiAnswers(EventResponse, { errors: [403, 404] })
  @ID
  get(@Param('id', ParseIntPipe) id: number, @Query() query: EventItemDto, @Context() context: RequestContext) {
    return this.events.getEvent({ id }, context, query.password);
  }

  @Post(ID_SEGMENT)
  @ApiAnswers(EventResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The event as written' })
  @RequiresLogin()
  @HttpCode(200)
  @ID
  updateByPost(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateEventByIdDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.events.update({ id }, body, context, precondition);
  }

  @Put(ID_SEGMENT)
  @ApiAnswers(EventResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The event as written' })
  @RequiresLogin()
  @ID
  updateByPut(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateEventByIdDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.events.update({ id }, body, context, precondition);
  }

  @Patch(ID_SEGMENT)
  @ApiAnswers(EventResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The event as written' })
  @RequiresLogin()
  @ID
  updateByPatch(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateEventByIdDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.events.update({ id }, body, context, precondition);
  }

  @Delete(ID_SEGMENT)
  @ApiAnswers(EventResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 410, 412], description: 'The event as it is now' })
  @RequiresLogin()
  @ID
  remove(@Param('id', ParseIntPipe) id: number, @Query() _query: EventItemDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.events.remove({ id }, context, precondition);
  }

  @Get(BY_SLUG)
  @ApiAnswers(EventResponse, { errors: [403, 404] })
  @SLUG
  getBySlug(@Param('slug') slug: string, @Query() query: EventItemDto, @Context() context: RequestContext) {
    return this.events.getEvent({ slug }, context, query.password);
  }

  @Post(BY_SLUG)
  @ApiAnswers(EventResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The event as written' })
  @RequiresLogin()
  @HttpCode(200)
  @SLUG
  updateBySlugByPost(@Param('slug') slug: string, @Body() body: UpdateEventDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.events.update({ slug }, body, context, precondition);
  }

  @Put(BY_SLUG)
  @ApiAnswers(EventResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The event as written' })
  @RequiresLogin()
  @SLUG
  updateBySlugByPut(@Param('slug') slug: string, @Body() body: UpdateEventDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.events.update({ slug }, body, context, precondition);
  }

  @Patch(BY_SLUG)
  @ApiAnswers(EventResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The event as written' })
  @RequiresLogin()
  @SLUG
  updateBySlugByPatch(@Param('slug') slug: string, @Body() body: UpdateEventDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.events.update({ slug }, body, context, precondition);
  }

  @Delete(BY_SLUG)
  @ApiAnswers(EventResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 410, 412], description: 'The event as it is now' })
  @RequiresLogin()
  @SLUG
  removeBySlug(@Param('slug') slug: string, @Query() _query: EventSlugItemDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.events.remove({ slug }, context, precondition);
  }
}
