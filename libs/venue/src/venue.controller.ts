import { Idempotent } from '@calendar/shared/database';
import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Patch, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { Context, RequestContext } from '@calendar/i18n';
import { RecordItemDto, SyncRecordsQueryDto } from '@calendar/records';
import { RequiresLogin } from '@calendar/shared/auth';
import { ApiAnswers, ID_SEGMENT, NAMESPACE, Preconditions, WritePrecondition } from '@calendar/shared/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateVenueDto, ListVenuesQueryDto, UpdateVenueDto } from './dto/venue.dto';
import { VenueResponse } from './dto/venue.mapper';
import { VenueService } from './venue.service';

const ID = ApiParam({ name: 'id', type: 'integer', description: 'Venue id' });
const SLUG = ApiParam({ name: 'slug', type: 'string', description: 'Venue slug, in any language' });
const BY_SLUG = 'by-slug/:slug';

/** `/venues`: list, create, and read, update and trash by id and by slug (SPEC §5). */
@ApiTags('venues')
@Controller(`${NAMESPACE}/venues`)
export class VenueController {
  constructor(private readonly venues: VenueService) {}

  @Get()
  @ApiAnswers(VenueResponse, { list: 'venues', errors: [404], description: 'A page of venues' })
  list(@Query() query: ListVenuesQueryDto, @Context() context: RequestContext) {
    return this.venues.list(query, context);
  }

  @Get('sync')
  @ApiAnswers(VenueResponse, { sync: 'venues', errors: [410], description: 'A page of a sync of venues: current objects and tombstones (SPEC §16.2)' })
  sync(@Query() query: SyncRecordsQueryDto, @Req() request: FastifyRequest, @Context() context: RequestContext) {
    return this.venues.sync(query, request.query as Record<string, unknown>, context);
  }

  @Post()
  @ApiAnswers(VenueResponse, { status: 201, write: true, etag: true, errors: [403, 409, 413, 415, 422], description: 'The created venue' })
  @RequiresLogin()
  @Idempotent()
  @HttpCode(201)
  async create(@Body() body: CreateVenueDto, @Context() context: RequestContext, @Res({ passthrough: true }) reply: FastifyReply) {
    const venue = await this.venues.create(body, context);
    reply.header('Location', venue.rest_url);
    return venue;
  }

  @Get(ID_SEGMENT)
  @ApiAnswers(VenueResponse, { errors: [403, 404] })
  @ID
  get(@Param('id', ParseIntPipe) id: number, @Query() _query: RecordItemDto, @Context() context: RequestContext) {
    return this.venues.get({ id }, context);
  }

  @Post(ID_SEGMENT)
  @ApiAnswers(VenueResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The venue as written' })
  @RequiresLogin()
  @HttpCode(200)
  @ID
  updateByPost(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateVenueDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.venues.update({ id }, body, context, precondition);
  }

  @Put(ID_SEGMENT)
  @ApiAnswers(VenueResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The venue as written' })
  @RequiresLogin()
  @ID
  updateByPut(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateVenueDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.venues.update({ id }, body, context, precondition);
  }

  @Patch(ID_SEGMENT)
  @ApiAnswers(VenueResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The venue as written' })
  @RequiresLogin()
  @ID
  updateByPatch(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateVenueDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.venues.update({ id }, body, context, precondition);
  }

  @Delete(ID_SEGMENT)
  @ApiAnswers(VenueResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 410, 412], description: 'The venue as it is now' })
  @RequiresLogin()
  @ID
  remove(@Param('id', ParseIntPipe) id: number, @Query() _query: RecordItemDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.venues.remove({ id }, context, precondition);
  }

  @Get(BY_SLUG)
  @ApiAnswers(VenueResponse, { errors: [403, 404] })
  @SLUG
  getBySlug(@Param('slug') slug: string, @Query() _query: RecordItemDto, @Context() context: RequestContext) {
    return this.venues.get({ slug }, context);
  }

  @Post(BY_SLUG)
  @ApiAnswers(VenueResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The venue as written' })
  @RequiresLogin()
  @HttpCode(200)
  @SLUG
  updateBySlugByPost(@Param('slug') slug: string, @Body() body: UpdateVenueDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.venues.update({ slug }, body, context, precondition);
  }

  @Put(BY_SLUG)
  @ApiAnswers(VenueResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The venue as written' })
  @RequiresLogin()
  @SLUG
  updateBySlugByPut(@Param('slug') slug: string, @Body() body: UpdateVenueDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.venues.update({ slug }, body, context, precondition);
  }

  @Patch(BY_SLUG)
  @ApiAnswers(VenueResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The venue as written' })
  @RequiresLogin()
  @SLUG
  updateBySlugByPatch(@Param('slug') slug: string, @Body() body: UpdateVenueDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.venues.update({ slug }, body, context, precondition);
  }

  @Delete(BY_SLUG)
  @ApiAnswers(VenueResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 410, 412], description: 'The venue as it is now' })
  @RequiresLogin()
  @SLUG
  removeBySlug(@Param('slug') slug: string, @Query() _query: RecordItemDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.venues.remove({ slug }, context, precondition);
  }
}
