import { Injectable } from '@nestjs/common';
import { AppConfig } from '@calendar/shared/config';
import { NAMESPACE } from '../constants';
import { LinkBuilder } from '../links';
import { describeAcceptedInputs } from './accepted-inputs';
import { HTTP_METHODS, OpenApiDocument, OperationObject, SchemaObject } from './openapi';

interface IndexArg {
  required: boolean;
  default?: unknown;
  type?: unknown;
  description?: string;
  enum?: unknown[];
  items?: SchemaObject;
}

interface IndexRoute {
  namespace: string;
  methods: string[];
  endpoints: { methods: string[]; args: Record<string, IndexArg> }[];
  _links?: { self: { href: string }[] };
}

/**
 * Serves the two descriptions of the namespace, both derived from the OpenAPI document that @nestjs/swagger
 * builds out of the controllers and the parameter decorators that also validate requests.
 */
@Injectable()
export class DiscoveryService {
  /** The generated document: typed values, as the namespace index shows them. */
  private document: OpenApiDocument | null = null;
  /** The document clients are served: inputs in every accepted form, closed answer models. */
  private described: OpenApiDocument | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly links: LinkBuilder,
  ) {}

  /** Takes the generated document, with paths made relative to the namespace (`/events/{id}`). */
  setDocument(generated: OpenApiDocument): void {
    const prefix = `${this.config.apiRoot}/${NAMESPACE}`;
    const paths: OpenApiDocument['paths'] = {};
    for (const [path, item] of Object.entries(generated.paths)) {
      if (path !== prefix && !path.startsWith(`${prefix}/`)) continue;
      const relative = path.slice(prefix.length).replace(/\{(\w+)\}\([^)]*\)/g, '{$1}') || '/';
      paths[relative] = item;
    }
    this.document = { ...generated, paths };
    this.described = describeAcceptedInputs(this.document, this.config.languages);
  }

  private get doc(): OpenApiDocument {
    if (!this.document) throw new Error('The OpenAPI document has not been generated yet');
    return this.document;
  }

  openApi(origin: string, language: string): OpenApiDocument {
    // The namespace in the request's language first (SPEC §11.1), then the same API under each language base
    // (the default language has one too: `/en/...` is the API in English).
    const others = this.config.languages.filter((other) => other !== this.config.defaultLanguage);
    const servers: NonNullable<OpenApiDocument['servers']> = [
      { url: this.links.namespace(origin, language) },
      {
        url: `${origin}/{language}${this.config.apiRoot}/${NAMESPACE}`,
        description: 'The same API under a language base: texts and addresses in that language (SPEC §7)',
        variables: { language: { default: others[0] ?? this.config.defaultLanguage, enum: [...this.config.languages] } },
      },
    ];
    return { ...this.described!, servers };
  }

  /** WordPress-style namespace index (SPEC §1, §11.1). */
  index(origin: string, language: string): { namespace: string; routes: Record<string, IndexRoute> } {
    const routes: Record<string, IndexRoute> = {};
    const base = this.links.namespace(origin, language);
    for (const [path, item] of Object.entries(this.doc.paths)) {
      // Ids are whole numbers (`{id}`, `{delivery_id}`); slugs any segment.
      const key = `/${NAMESPACE}${path === '/' ? '' : path.replace(/\{(\w*id)\}/g, '(?P<$1>\\d+)').replace(/\{slug\}/g, '(?P<slug>[^/]+)')}`;
      const endpoints: IndexRoute['endpoints'] = [];
      const methods: string[] = [];
      for (const method of HTTP_METHODS) {
        const operation = item[method];
        if (!operation) continue;
        const name = method.toUpperCase();
        methods.push(name);
        const args = this.argsOf(operation);
        const same = endpoints.find((endpoint) => JSON.stringify(endpoint.args) === JSON.stringify(args));
        if (same) same.methods.push(name);
        else endpoints.push({ methods: [name], args });
      }
      const route: IndexRoute = { namespace: NAMESPACE, methods, endpoints };
      if (!path.includes('{')) route._links = { self: [{ href: path === '/' ? base : `${base}${path}` }] };
      routes[key] = route;
    }
    return { namespace: NAMESPACE, routes };
  }

  private argsOf(operation: OperationObject): Record<string, IndexArg> {
    const args: Record<string, IndexArg> = {};
    for (const parameter of operation.parameters ?? []) {
      if (parameter.in !== 'query' && parameter.in !== 'path') continue;
      args[parameter.name] = describe(parameter.schema ?? {}, parameter.required ?? false, parameter.description);
    }
    const body = operation.requestBody ? Object.values(operation.requestBody.content)[0]?.schema : undefined;
    const schema = body ? this.resolve(body) : undefined;
    for (const [name, property] of Object.entries(schema?.properties ?? {})) {
      if (args[name]) continue;
      args[name] = describe(property, schema?.required?.includes(name) ?? false, property.description);
    }
    return args;
  }

  private resolve(schema: SchemaObject): SchemaObject {
    const ref = schema.$ref;
    if (!ref) return schema;
    const name = ref.replace('#/components/schemas/', '');
    return this.doc.components?.schemas?.[name] ?? {};
  }
}

function describe(schema: SchemaObject, required: boolean, description?: string): IndexArg {
  const arg: IndexArg = { required };
  if (schema.default !== undefined) arg.default = schema.default;
  if (schema.type !== undefined) arg.type = schema.type;
  if (description ?? schema.description) arg.description = description ?? schema.description;
  if (schema.enum) arg.enum = schema.enum;
  if (schema.items) arg.items = schema.items;
  return arg;
}
