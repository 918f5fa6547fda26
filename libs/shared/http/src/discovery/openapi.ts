/* Minimal OpenAPI 3.1 shapes used by the generators (the document itself comes from @nestjs/swagger). */
export interface SchemaObject {
  type?: string | string[];
  items?: SchemaObject;
  enum?: unknown[];
  default?: unknown;
  description?: string;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  $ref?: string;
  allOf?: SchemaObject[];
  [key: string]: unknown;
}

export interface ParameterObject {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: SchemaObject;
}

export interface OperationObject {
  operationId?: string;
  summary?: string;
  tags?: string[];
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content: Record<string, { schema: SchemaObject }> };
  responses?: Record<string, unknown>;
  [key: string]: unknown;
}

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type PathItem = Partial<Record<HttpMethod, OperationObject>>;

export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  servers?: { url: string; description?: string; variables?: Record<string, { default: string; enum?: string[] }> }[];
  paths: Record<string, PathItem>;
  components?: { schemas?: Record<string, SchemaObject>; [key: string]: unknown };
  [key: string]: unknown;
}
