import { Idempotent } from '@calendar/shared/database';
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, ParseIntPipe, Patch, Post, Put, Query, Res, Type } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { Context, RequestContext } from '@calendar/i18n';
import { RequiresLogin } from '@calendar/shared/auth';
import { ApiAnswers, ID_SEGMENT, NAMESPACE } from '@calendar/shared/http';
import type { FastifyReply } from 'fastify';
import { ListRecordsQueryDto, RecordItemDto, RecordWriteDto } from './dto/record.dto';
import type { RecordResource } from './record-deps';

/** Stand-ins for a kind's create and update bodies in the shared handlers; replaced by the kind's own classes. */
class CreateBody extends RecordWriteDto {}
class UpdateBody extends RecordWriteDto {}

export interface RecordRoutes {
  /** The collection's path segment and API description tag: `venues`. */
  path: string;
  /** What an id or slug names, for the API description: `Venue`. */
  label: string;
  service: Type<RecordResource<{ rest_url: string }>>;
  create: Type<RecordWriteDto>;
  update: Type<RecordWriteDto>;
  list: Type<ListRecordsQueryDto>;
  /** The response model the kind's answers are built as. */
  model: Type<unknown>;
}

/**
 * The controller of a record kind that has nothing of its own on the HTTP side (venues, organizers): list,
 * create, and read, update (POST, PUT, PATCH) and trash by id and by slug (SPEC §5).
 *
 * Nest validates bodies and queries, and @nestjs/swagger describes them, from the parameter types TypeScript
 * records on each handler. The handlers are written once here, so those types are set to the kind's own DTO
 * classes after the class is declared.
 */
