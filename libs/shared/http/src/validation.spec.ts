import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  BooleanParam,
  DateTimeParam,
  EmailParam,
  EnumParam,
  HtmlParam,
  IntegerListParam,
  IntegerParam,
  NumberParam,
  readBoolean,
  readList,
  StringListParam,
  StringParam,
  TimeZoneParam,
  UrlParam,
} from './validation';
import { readBracketKeys } from './params';
import { toParamsException } from './validation.pipe';

class ReadParams {
  @IntegerParam({ min: 1, max: 100 }) per_page = 10;
  @BooleanParam() featured?: boolean;
  @IntegerListParam() include?: number[];
  @StringListParam({ values: ['publish', 'draft'] }) status?: string[];
  @EnumParam(['asc', 'desc']) order?: string;
  @NumberParam({ min: -90, max: 90 }) lat?: number;
  @DateTimeParam() start_date?: string;
  @TimeZoneParam() timezone?: string;
  @StringParam({ required: true }) title: string;
}

class WriteParams {
  @UrlParam({ empty: 'empty-string' }) website?: string;
  @EmailParam({ empty: 'empty-string' }) email?: string;
  @IntegerListParam({ empty: 'null' }) venue?: number[];
  @HtmlParam({ empty: 'empty-string' }) description?: string;
  @IntegerParam({ empty: 'null' }) parent?: number | null;
}

function read<T extends object>(type: new () => T, plain: Record<string, unknown>) {
  const instance = plainToInstance(type, plain);
  const errors = validateSync(instance, { whitelist: true, forbidUnknownValues: false });
  return { instance, error: errors.length > 0 ? toParamsException(errors).toBody() : null };
}

describe('parameter decorators', () => {
  it('reads each type from strings, JSON values and list forms', () => {
    const { instance, error } = read(ReadParams, {
      title: '  Concert  ',
      per_page: '25',
      featured: 'Off',
      include: ['1, 2', 3, '2'],
      status: 'Publish,draft',
      order: 'DESC',
      lat: '-45.5',
      start_date: 'tomorrow 9am',
      timezone: 'utc+5:30',
      ignored: 'x',
    });
    expect(error).toBeNull();
    expect({ ...instance }).toEqual({
      title: 'Concert',
      per_page: 25,
      featured: false,
      include: [1, 2, 3],
      status: ['publish', 'draft'],
      order: 'desc',
      lat: -45.5,
      start_date: 'tomorrow 9am',
      timezone: 'UTC+5:30',
    });
    expect(read(ReadParams, { title: 'x', featured: true }).instance.featured).toBe(true);
    expect(read(ReadParams, { title: 'x', featured: 1 }).instance.featured).toBe(true);
    expect(read(ReadParams, { title: 'x', per_page: 7 }).instance.per_page).toBe(7);
  });

  it('names every invalid parameter with what it allows', () => {
    const { error } = read(ReadParams, {
      title: 'x',
      per_page: '101',
      featured: 'maybe',
      include: '1,a',
      status: 'gone',
      order: '',
      lat: '91',
      start_date: 'someday',
      timezone: 'Mars/Olympus',
    });
    expect(error).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): featured, include, lat, order, per_page, start_date, status, timezone',
      data: {
        status: 400,
        params: {
          featured: 'must be a boolean: true/false, 1/0, yes/no or on/off',
          include: 'must be a list of integers (a JSON array, comma-separated, or repeated keys)',
          lat: 'must be a number from -90 to 90',
          order: 'must be one of: asc, desc',
          per_page: 'must be an integer from 1 to 100',
          start_date: expect.stringMatching(/^must be a date-time: /),
          status: 'must be one or more of: publish, draft',
          timezone: expect.stringMatching(/^must be an IANA time zone name/),
        },
      },
    });
  });

  it('treats a repeated single-value key as invalid and empty read values as invalid', () => {
    expect(read(ReadParams, { title: 'x', per_page: ['1', '2'] }).error?.data).toEqual({ status: 400, params: { per_page: 'must be an integer from 1 to 100' } });
    expect(read(ReadParams, { title: 'x', include: '' }).error?.data['params']).toEqual({ include: expect.any(String) });
    expect(read(ReadParams, { title: 'x', featured: null }).error?.data['params']).toEqual({ featured: expect.any(String) });
  });

  it('reports absent required parameters as missing', () => {
    expect(read(ReadParams, {}).error).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): title', data: { status: 400, params: ['title'] } });
  });

  it('clears write fields with empty values and checks URLs and e-mails', () => {
    const cleared = read(WriteParams, { website: '', email: ' ', venue: [], description: '', parent: '' });
    expect(cleared.error).toBeNull();
    expect({ ...cleared.instance }).toEqual({ website: '', email: '', venue: [], description: '', parent: null });
    const bad = read(WriteParams, { website: 'javascript:alert(1)', email: 'not-an-address', venue: '1,x' });
    expect(bad.error?.data['params']).toEqual({
      email: 'must be a valid e-mail address, or empty to clear',
      venue: 'must be a list of integers (a JSON array, comma-separated, or repeated keys)',
      website: 'must be an absolute http or https URL, or empty to clear',
    });
    expect(read(WriteParams, { website: 'https://example.org/a?b=c', email: 'a.b@example.org' }).error).toBeNull();
  });

  it('sanitises HTML against the allow-list', () => {
    const { instance } = read(WriteParams, { description: '<img src="x.png" onerror="alert(1)"><iframe src="x"></iframe><a href="javascript:x">y</a>' });
    expect(instance.description).toBe('<img src="x.png" /><a>y</a>');
  });
});

describe('readBoolean', () => {
  it('reads the eight words in any case and nothing else, names of Object members included', () => {
    expect(['TRUE', ' off ', 'Yes', '0'].map(readBoolean)).toEqual([true, false, true, false]);
    expect(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'maybe'].map(readBoolean)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});

describe('readList', () => {
  it('splits comma-separated strings, flattens arrays and drops blanks', () => {
    expect(readList(' 1, 2 ,,3')).toEqual(['1', '2', '3']);
    expect(readList(['a,b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(readList(5)).toEqual([5]);
  });

  it('takes an object as the list of its values, as PHP clients send arrays', () => {
    expect(readList({ '0': 5, '1': 'jazz' })).toEqual([5, 'jazz']);
    expect(readList({ id: '7' })).toEqual(['7']);
    expect(readList({})).toEqual([]);
  });
});

describe('readBracketKeys', () => {
  it('reads PHP form keys as lists and objects, and leaves other keys as they are', () => {
    expect(readBracketKeys({ 'categories[0]': '5', 'categories[1]': 'jazz', 'tags[id]': '3', 'venue[]': ['1', '2'], title: 'A' })).toEqual({
      categories: ['5', 'jazz'],
      tags: { id: '3' },
      venue: ['1', '2'],
      title: 'A',
    });
    const plain = { 'title': 'A', status: ['draft', 'pending'] };
    expect(readBracketKeys(plain)).toBe(plain);
    expect(readBracketKeys({ '__proto__[polluted]': '1', 'constructor[prototype][x]': '1', a: '1', 'b[0]': '2' })).toEqual({ a: '1', b: ['2'] });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
