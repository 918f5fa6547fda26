import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/*
 * Holds every answer of the HTTP suite to the API description the service serves (`GET .../doc`): an answer of a
 * route of the namespace must have a status its operation declares and, when it has a JSON body, validate
 * against the schema declared for that status; an answer of no route is the error envelope. A mismatch fails the
 * test that received the answer.
 */

interface Operation {
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
}

export class OpenApiCheck {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly routes: { pattern: RegExp; path: string }[];
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly namespacePath: RegExp;

  constructor(
    private readonly document: Document,
    /** The API root (`/wp-json`) and the language bases served besides the default (`fr`, `zh-hans`). */
    apiRoot: string,
    languages: string[],
  ) {
    this.namespacePath = new RegExp(`^(?:/(?:${languages.join('|')}))?${apiRoot}/calendar/events/v1(/[^?#]*)?(?:[?#]|$)`);
    addFormats(this.ajv);
    // Schemas refer to `#/components/schemas/...` of the document: the document is registered whole under an id.
    this.ajv.addSchema({ $id: 'openapi', components: document.components ?? {} });
    this.routes = Object.keys(document.paths).map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
    }));
  }

  /** Problems with one answer, or [] when it is as described. */
  problems(method: string, url: string, status: number, contentType: string, body: unknown): string[] {
    // CORS preflights are the browser's and the platform's business, not operations of the API.
    if (method.toUpperCase() === 'OPTIONS') return [];
    // Dot segments are removed before routing, as RFC 3986 has it (`/venues/by-slug/..` is `/venues/`).
    const match = this.namespacePath.exec(url.replace(/^[^?#]*/, (path) => normalised(path)));
    if (!match) return [];
    const relative = match[1] || '/';
    // The files of the /doc/ui page (script, style, icon) belong to the page, not to the API it describes.
    if (relative.startsWith('/doc/ui/assets/')) return [];
    const route = this.routes.find((candidate) => candidate.pattern.test(relative));
    const operation = route ? this.document.paths[route.path][method.toLowerCase() === 'head' ? 'get' : method.toLowerCase()] : undefined;
    const where = `${method} ${url} → ${status}`;
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
    return this.validate(`${route.path} ${method} ${status}`, this.rebase((schema as { schema: unknown }).schema), body, where);
  }

  private validate(key: string, schema: unknown, body: unknown, where: string): string[] {
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema as object);
      this.compiled.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).slice(0, 8).map((error) => `${where}: ${error.instancePath || '(body)'} ${error.message} ${JSON.stringify(error.params)}`);
  }

  /** Points the document's local references at the registered document. */
  private rebase(schema: unknown): unknown {
    return JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi#/components/'));
  }
}

/** A path without dot segments; one that cannot be parsed as it is. */
function normalised(path: string): string {
  try {
    return new URL(path, 'http://host').pathname;
  } catch {
    return path;
  }
}
