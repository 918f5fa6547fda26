import fc from 'fast-check';
import { answerBody, JsonTemplate, JsonText, listBytes } from './json-text';
import { ListResult } from './list';

describe('JsonTemplate', () => {
  it('gives the text of JSON.stringify once its open members are filled, whatever the object', () => {
    const member = fc.jsonValue();
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.oneof(member, fc.constant(undefined))), fc.dictionary(fc.string(), member), (object, filled) => {
        const open = Object.keys(filled).filter((key) => Object.hasOwn(object, key) && object[key] !== undefined);
        const template = JsonTemplate.of(object, open);
        const completed = Object.fromEntries(open.map((key) => [key, JSON.stringify(filled[key])]));
        const expected = JSON.stringify({ ...object, ...Object.fromEntries(open.map((key) => [key, filled[key]])) });
        // In parts, as an answer writes it: the same text, and the same bytes once written.
        expect([template.fill(completed), new JsonText(template.parts(completed)).text, answerBody(new JsonText(template.parts(completed)))]).toEqual([expected, expected, Buffer.from(expected)]);
      }),
    );
  });

  it('keeps the order of the members, dates as JSON gives them, names JSON escapes, and leaves undefined out', () => {
    const template = JsonTemplate.of({ id: 1, when: new Date(Date.UTC(2030, 0, 2)), gone: undefined, tags: [], title: 'Ça "va"' }, ['tags']);
    expect(template.fill({ tags: '[{"id":7}]' })).toBe('{"id":1,"when":"2030-01-02T00:00:00.000Z","tags":[{"id":7}],"title":"Ça \\"va\\""}');
    expect(JsonTemplate.of({ tags: [] }, ['tags']).fill({ tags: '[]' })).toBe('{"tags":[]}');
    expect(JsonTemplate.of({}, []).fill({})).toBe('{}');
    // Names JSON escapes: a quote, a backslash, a control character.
    const named = JsonTemplate.of({ 'a"b': 1, 'c\\d': 2, 'e\nf': 3, g: 4 }, ['a"b', 'c\\d', 'e\nf']);
    expect(named.fill({ 'a"b': '5', 'c\\d': '"x"', 'e\nf': 'null' })).toBe('{"a\\"b":5,"c\\\\d":"x","e\\nf":null,"g":4}');
  });

  it('fills open members in the order the object holds them, whatever the order they are named in, each once', () => {
    const template = JsonTemplate.of({ a: 1, venue: [], b: 'x\\y', tags: [], c: true }, ['tags', 'venue', 'tags', 'missing']);
    expect(template.fill({ tags: '["t"]', venue: '{"id":3}', missing: '"never"' })).toBe('{"a":1,"venue":{"id":3},"b":"x\\\\y","tags":["t"],"c":true}');
  });
});

describe('JsonTemplate with bytes', () => {
  it('fills members given as bytes or in parts, as text and as the same bytes', () => {
    const template = JsonTemplate.of({ id: 1, venue: [], organizer: [], title: 'Été' }, ['venue', 'organizer']);
    const venue = Buffer.from('{"venue":"Salle Pleyel — 東京"}');
    const members = { venue, organizer: ['[', Buffer.from('{"id":2}'), ',', '{"id":3}', ']'] };
    const expected = '{"id":1,"venue":{"venue":"Salle Pleyel — 東京"},"organizer":[{"id":2},{"id":3}],"title":"Été"}';
    expect(template.fill(members)).toBe(expected);
    const text = new JsonText(template.parts(members));
    expect([text.text, text.part, answerBody(text)]).toEqual([expected, expected, Buffer.from(expected)]);
    expect(listBytes('events', [text, new JsonText(venue)], { total: 2 })).toEqual(Buffer.from(`{"events":[${expected},{"venue":"Salle Pleyel — 東京"}],"total":2}`));
    // Kept as it was given: a text, or bytes.
    expect([new JsonText('{}').part, new JsonText(venue).part]).toEqual(['{}', venue]);
  });
});

describe('JsonText', () => {
  it('serialises to the value it encodes wherever it is nested', () => {
    expect(JSON.stringify({ items: [new JsonText('{"a":[1,"é"]}')] })).toBe('{"items":[{"a":[1,"é"]}]}');
  });

  it('makes list bodies equal to those of the values themselves', () => {
    const items = [{ id: 1, title: 'One' }, { id: 2, title: 'Two "2"' }];
    const url = (page: number) => `http://a.test/events?page=${page}`;
    const plain = new ListResult('events', items, 12, { page: 2, per_page: 2 }, url);
    const rendered = new ListResult('events', items.map((item) => new JsonText(JSON.stringify(item))), 12, { page: 2, per_page: 2 }, url);
    expect(rendered.toJsonBytes().toString()).toBe(JSON.stringify(plain.toBody()));
    expect(JSON.parse(rendered.toJsonBytes().toString())).toEqual({ events: items, rest_url: url(2), next_rest_url: url(3), previous_rest_url: url(1), total: 12, total_pages: 6 });
    expect(new ListResult('events', [], 0, { page: 1, per_page: 10 }, url).toJsonBytes().toString()).toBe('{"events":[],"rest_url":"http://a.test/events?page=1","total":0,"total_pages":0}');
  });
});

describe('listBytes', () => {
  it('writes a list body as the UTF-8 bytes of its JSON, whatever the text (accents, Chinese, emoji, escapes)', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), fc.dictionary(fc.string().map((key) => `m${key}`), fc.jsonValue()), fc.boolean(), (items, rest, rendered) => {
        // Rendered items as one text each, or in parts (a template filled in).
        const inParts = (item: unknown) => new JsonText(JsonTemplate.of({ item }, ['item']).parts({ item: JSON.stringify(item) }));
        const shown = rendered ? items.map((item, index) => (index % 2 === 0 ? new JsonText(JSON.stringify(item)) : inParts(item))) : items;
        const expected = { events: rendered ? items.map((item, index) => (index % 2 === 0 ? item : { item })) : items, ...rest };
        expect(listBytes('events', shown, rest).equals(Buffer.from(JSON.stringify(expected)))).toBe(true);
      }),
    );
    const bytes = listBytes('events', [new JsonText('{"title":"古典音乐会 🎻 Café"}')], { total: 1 });
    expect([bytes.length, new JsonText(bytes).text]).toEqual([61, '{"events":[{"title":"古典音乐会 🎻 Café"}],"total":1}']);
  });
});
