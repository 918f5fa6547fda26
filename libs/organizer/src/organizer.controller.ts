import { Idempotent } from '@calendar/shared/database';
import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Patch, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { Context, RequestContext } from '@calendar/i18n';
import { RecordItemDto, SyncRecordsQueryDto } from '@calendar/records';
import { RequiresLogin } from '@calendar/shared/auth';
import { ApiAnswers, ID_SEGMENT, NAMESPACE, Preconditions, WritePrecondition } from '@calendar/shared/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateOrganizerDto, ListOrganizersQueryDto, UpdateOrganizerDto } from './dto/organizer.dto';
import { OrganizerResponse } from './dto/organizer.mapper';
import { OrganizerService } from './organizer.service';

const ID = ApiParam({ name: 'id', type: 'integer', description: 'Organizer id' });
const SLUG = ApiParam({ name: 'slug', type: 'string', description: 'Organizer slug, in any language' });
const BY_SLUG = 'by-slug/:slug';

/** `/organizers`: list, create, and read, update and trash by id and by slug (SPEC §5). */
@ApiTags('organizers')
@Controller(`${NAMESPACE}/organizers`)
export class OrganizerController {
  constructor(private readonly organizers: OrganizerService) {}

  @Get()
  @ApiAnswers(OrganizerResponse, { list: 'organizers', errors: [404], description: 'A page of organizers' })
  list(@Query() query: ListOrganizersQueryDto, @Context() context: RequestContext) {
    return this.organizers.list(query, context);
  }

  @Get('sync')
  @ApiAnswers(OrganizerResponse, { sync: 'organizers', errors: [410], description: 'A page of a sync of organizers: current objects and tombstones (SPEC §16.2)' })
  sync(@Query() query: SyncRecordsQueryDto, @Req() request: FastifyRequest, @Context() context: RequestContext) {
    return this.organizers.sync(query, request.query as Record<string, unknown>, context);
  }

  @Post()
  @ApiAnswers(OrganizerResponse, { status: 201, write: true, etag: true, errors: [403, 409, 413, 415, 422], description: 'The created organizer' })
  @RequiresLogin()
  @Idempotent()
  @HttpCode(201)
  async create(@Body() body: CreateOrganizerDto, @Context() context: RequestContext, @Res({ passthrough: true }) reply: FastifyReply) {
    const organizer = await this.organizers.create(body, context);
    reply.header('Location', organizer.rest_url);
    return organizer;
  }

  @Get(ID_SEGMENT)
  @ApiAnswers(OrganizerResponse, { errors: [403, 404] })
  @ID
  get(@Param('id', ParseIntPipe) id: number, @Query() _query: RecordItemDto, @Context() context: RequestContext) {
    return this.organizers.get({ id }, context);
  }

  @Post(ID_SEGMENT)
  @ApiAnswers(OrganizerResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The organizer as written' })
  @RequiresLogin()
  @HttpCode(200)
  @ID
  updateByPost(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateOrganizerDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.organizers.update({ id }, body, context, precondition);
  }

  @Put(ID_SEGMENT)
  @ApiAnswers(OrganizerResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The organizer as written' })
  @RequiresLogin()
  @ID
  updateByPut(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateOrganizerDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.organizers.update({ id }, body, context, precondition);
  }

  @Patch(ID_SEGMENT)
  @ApiAnswers(OrganizerResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The organizer as written' })
  @RequiresLogin()
  @ID
  updateByPatch(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateOrganizerDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.organizers.update({ id }, body, context, precondition);
  }

  @Delete(ID_SEGMENT)
  @ApiAnswers(OrganizerResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 410, 412], description: 'The organizer as it is now' })
  @RequiresLogin()
  @ID
  remove(@Param('id', ParseIntPipe) id: number, @Query() _query: RecordItemDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.organizers.remove({ id }, context, precondition);
  }

  @Get(BY_SLUG)
  @ApiAnswers(OrganizerResponse, { errors: [403, 404] })
  @SLUG
  getBySlug(@Param('slug') slug: string, @Query() _query: RecordItemDto, @Context() context: RequestContext) {
    return this.organizers.get({ slug }, context);
  }

  @Post(BY_SLUG)
  @ApiAnswers(OrganizerResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The organizer as written' })
  @RequiresLogin()
  @HttpCode(200)
  @SLUG
  updateBySlugByPost(@Param('slug') slug: string, @Body() body: UpdateOrganizerDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.organizers.update({ slug }, body, context, precondition);
  }

  @Put(BY_SLUG)
  @ApiAnswers(OrganizerResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The organizer as written' })
  @RequiresLogin()
  @SLUG
  updateBySlugByPut(@Param('slug') slug: string, @Body() body: UpdateOrganizerDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.organizers.update({ slug }, body, context, precondition);
  }

  @Patch(BY_SLUG)
  @ApiAnswers(OrganizerResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The organizer as written' })
  @RequiresLogin()
  @SLUG
  updateBySlugByPatch(@Param('slug') slug: string, @Body() body: UpdateOrganizerDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.organizers.update({ slug }, body, context, precondition);
  }

  @Delete(BY_SLUG)
  @ApiAnswers(OrganizerResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 410, 412], description: 'The organizer as it is now' })
  @RequiresLogin()
  @SLUG
  removeBySlug(@Param('slug') slug: string, @Query() _query: RecordItemDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.organizers.remove({ slug }, context, precondition);
  }
}
