import { anyCase, commaList, DIGITS } from '../validation';
import { describeAcceptedInputs } from './accepted-inputs';
import { OpenApiDocument } from './openapi';

describe('accepted input forms', () => {
  it('matches words in any case, trimmed, and nothing longer', () => {
    const pattern = new RegExp(anyCase(['asc', 'zh-hans']), 'u');
    expect(['asc', ' ASC ', 'Asc', 'zh-Hans', 'ZH-HANS'].map((value) => pattern.test(value))).toEqual([true, true, true, true, true]);
    expect(['ascx', 'as', 'zh_hans', ''].map((value) => pattern.test(value))).toEqual([false, false, false, false]);
  });

  it('matches comma-separated lists as the service splits them', () => {
    const pattern = new RegExp(commaList(DIGITS), 'u');
    expect(['1', '1,2', ' 1 , 2 ,', ',3,,4'].map((value) => pattern.test(value))).toEqual([true, true, true, true]);
    expect(['', ',', '1 2', '1,a'].map((value) => pattern.test(value))).toEqual([false, false, false, false]);
  });

  const generated = (): OpenApiDocument => ({
    openapi: '3.1.0',
    info: {},
    paths: {
      '/things': {
        get: {
          parameters: [
            { name: 'translation_language', in: 'query', schema: { type: 'string' }, 'x-accepts': 'configured-language' } as never,
            { name: 'page', in: 'query', description: 'Page', schema: { type: 'integer', default: 1 }, 'x-accepts': { anyOf: [{ type: 'integer' }, { type: 'string' }] } } as never,
          ],
          responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } },
        },
        post: {
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateThing' } } } },
          responses: { '201': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } },
        },
      },
    },
    components: {
      schemas: {
        Thing: { type: 'object', properties: { id: { type: 'integer' }, part: { $ref: '#/components/schemas/Part' } } },
        Part: { type: 'object', properties: { name: { type: 'string' } } },
        CreateThing: {
          type: 'object',
          properties: { name: { type: 'string', description: 'Name', 'x-accepts': { anyOf: [{ type: 'string' }, { type: 'number' }] } } },
          required: ['name'],
        },
      },
    },
  });

  it('declares each parameter in its accepted forms, the configured languages included', () => {
    const document = describeAcceptedInputs(generated(), ['en', 'fr']);
    expect(document.paths['/things'].get!.parameters).toEqual([
      { name: 'translation_language', in: 'query', schema: { anyOf: [{ type: 'string', enum: ['en', 'fr'] }, { type: 'string', pattern: '^\\s*(?:[eE][nN]|[fF][rR])\\s*$' }] } },
      { name: 'page', in: 'query', description: 'Page', schema: { anyOf: [{ type: 'integer' }, { type: 'string' }], default: 1 } },
    ]);
  });

  it('takes write fields from the three body types or the query string, and says which are required', () => {
    const document = describeAcceptedInputs(generated(), ['en']);
    const post = document.paths['/things'].post!;
    const body = { schema: { $ref: '#/components/schemas/CreateThing' } };
    expect(post.requestBody).toEqual({
      required: false,
      description: 'The fields of the write. Required: `name`.',
      content: { 'application/json': body, 'application/x-www-form-urlencoded': body, 'multipart/form-data': body },
    });
    expect(post.parameters).toEqual([{ name: 'name', in: 'query', required: false, description: 'Name', schema: { anyOf: [{ type: 'string' }, { type: 'number' }] } }]);
    expect(document.components!.schemas!['CreateThing']).toEqual({
      type: 'object',
      properties: { name: { anyOf: [{ type: 'string' }, { type: 'number' }], description: 'Name' } },
    });
  });

  it('lets a delete send its query parameters in a body, and gives reads none', () => {
    const original = generated();
    original.paths['/things'].delete = {
      parameters: [{ name: 'force', in: 'query', description: 'Delete for good', schema: { type: 'boolean' }, 'x-accepts': { anyOf: [{ type: 'boolean' }, { type: 'string' }] } } as never],
      responses: {},
    };
    const document = describeAcceptedInputs(original, ['en']);
    const body = { schema: { type: 'object', properties: { force: { anyOf: [{ type: 'boolean' }, { type: 'string' }], description: 'Delete for good' } } } };
    expect(document.paths['/things'].delete!.requestBody).toEqual({
      required: false,
      description: 'The query parameters may come in a body instead (JSON, form or multipart); the body wins when a parameter is in both.',
      content: { 'application/json': body, 'application/x-www-form-urlencoded': body, 'multipart/form-data': body },
    });
    expect(document.paths['/things'].get!.requestBody).toBeUndefined();
  });

  it('closes the models answers hold, and leaves inputs open (unknown parameters are ignored)', () => {
    const schemas = describeAcceptedInputs(generated(), ['en']).components!.schemas!;
    expect([schemas['Thing'].additionalProperties, schemas['Part'].additionalProperties, schemas['CreateThing'].additionalProperties]).toEqual([false, false, undefined]);
  });

  it('leaves the generated document as it was (the namespace index reads it)', () => {
    const original = generated();
    describeAcceptedInputs(original, ['en']);
    expect(original).toEqual(generated());
  });
});
