import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Controller, Get, Header, Param, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import { AppConfig } from '@calendar/shared/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiAnswers, FREE_OBJECT, STRING } from '../answers';
import { ApiException } from '../api-exception';
import { NAMESPACE } from '../constants';
import { LinkBuilder } from '../links';
import { requestOrigin } from '../request-context';
import { DiscoveryService } from './discovery.service';
import { DocDto, NamespaceIndexDto } from './discovery.dto';

const UI_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/**
 * The folder of swagger-ui-dist on disk, from the package's own helper. `require.resolve` cannot serve here: in
 * the webpack bundle it answers a module id, not a path.
 */
const swaggerUiFolder: () => string = require('swagger-ui-dist/absolute-path.js');

const NAMESPACE_INDEX = { type: 'object', properties: { namespace: STRING, routes: { type: 'object', additionalProperties: FREE_OBJECT } }, required: ['namespace', 'routes'] };
const OPENAPI_DOCUMENT = { type: 'object', properties: { openapi: { type: 'string', const: '3.1.0' } }, required: ['openapi', 'info', 'paths'] };

function languageOf(request: FastifyRequest, config: AppConfig): string {
  return request.language ?? config.defaultLanguage;
}

@ApiTags('discovery')
@Controller()
export class DiscoveryController {
  private readonly assetCache = new Map<string, Buffer>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly links: LinkBuilder,
    private readonly config: AppConfig,
  ) {}

  /** The REST root (SPEC §1). */
  @Get()
  @ApiExcludeEndpoint()
  root(@Query() _query: DocDto, @Req() request: FastifyRequest) {
    const language = languageOf(request, this.config);
    const origin = requestOrigin(request);
    return {
      name: 'Event Calendar Service',
      description: 'Events, venues, organizers, categories and tags in several languages',
      url: origin,
      home: this.config.siteUrl ?? origin,
      namespaces: [NAMESPACE],
      routes: this.discovery.index(origin, language).routes,
    };
  }

  /** The namespace index: every route with its arguments. */
  @Get(NAMESPACE)
  @ApiAnswers({ schema: NAMESPACE_INDEX }, { description: 'The WordPress-style index of the namespace', errors: [404] })
  index(@Query() query: NamespaceIndexDto, @Req() request: FastifyRequest) {
    if (query.namespace !== NAMESPACE) throw ApiException.noRoute();
    return this.discovery.index(requestOrigin(request), languageOf(request, this.config));
  }

  /** The OpenAPI 3.1 description of the namespace. */
  @Get(`${NAMESPACE}/doc`)
  @ApiAnswers({ schema: OPENAPI_DOCUMENT }, { description: 'This document' })
  doc(@Query() _query: DocDto, @Req() request: FastifyRequest) {
    return this.discovery.openApi(requestOrigin(request), languageOf(request, this.config));
  }

  /** A browsable page of the OpenAPI description. */
  @Get(`${NAMESPACE}/doc/ui`)
  @ApiAnswers({ schema: STRING, type: 'text/html' }, { description: 'A browsable page of this document' })
  @Header('Content-Type', 'text/html; charset=utf-8')
  ui(@Query() _query: DocDto, @Req() request: FastifyRequest): string {
    const language = languageOf(request, this.config);
    const base = this.links.namespace(requestOrigin(request), language);
    return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<title>Event Calendar Service API</title>
<link rel="icon" type="image/png" href="${base}/doc/ui/assets/favicon-32x32.png">
<link rel="stylesheet" href="${base}/doc/ui/assets/swagger-ui.css">
</head>
<body>
<div id="ui"></div>
<script src="${base}/doc/ui/assets/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: ${JSON.stringify(`${base}/doc`)}, dom_id: '#ui' });</script>
</body>
</html>
`;
  }

  @Get(`${NAMESPACE}/doc/ui/assets/:file`)
  @ApiExcludeEndpoint()
  asset(@Param('file') file: string, @Res({ passthrough: true }) reply: FastifyReply): Buffer {
    const type = Object.hasOwn(UI_ASSETS, file) ? UI_ASSETS[file] : undefined;
    if (!type) throw ApiException.noRoute();
    let content = this.assetCache.get(file);
    if (!content) {
      content = readFileSync(join(swaggerUiFolder(), file));
      this.assetCache.set(file, content);
    }
    reply.header('Content-Type', type);
    return content;
  }
}
