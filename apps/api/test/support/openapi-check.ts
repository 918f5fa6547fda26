import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readBracketKeys } from '@calendar/shared/http';

/*
 * Holds every answer of the HTTP suite to the API description the service serves (`GET .../doc`): an answer of a
 * route of the namespace must have a status its operation declares and, when it has a JSON body, validate
 * against the schema declared for that status; an answer of no route is the error envelope. A mismatch fails the
 * test that received the answer.
 */

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: unknown;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: unknown }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

/** A request as the harness sent it. */
export interface SentRequest {
  method: string;
  url: string;
  contentType?: string;
  payload?: string | Buffer;
}

interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
}

export class OpenApiCheck {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  /** Query strings and form fields are text on the wire: their values are read as the schema's types (OpenAPI's rule). */
  private readonly textAjv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: true });
  private readonly routes: { pattern: RegExp; path: string }[];
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly namespacePath: RegExp;

  constructor(
    private readonly document: Document,
    /** The API root (`/wp-json`) and the language bases (`en`, `fr`, `zh-hans`). */
    apiRoot: string,
    languages: string[],
  ) {
    this.namespacePath = new RegExp(`^(?:/(?:${languages.join('|')}))?${apiRoot}/calendar/events/v1(/[^?#]*)?(?:[?#]|$)`);
    for (const ajv of [this.ajv, this.textAjv]) {
      addFormats(ajv);
      // Schemas refer to `#/components/schemas/...` of the document: the document is registered whole under an id.
      ajv.addSchema({ $id: 'openapi', components: document.components ?? {} });
    }
    this.routes = Object.keys(document.paths).map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '([^/]+)')}/?$`),
    }));
  }

  /**
   * Problems with one exchange, or [] when it is as described: the answer must be one the document declares, and
   * a request the service accepted must be one the document calls valid.
   */
  problems(request: SentRequest, status: number, contentType: string, body: unknown): string[] {
    const { method, url } = request;
    const found = this.operationOf(method, url);
    if (!found) return [];
    const { route, operation } = found;
    const where = `${method} ${url} → ${status}`;
    const answer = this.answerProblems(method, where, route, operation, status, contentType, body);
    const accepted = status < 400 && route && operation ? this.requestProblems(request, where, route, operation) : [];
    return [...answer, ...accepted];
  }

  private operationOf(method: string, url: string): { route?: { pattern: RegExp; path: string }; operation?: Operation } | undefined {
    // CORS preflights are the browser's and the platform's business, not operations of the API.
    if (method.toUpperCase() === 'OPTIONS') return undefined;
    // Dot segments are removed before routing, as RFC 3986 has it (`/venues/by-slug/..` is `/venues/`).
    const match = this.namespacePath.exec(url.replace(/^[^?#]*/, (path) => normalised(path)));
    if (!match) return undefined;
    const relative = match[1] || '/';
    // The files of the /doc/ui page (script, style, icon) belong to the page, not to the API it describes.
    if (relative.startsWith('/doc/ui/assets/')) return undefined;
    // As routers do, a static segment wins over a parameter (`/events/ics` is not `/events/{id}`).
    const params = (path: string) => (path.match(/\{/g) ?? []).length;
    const route = this.routes.filter((candidate) => candidate.pattern.test(relative)).sort((a, b) => params(a.path) - params(b.path))[0];
    const operation = route ? this.document.paths[route.path][method.toLowerCase() === 'head' ? 'get' : method.toLowerCase()] : undefined;
    return { route, operation };
  }

  private answerProblems(
    method: string,
    where: string,
    route: { path: string } | undefined,
    operation: Operation | undefined,
    status: number,
    contentType: string,
    body: unknown,
  ): string[] {
    if (!route || !operation) {
      // No such route or method: an error in the envelope (404, 405, or what the request broke first).
      return status >= 400 ? this.validate(`envelope`, { $ref: 'openapi#/components/schemas/ErrorEnvelope' }, body, where) : [`${where}: no operation in the document`];
    }
    const response = operation.responses?.[String(status)];
    if (!response) return [`${where}: status not declared for ${method.toUpperCase()} ${route.path}`];
    if (method.toUpperCase() === 'HEAD' || status === 304 || body === undefined) return [];
    if (!contentType.includes('json')) return [];
    const schema = response.content?.['application/json'];
    if (!schema) return [`${where}: a JSON body where the document declares none`];
    return this.validate(`${route.path} ${method} ${status}`, rebased((schema as { schema: unknown }).schema), body, where);
  }

  /** A request the service accepted: its path, query and body parameters as the operation declares them. */
  private requestProblems(request: SentRequest, where: string, route: { pattern: RegExp; path: string }, operation: Operation): string[] {
    const problems: string[] = [];
    const declared = operation.parameters ?? [];
    const relative = (this.namespacePath.exec(request.url.replace(/^[^?#]*/, (path) => normalised(path)))?.[1] || '/').replace(/[?#].*$/, '');
    const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
    const values = route.pattern.exec(relative)?.slice(1) ?? [];
    const path = Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(values[index] ?? '')]));
    problems.push(...this.validateText(`${route.path} path`, objectOf(declared, 'path'), path, `${where} (path)`));
    const query = fields(new URLSearchParams(request.url.split('?')[1]?.split('#')[0] ?? ''));
    problems.push(...this.validateText(`${route.path} ${request.method} query`, objectOf(declared, 'query'), query, `${where} (query)`));
    if (request.payload === undefined || request.payload.length === 0) {
      if (operation.requestBody?.required) problems.push(`${where}: no body where the document requires one`);
      return problems;
    }
    const type = (request.contentType ?? '').split(';')[0].trim().toLowerCase();
    const content = operation.requestBody?.content[type];
    if (!content) return [...problems, `${where}: a ${type || 'typeless'} body the document does not declare`];
    const key = `${route.path} ${request.method} body ${type}`;
    const schema = rebased(content.schema);
    if (type === 'application/json') problems.push(...this.validate(key, schema, JSON.parse(request.payload.toString()), `${where} (body)`));
    else if (type === 'application/x-www-form-urlencoded') problems.push(...this.validateText(key, schema, fields(new URLSearchParams(request.payload.toString())), `${where} (body)`));
    return problems;
  }

  private validateText(key: string, schema: unknown, value: unknown, where: string): string[] {
    return this.validate(key, schema, value, where, this.textAjv);
  }

  private validate(key: string, schema: unknown, body: unknown, where: string, ajv = this.ajv): string[] {
    const cacheKey = `${ajv === this.ajv ? 'json' : 'text'} ${key}`;
    let validate = this.compiled.get(cacheKey);
    if (!validate) {
      validate = ajv.compile(schema as object);
      this.compiled.set(cacheKey, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).slice(0, 8).map((error) => `${where}: ${error.instancePath || '(body)'} ${error.message} ${JSON.stringify(error.params)}`);
  }

}

/** A schema of the document with its local references pointed at the registered document. */
function rebased(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi#/components/'));
}

/** The parameters of one location as an object schema: each declared name, the required ones required. */
function objectOf(parameters: Parameter[], location: string): Record<string, unknown> {
  const own = parameters.filter((parameter) => parameter.in === location);
  return {
    type: 'object',
    properties: Object.fromEntries(own.map((parameter) => [parameter.name, rebased(parameter.schema ?? {})])),
    required: own.filter((parameter) => parameter.required).map((parameter) => parameter.name),
  };
}

/**
 * Query or form fields by name, as the service reads them: a repeated name is a list of its values, and PHP's
 * bracket keys are lists and objects (`name[]=a`, `categories[0]=5`, `categories[id]=5`; SPEC §2.2, §4.2).
 */
function fields(search: URLSearchParams): Record<string, unknown> {
  const result: Record<string, string | string[]> = {};
  for (const [name, value] of search) {
    const previous = result[name];
    result[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return readBracketKeys(result);
}

/** A path without dot segments; one that cannot be parsed as it is. */
function normalised(path: string): string {
  try {
    return new URL(path, 'http://host').pathname;
  } catch {
    return path;
  }
}