export function recordController(routes: RecordRoutes): Type<unknown> {
  const id = ApiParam({ name: 'id', type: 'integer', description: `${routes.label} id` });
  const slug = ApiParam({ name: 'slug', type: 'string', description: `${routes.label} slug, in any language` });
  const bySlug = 'by-slug/:slug';

  @ApiTags(routes.path)
  @Controller(`${NAMESPACE}/${routes.path}`)
  class RecordController {
    constructor(@Inject(routes.service) private readonly records: RecordResource<{ rest_url: string }>) {}

    @Get()
    @ApiAnswers(routes.model, { list: routes.path, errors: [404], description: `A page of ${routes.path}` })
    list(@Query() query: ListRecordsQueryDto, @Context() context: RequestContext) {
      return this.records.list(query, context);
    }

    @Post()
    @ApiAnswers(routes.model, { status: 201, write: true, errors: [403, 409, 413, 415, 422], description: `The created ${routes.label.toLowerCase()}` })
    @RequiresLogin()
    @Idempotent()
    @HttpCode(201)
    async create(@Body() body: CreateBody, @Context() context: RequestContext, @Res({ passthrough: true }) reply: FastifyReply) {
      const record = await this.records.create(body, context);
      reply.header('Location', record.rest_url);
      return record;
    }

    @Get(ID_SEGMENT)
    @ApiAnswers(routes.model, { errors: [403, 404] })
    @id
    get(@Param('id', ParseIntPipe) recordId: number, @Query() _query: RecordItemDto, @Context() context: RequestContext) {
      return this.records.get({ id: recordId }, context);
    }

    @Post(ID_SEGMENT)
    @ApiAnswers(routes.model, { write: true, errors: [403, 404, 409, 413, 415], description: `The ${routes.label.toLowerCase()} as written` })
    @RequiresLogin()
    @HttpCode(200)
    @id
    updateByPost(@Param('id', ParseIntPipe) recordId: number, @Body() body: UpdateBody, @Context() context: RequestContext) {
      return this.records.update({ id: recordId }, body, context);
    }

    @Put(ID_SEGMENT)
    @ApiAnswers(routes.model, { write: true, errors: [403, 404, 409, 413, 415], description: `The ${routes.label.toLowerCase()} as written` })
    @RequiresLogin()
    @id
    updateByPut(@Param('id', ParseIntPipe) recordId: number, @Body() body: UpdateBody, @Context() context: RequestContext) {
      return this.records.update({ id: recordId }, body, context);
    }

    @Patch(ID_SEGMENT)
    @ApiAnswers(routes.model, { write: true, errors: [403, 404, 409, 413, 415], description: `The ${routes.label.toLowerCase()} as written` })
    @RequiresLogin()
    @id
    updateByPatch(@Param('id', ParseIntPipe) recordId: number, @Body() body: UpdateBody, @Context() context: RequestContext) {
      return this.records.update({ id: recordId }, body, context);
    }

    @Delete(ID_SEGMENT)
    @ApiAnswers(routes.model, { write: true, errors: [403, 404, 410], description: `The ${routes.label.toLowerCase()} as it is now` })
    @RequiresLogin()
    @id
    remove(@Param('id', ParseIntPipe) recordId: number, @Query() _query: RecordItemDto, @Context() context: RequestContext) {
      return this.records.remove({ id: recordId }, context);
    }

    @Get(bySlug)
    @ApiAnswers(routes.model, { errors: [403, 404] })
    @slug
    getBySlug(@Param('slug') recordSlug: string, @Query() _query: RecordItemDto, @Context() context: RequestContext) {
      return this.records.get({ slug: recordSlug }, context);
    }

    @Post(bySlug)
    @ApiAnswers(routes.model, { write: true, errors: [403, 404, 409, 413, 415], description: `The ${routes.label.toLowerCase()} as written` })
    @RequiresLogin()
    @HttpCode(200)
    @slug
    updateBySlugByPost(@Param('slug') recordSlug: string, @Body() body: UpdateBody, @Context() context: RequestContext) {
      return this.records.update({ slug: recordSlug }, body, context);
    }

    @Put(bySlug)
    @ApiAnswers(routes.model, { write: true, errors: [403, 404, 409, 413, 415], description: `The ${routes.label.toLowerCase()} as written` })
    @RequiresLogin()
    @slug
    updateBySlugByPut(@Param('slug') recordSlug: string, @Body() body: UpdateBody, @Context() context: RequestContext) {
      return this.records.update({ slug: recordSlug }, body, context);
    }

    @Patch(bySlug)
    @ApiAnswers(routes.model, { write: true, errors: [403, 404, 409, 413, 415], description: `The ${routes.label.toLowerCase()} as written` })
    @RequiresLogin()
    @slug
    updateBySlugByPatch(@Param('slug') recordSlug: string, @Body() body: UpdateBody, @Context() context: RequestContext) {
      return this.records.update({ slug: recordSlug }, body, context);
    }

    @Delete(bySlug)
    @ApiAnswers(routes.model, { write: true, errors: [403, 404, 410], description: `The ${routes.label.toLowerCase()} as it is now` })
    @RequiresLogin()
    @slug
    removeBySlug(@Param('slug') recordSlug: string, @Query() _query: RecordItemDto, @Context() context: RequestContext) {
      return this.records.remove({ slug: recordSlug }, context);
    }
  }

  const own = new Map<unknown, unknown>([
    [ListRecordsQueryDto, routes.list],
    [CreateBody, routes.create],
    [UpdateBody, routes.update],
  ]);
  for (const handler of Object.getOwnPropertyNames(RecordController.prototype)) {
    const types: unknown[] | undefined = Reflect.getMetadata('design:paramtypes', RecordController.prototype, handler);
    if (handler !== 'constructor' && types) {
      Reflect.defineMetadata('design:paramtypes', types.map((type) => own.get(type) ?? type), RecordController.prototype, handler);
    }
  }
  // Named after the kind (VenueController), as Nest's logs and the API description's operation ids show it.
  Object.defineProperty(RecordController, 'name', { value: `${routes.label}Controller` });
  return RecordController;
}
