import { Idempotent } from '@calendar/shared/database';
import { Controller, Delete, Get, Param, ParseIntPipe, Patch, Post, Put, Query, Body, HttpCode, Req, Res } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { Context, RequestContext } from '@calendar/i18n';
import { RequiresLogin } from '@calendar/shared/auth';
import { ApiAnswers, ID_SEGMENT, NAMESPACE, Preconditions, WritePrecondition, SyncQueryDto } from '@calendar/shared/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ListCategoriesQueryDto, ListTagsQueryDto } from './dto/list-terms.dto';
import { TermResponse } from './dto/term.mapper';
import { CreateCategoryDto, CreateTagDto, TermItemDto, UpdateCategoryDto, UpdateTagDto } from './dto/write-term.dto';
import { TermService } from './term.service';

const ID_PARAM = ApiParam({ name: 'id', type: 'integer', description: 'Term id' });

function created(reply: FastifyReply, term: TermResponse): TermResponse {
  reply.header('Location', term.rest_url);
  return term;
}

@ApiTags('categories')
@Controller(`${NAMESPACE}/categories`)
export class CategoriesController {
  constructor(private readonly terms: TermService) {}

  @Get()
  @ApiAnswers(TermResponse, { list: 'categories', errors: [404] })
  list(@Query() query: ListCategoriesQueryDto, @Context() context: RequestContext) {
    return this.terms.list('category', query, context);
  }

  @Get('sync')
  @ApiAnswers(TermResponse, { sync: 'categories', errors: [410], description: 'A page of a sync of categories: current objects and tombstones (SPEC §16.2)' })
  sync(@Query() query: SyncQueryDto, @Req() request: FastifyRequest, @Context() context: RequestContext) {
    return this.terms.sync('category', query, request.query as Record<string, unknown>, context);
  }

  @Post()
  @ApiAnswers(TermResponse, { status: 201, write: true, etag: true, errors: [403, 409, 413, 415, 422], description: 'The created category' })
  @RequiresLogin()
  @Idempotent()
  @HttpCode(201)
  async create(@Body() body: CreateCategoryDto, @Context() context: RequestContext, @Res({ passthrough: true }) reply: FastifyReply) {
    return created(reply, await this.terms.create('category', body, context));
  }

  @Get(ID_SEGMENT)
  @ApiAnswers(TermResponse, { errors: [403, 404] })
  @ID_PARAM
  get(@Param('id', ParseIntPipe) id: number, @Query() _query: TermItemDto, @Context() context: RequestContext) {
    return this.terms.get('category', id, context);
  }

  @Post(ID_SEGMENT)
  @ApiAnswers(TermResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The category as written' })
  @RequiresLogin()
  @HttpCode(200)
  @ID_PARAM
  updateByPost(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateCategoryDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.terms.update('category', id, body, context, precondition);
  }

  @Put(ID_SEGMENT)
  @ApiAnswers(TermResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The category as written' })
  @RequiresLogin()
  @ID_PARAM
  updateByPut(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateCategoryDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.terms.update('category', id, body, context, precondition);
  }

  @Patch(ID_SEGMENT)
  @ApiAnswers(TermResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The category as written' })
  @RequiresLogin()
  @ID_PARAM
  updateByPatch(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateCategoryDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.terms.update('category', id, body, context, precondition);
  }

  @Delete(ID_SEGMENT)
  @ApiAnswers(TermResponse, { write: true, conditional: true, errors: [403, 404, 410, 412], description: 'The category as it is now' })
  @RequiresLogin()
  @ID_PARAM
  remove(@Param('id', ParseIntPipe) id: number, @Query() _query: TermItemDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.terms.remove('category', id, context, precondition);
  }
}

@ApiTags('tags')
@Controller(`${NAMESPACE}/tags`)
export class TagsController {
  constructor(private readonly terms: TermService) {}

  @Get()
  @ApiAnswers(TermResponse, { list: 'tags', errors: [404] })
  list(@Query() query: ListTagsQueryDto, @Context() context: RequestContext) {
    return this.terms.list('tag', query, context);
  }

  @Get('sync')
  @ApiAnswers(TermResponse, { sync: 'tags', errors: [410], description: 'A page of a sync of tags: current objects and tombstones (SPEC §16.2)' })
  sync(@Query() query: SyncQueryDto, @Req() request: FastifyRequest, @Context() context: RequestContext) {
    return this.terms.sync('tag', query, request.query as Record<string, unknown>, context);
  }

  @Post()
  @ApiAnswers(TermResponse, { status: 201, write: true, etag: true, errors: [403, 409, 413, 415, 422], description: 'The created tag' })
  @RequiresLogin()
  @Idempotent()
  @HttpCode(201)
  async create(@Body() body: CreateTagDto, @Context() context: RequestContext, @Res({ passthrough: true }) reply: FastifyReply) {
    return created(reply, await this.terms.create('tag', body, context));
  }

  @Get(ID_SEGMENT)
  @ApiAnswers(TermResponse, { errors: [403, 404] })
  @ID_PARAM
  get(@Param('id', ParseIntPipe) id: number, @Query() _query: TermItemDto, @Context() context: RequestContext) {
    return this.terms.get('tag', id, context);
  }

  @Post(ID_SEGMENT)
  @ApiAnswers(TermResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The tag as written' })
  @RequiresLogin()
  @HttpCode(200)
  @ID_PARAM
  updateByPost(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateTagDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.terms.update('tag', id, body, context, precondition);
  }

  @Put(ID_SEGMENT)
  @ApiAnswers(TermResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The tag as written' })
  @RequiresLogin()
  @ID_PARAM
  updateByPut(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateTagDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.terms.update('tag', id, body, context, precondition);
  }

  @Patch(ID_SEGMENT)
  @ApiAnswers(TermResponse, { write: true, etag: true, conditional: true, errors: [403, 404, 409, 412, 413, 415], description: 'The tag as written' })
  @RequiresLogin()
  @ID_PARAM
  updateByPatch(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateTagDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.terms.update('tag', id, body, context, precondition);
  }

  @Delete(ID_SEGMENT)
  @ApiAnswers(TermResponse, { write: true, conditional: true, errors: [403, 404, 410, 412], description: 'The tag as it is now' })
  @RequiresLogin()
  @ID_PARAM
  remove(@Param('id', ParseIntPipe) id: number, @Query() _query: TermItemDto, @Context() context: RequestContext, @Preconditions() precondition: WritePrecondition | undefined) {
    return this.terms.remove('tag', id, context, precondition);
  }
}
