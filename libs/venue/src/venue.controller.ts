import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { Context, RequestContext } from '@calendar/i18n';
import { RecordItemDto } from '@calendar/records';
import { RequiresLogin } from '@calendar/shared/auth';
import { ID_SEGMENT, NAMESPACE } from '@calendar/shared/http';
import type { FastifyReply } from 'fastify';
import { CreateVenueDto, ListVenuesQueryDto, UpdateVenueDto } from './dto/venue.dto';
import { VenueResponse } from './dto/venue.mapper';
import { VenueService } from './venue.service';

const ID = ApiParam({ name: 'id', type: 'integer', description: 'Venue id' });
const SLUG = ApiParam({ name: 'slug', type: 'string', description: 'Venue slug, in any language' });
const BY_SLUG = 'by-slug/:slug';

@ApiTags('venues')
@Controller(`${NAMESPACE}/venues`)
export class VenueController {
  constructor(private readonly venues: VenueService) {}

  @Get()
  list(@Query() query: ListVenuesQueryDto, @Context() context: RequestContext) {
    return this.venues.list(query, context);
  }

  @Post()
  @RequiresLogin()
  @HttpCode(201)
  async create(@Body() body: CreateVenueDto, @Context() context: RequestContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<VenueResponse> {
    const venue = await this.venues.create(body, context);
    reply.header('Location', venue.rest_url);
    return venue;
  }

  @Get(ID_SEGMENT)
  @ID
  get(@Param('id', ParseIntPipe) id: number, @Query() _query: RecordItemDto, @Context() context: RequestContext) {
    return this.venues.get({ id }, context);
  }

  @Post(ID_SEGMENT)
  @RequiresLogin()
  @HttpCode(200)
  @ID
  updateByPost(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateVenueDto, @Context() context: RequestContext) {
    return this.venues.update({ id }, body, context);
  }

  @Put(ID_SEGMENT)
  @RequiresLogin()
  @ID
  updateByPut(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateVenueDto, @Context() context: RequestContext) {
    return this.venues.update({ id }, body, context);
  }

  @Patch(ID_SEGMENT)
  @RequiresLogin()
  @ID
  updateByPatch(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateVenueDto, @Context() context: RequestContext) {
    return this.venues.update({ id }, body, context);
  }

  @Delete(ID_SEGMENT)
  @RequiresLogin()
  @ID
  remove(@Param('id', ParseIntPipe) id: number, @Query() _query: RecordItemDto, @Context() context: RequestContext) {
    return this.venues.remove({ id }, context);
  }

  @Get(BY_SLUG)
  @SLUG
  getBySlug(@Param('slug') slug: string, @Query() _query: RecordItemDto, @Context() context: RequestContext) {
    return this.venues.get({ slug }, context);
  }

  @Post(BY_SLUG)
  @RequiresLogin()
  @HttpCode(200)
  @SLUG
  updateBySlugByPost(@Param('slug') slug: string, @Body() body: UpdateVenueDto, @Context() context: RequestContext) {
    return this.venues.update({ slug }, body, context);
  }

  @Put(BY_SLUG)
  @RequiresLogin()
  @SLUG
  updateBySlugByPut(@Param('slug') slug: string, @Body() body: UpdateVenueDto, @Context() context: RequestContext) {
    return this.venues.update({ slug }, body, context);
  }

  @Patch(BY_SLUG)
  @RequiresLogin()
  @SLUG
  updateBySlugByPatch(@Param('slug') slug: string, @Body() body: UpdateVenueDto, @Context() context: RequestContext) {
    return this.venues.update({ slug }, body, context);
  }

  @Delete(BY_SLUG)
  @RequiresLogin()
  @SLUG
  removeBySlug(@Param('slug') slug: string, @Query() _query: RecordItemDto, @Context() context: RequestContext) {
    return this.venues.remove({ slug }, context);
  }
}
