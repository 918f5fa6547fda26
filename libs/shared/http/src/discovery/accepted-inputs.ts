import { CONFIGURED_LANGUAGE } from '../localized.dto';
import { ACCEPTS, anyCase } from '../validation';
import { HTTP_METHODS, OpenApiDocument, OperationObject, SchemaObject } from './openapi';

/** The media types a write's fields may arrive in (SPEC §2.1), besides the query string. */
export const WRITE_MEDIA_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'] as const;

/**
 * The API description as clients see it: every parameter in every form the service accepts it (SPEC §2.1, §2.2),
 * and answers that hold exactly the members their models declare.
 *
 * The parameter decorators declare, beside the typed value the service reads (which the namespace index shows),
 * the forms a value is accepted in under the `x-accepts` key; here they become the parameters' schemas. A write's
 * fields may come in a JSON, form or multipart body, or in the query string, in any mix (the body wins): so each
 * write declares its fields as query parameters too, an optional body in the three media types, and its required
 * fields in words, since no schema of one location can require a field the other location may carry.
 */
export function describeAcceptedInputs(generated: OpenApiDocument, languages: readonly string[]): OpenApiDocument {
  const document = structuredClone(generated);
  const schemas = document.components?.schemas ?? {};
  const accepted = (holder: Record<string, unknown>, canonical: SchemaObject): SchemaObject => {
    const forms = holder[ACCEPTS];
    delete holder[ACCEPTS];
    if (forms === undefined) return canonical;
    const schema = forms === CONFIGURED_LANGUAGE ? languageForms(languages) : (forms as SchemaObject);
    return {
      ...schema,
      ...(canonical.default !== undefined ? { default: canonical.default } : {}),
      ...(canonical.description ? { description: canonical.description } : {}),
    };
  };

  const bodies = new Set<string>();
  for (const item of Object.values(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      for (const parameter of operation.parameters ?? []) {
        parameter.schema = accepted(parameter as unknown as Record<string, unknown>, parameter.schema ?? {});
      }
      const body = bodyName(operation);
      if (body) bodies.add(body);
    }
  }

  const required = new Map<string, string[]>();
  for (const name of bodies) {
    const schema = schemas[name];
    for (const [property, value] of Object.entries(schema.properties ?? {})) {
      schema.properties![property] = accepted(value as Record<string, unknown>, value);
    }
    required.set(name, schema.required ?? []);
    delete schema.required;
  }

  for (const item of Object.values(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const body = bodyName(operation);
      if (body) describeWrite(operation, body, schemas[body], required.get(body) ?? []);
      else if (method !== 'get') describeBodyOfParameters(operation);
    }
  }

  closeAnswers(document);
  return document;
}

function bodyName(operation: OperationObject): string | undefined {
  const ref = operation.requestBody ? Object.values(operation.requestBody.content)[0]?.schema.$ref : undefined;
  return ref?.replace('#/components/schemas/', '');
}

function describeWrite(operation: OperationObject, name: string, schema: SchemaObject, required: string[]): void {
  const where = 'in the body (JSON, form or multipart) or in the query string; the body wins when a field is in both';
  const mandatory = required.length > 0 ? ` Required: ${required.map((field) => `\`${field}\``).join(', ')}.` : '';
  operation.description = [operation.description, `Fields may come ${where}.${mandatory}`].filter(Boolean).join('\n\n');
  const ref = { $ref: `#/components/schemas/${name}` };
  operation.requestBody = {
    required: false,
    description: `The fields of the write.${mandatory}`,
    content: Object.fromEntries(WRITE_MEDIA_TYPES.map((type) => [type, { schema: ref }])),
  } as OperationObject['requestBody'];
  const parameters = operation.parameters ?? [];
  const named = new Set(parameters.map((parameter) => parameter.name));
  for (const [field, property] of Object.entries(schema.properties ?? {})) {
    if (named.has(field)) continue;
    const { description, ...value } = property;
    parameters.push({ name: field, in: 'query', required: false, description, schema: value });
  }
  operation.parameters = parameters;
}

/**
 * A request that is not a write (a delete) may send its query parameters in a body as well (SPEC §2.1: every
 * parameter may come in the query string or a body). Reads are not given one: a GET with a body is not sent by
 * clients or caches.
 */
function describeBodyOfParameters(operation: OperationObject): void {
  const query = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query');
  const schema: SchemaObject = { type: 'object', properties: Object.fromEntries(query.map((parameter) => [parameter.name, { ...parameter.schema, ...(parameter.description ? { description: parameter.description } : {}) }])) };
  operation.requestBody = {
    required: false,
    description: 'The query parameters may come in a body instead (JSON, form or multipart); the body wins when a parameter is in both.',
    content: Object.fromEntries(WRITE_MEDIA_TYPES.map((type) => [type, { schema }])),
  } as OperationObject['requestBody'];
}

/** Every model an answer holds is closed: a member the model does not declare is a defect of the document. */
function closeAnswers(document: OpenApiDocument): void {
  const schemas = document.components?.schemas ?? {};
  const seen = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    const ref = (value as SchemaObject).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const name = ref.slice('#/components/schemas/'.length);
      if (seen.has(name) || !schemas[name]) return;
      seen.add(name);
      const schema = schemas[name];
      if (schema.properties && schema.additionalProperties === undefined) schema.additionalProperties = false;
      visit(schema);
      return;
    }
    Object.values(value).forEach(visit);
  };
  for (const item of Object.values(document.paths)) {
    for (const method of HTTP_METHODS) visit(item[method]?.responses);
  }
}

function languageForms(languages: readonly string[]): SchemaObject {
  return { anyOf: [{ type: 'string', enum: [...languages] }, { type: 'string', pattern: anyCase(languages) }] };
}
