import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { parseDateTime, parseTimeZone, DATE_TIME_RULE, TIME_ZONE_RULE } from '@calendar/shared/time';
import { Transform } from 'class-transformer';
import { IsDefined, ValidateBy, ValidateIf } from 'class-validator';
import { FixedOffsetZone } from 'luxon';
import sanitizeHtml from 'sanitize-html';

/*
 * The parameter types of SPEC §2.2 as property decorators. Each one declares, in one place, how a raw value
 * (query string, form field or JSON) is read, what is allowed (the text of the 400), and how the parameter is
 * documented: the OpenAPI document and the namespace index are generated from the same decorators.
 */

/** A raw value that could not be read; validation reports it with the parameter's rule. */
class Unreadable {
  constructor(readonly raw: unknown) {}
}

export type Parsed = { ok: true; value: unknown } | { ok: false };
export const ok = (value: unknown): Parsed => ({ ok: true, value });
export const bad: Parsed = { ok: false };

/** What an empty value (`""`, `null`, `[]`) means for a parameter. */
export type EmptyMeaning =
  /** 400, as for every typed parameter on reads (SPEC §11.2) */
  | 'invalid'
  /** the field is cleared: `null` */
  | 'null'
  /** the field is cleared: `""` */
  | 'empty-string';

export interface ParamOptions {
  description?: string;
  required?: boolean;
  default?: unknown;
  /** For write fields: what `""` means. Reads leave it at 'invalid'. */
  empty?: EmptyMeaning;
}

export interface ParamSpec {
  /** The OpenAPI schema of the parameter's value, as the service reads it (the namespace index shows this). */
  schema: Record<string, unknown>;
  /**
   * Every form the parameter is accepted in, in the query string, a form field or JSON (SPEC §2.2): the API
   * description declares this one. The value schema when not given.
   */
  accepts?: Record<string, unknown>;
  /** What is allowed, as the 400 says it: "must be ...". */
  rule: string;
  /** Reads a raw non-empty value. */
  parse: (value: unknown) => Parsed;
}

function isEmpty(value: unknown): boolean {
  return value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
}

/** A parameter type of its own, for the few that belong to one context (an image id or URL, say). */
export function param(spec: ParamSpec, options: ParamOptions): PropertyDecorator {
  const empty = options.empty ?? 'invalid';
  const read = (value: unknown): unknown => {
    if (value === undefined) return undefined;
    if (isEmpty(value) && !spec.schema['items']) {
      if (empty === 'null') return null;
      if (empty === 'empty-string') return '';
      return new Unreadable(value);
    }
    const parsed = spec.parse(value);
    return parsed.ok ? parsed.value : new Unreadable(value);
  };
  const required = options.required ?? false;
  const accepts = empty === 'invalid' ? (spec.accepts ?? spec.schema) : orEmpty(spec.accepts ?? spec.schema);
  const decorators: PropertyDecorator[] = [
    ApiProperty({
      ...spec.schema,
      [ACCEPTS]: accepts,
      required,
      ...(options.default !== undefined ? { default: options.default } : {}),
      ...(options.description ? { description: options.description } : {}),
    } as never),
    Transform(({ value }) => read(value)),
    ValidateBy({
      name: 'param',
      validator: {
        validate: (value) => !(value instanceof Unreadable),
        defaultMessage: () => spec.rule,
      },
    }),
  ];
  decorators.push(required ? IsDefined({ message: 'required' }) : ValidateIf((_object, value) => value !== undefined));
  return applyDecorators(...decorators);
}

/** The extension key under which a parameter's accepted forms travel from its decorator to the document. */
export const ACCEPTS = 'x-accepts';

/** `^\s*...\s*$`: values are trimmed before they are read. */
export const trimmed = (pattern: string) => `^\\s*(?:${pattern})\\s*$`;

/** An alternation of the words in any case (JSON Schema patterns have no case-insensitive flag). */
export function anyCaseWords(words: readonly string[]): string {
  const letters = (word: string) => [...word].map((c) => (c.toLowerCase() !== c.toUpperCase() ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))).join('');
  return words.map(letters).join('|');
}

/** A pattern matching exactly one of the words in any case, trimmed. */
export function anyCase(words: readonly string[]): string {
  return trimmed(anyCaseWords(words));
}

/**
 * A comma-separated list of items matching `item` (empty items are skipped, SPEC §2.2). `item` must neither start
 * nor end with whitespace or a comma, so that each character has one way to match and no input backtracks for long.
 */
export const commaList = (item: string) => `^[\\s,]*(?:${item})(?:\\s*,[\\s,]*(?:${item}))*[\\s,]*$`;

export const DIGITS = '\\d+';
const NUMBER_TEXT = '[-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?';

/** A comma-separated list of free strings: anything with one item that is not blank (a search for it, unanchored). */
export const SOME_ITEM = '[^\\s,]';

/** The accepted forms of a write field that `""` or `null` clears. */
function orEmpty(schema: Record<string, unknown>): Record<string, unknown> {
  const alternatives = Array.isArray(schema['anyOf']) ? (schema['anyOf'] as Record<string, unknown>[]) : [schema];
  return { anyOf: [...alternatives, { type: 'string', pattern: '^\\s*$' }, { type: 'null' }] };
}

/**
 * A list in every form of SPEC §2.2: one item, a comma-separated string (`textPattern`), an array of either, or an
 * object whose values are the items.
 * The patterns are written so that no input makes a validator backtrack for long.
 */
export function listForms(item: Record<string, unknown>[], textPattern: string): Record<string, unknown> {
  const text = { type: 'string', pattern: textPattern };
  const one = { anyOf: [...item, text] };
  return {
    anyOf: [
      ...item,
      text,
      { type: 'array', items: one },
      { type: 'object', additionalProperties: one, description: 'The list of its values, as PHP clients send arrays ({"0": 5, "1": "jazz"}, or keys[0]=5 in a form); {} for none' },
    ],
  };
}

export function single(value: unknown): unknown {
  // A repeated key (`a=1&a=2`) is not a single value.
  return Array.isArray(value) ? undefined : value;
}

export function readInteger(value: unknown): number | undefined {
  const item = single(value);
  if (typeof item === 'number') return Number.isSafeInteger(item) && item >= 0 ? item : undefined;
  if (typeof item !== 'string' || !/^\d+$/.test(item.trim())) return undefined;
  const number = Number(item.trim());
  return Number.isSafeInteger(number) ? number : undefined;
}

const BOOLEAN_WORDS: Record<string, boolean> = { true: true, false: false, '1': true, '0': false, yes: true, no: false, on: true, off: false };

export function readBoolean(value: unknown): boolean | undefined {
  const item = single(value);
  if (typeof item === 'boolean') return item;
  if (item === 1 || item === 0) return item === 1;
  if (typeof item !== 'string') return undefined;
  const word = item.trim().toLowerCase();
  // Own words only: `__proto__` or `constructor` must not read the object's prototype.
  return Object.hasOwn(BOOLEAN_WORDS, word) ? BOOLEAN_WORDS[word] : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

/**
 * Splits a list parameter: JSON array, comma-separated string, repeated keys, or a single value. An object is the
 * list of its values, as PHP clients send arrays (`{"0": 5, "1": "jazz"}`, `categories[0]=5`); `{}` is no item.
 */
export function readList(value: unknown): unknown[] {
  const items = Array.isArray(value) ? value : isPlainObject(value) ? Object.values(value) : [value];
  return items.flatMap((item) => (typeof item === 'string' ? item.split(',') : [item])).map((item) => (typeof item === 'string' ? item.trim() : item)).filter((item) => item !== '');
}

/** A non-negative integer given as decimal digits or a JSON number. */
export function IntegerParam(options: ParamOptions & { min?: number; max?: number } = {}): PropertyDecorator {
  const { min = 0, max } = options;
  const rule = max !== undefined ? `must be an integer from ${min} to ${max}` : min > 0 ? `must be an integer of at least ${min}` : 'must be an integer';
  return param(
    {
      schema: { type: 'integer', minimum: min, ...(max !== undefined ? { maximum: max } : {}) },
      accepts: { anyOf: [{ type: 'integer', minimum: min, ...(max !== undefined ? { maximum: max } : {}) }, { type: 'string', pattern: trimmed(DIGITS) }] },
      rule,
      parse: (value) => {
        const number = readInteger(value);
        return number !== undefined && number >= min && (max === undefined || number <= max) ? ok(number) : bad;
      },
    },
    options,
  );
}

/** A number such as a coordinate, with an optional range. */
export function NumberParam(options: ParamOptions & { min?: number; max?: number; exclusiveMin?: boolean } = {}): PropertyDecorator {
  const { min, max, exclusiveMin } = options;
  const range =
    min !== undefined && max !== undefined ? ` from ${min} to ${max}` : min !== undefined ? (exclusiveMin ? ` greater than ${min}` : ` of at least ${min}`) : '';
  return param(
    {
      schema: { type: 'number', ...(min !== undefined ? (exclusiveMin ? { exclusiveMinimum: min } : { minimum: min }) : {}), ...(max !== undefined ? { maximum: max } : {}) },
      accepts: { anyOf: [{ type: 'number' }, { type: 'string', pattern: trimmed(NUMBER_TEXT) }] },
      rule: `must be a number${range}`,
      parse: (value) => {
        const item = single(value);
        const text = typeof item === 'number' ? String(item) : typeof item === 'string' ? item.trim() : '';
        if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return bad;
        const number = Number(text);
        if (!Number.isFinite(number)) return bad;
        if (min !== undefined && (exclusiveMin ? number <= min : number < min)) return bad;
        if (max !== undefined && number > max) return bad;
        return ok(number);
      },
    },
    options,
  );
}

/** `true`/`false`, `1`/`0`, `yes`/`no`, `on`/`off` in any case, or a JSON boolean. */
export function BooleanParam(options: ParamOptions = {}): PropertyDecorator {
  return param(
    {
      schema: { type: 'boolean' },
      accepts: { anyOf: [{ type: 'boolean' }, { enum: [0, 1] }, { type: 'string', pattern: anyCase(Object.keys(BOOLEAN_WORDS)) }] },
      rule: 'must be a boolean: true/false, 1/0, yes/no or on/off',
      parse: (value) => {
        const flag = readBoolean(value);
        return flag === undefined ? bad : ok(flag);
      },
    },
    options,
  );
}

/** A list of non-negative integers (SPEC §2.2 list forms). `""` or `[]` is an empty list on writes. */
export function IntegerListParam(options: ParamOptions = {}): PropertyDecorator {
  return listParam('integer', 'must be a list of integers (a JSON array, comma-separated, or repeated keys)', readInteger, options, undefined, listForms([{ type: 'integer', minimum: 0 }], commaList(DIGITS)));
}

/** A list of strings from a fixed set, or of any non-empty strings when `values` is not given. */
export function StringListParam(options: ParamOptions & { values?: readonly string[] } = {}): PropertyDecorator {
  const values = options.values;
  const rule = values ? `must be one or more of: ${values.join(', ')}` : 'must be a list of strings';
  const readItem = (item: unknown) => {
    if (typeof item !== 'string' && typeof item !== 'number') return undefined;
    const text = String(item).trim();
    if (!values) return text;
    return values.find((allowed) => allowed === text.toLowerCase());
  };
  const accepts = values ? listForms([], commaList(anyCaseWords(values))) : listForms([{ type: 'number' }], SOME_ITEM);
  return listParam('string', rule, readItem, options, values, accepts);
}

function listParam(
  itemType: 'integer' | 'string',
  rule: string,
  readItem: (item: unknown) => unknown,
  options: ParamOptions,
  values: readonly string[] | undefined,
  accepts: Record<string, unknown>,
): PropertyDecorator {
  return param(
    {
      schema: { type: 'array', items: { type: itemType, ...(values ? { enum: [...values] } : {}) } },
      accepts,
      rule,
      parse: (value) => {
        const raw = readList(value);
        if (raw.length === 0) return options.empty !== undefined && options.empty !== 'invalid' ? ok([]) : bad;
        const items = raw.map(readItem);
        return items.some((item) => item === undefined) ? bad : ok([...new Set(items)]);
      },
    },
    options,
  );
}

/** One of a fixed set of words, in any case. */
export function EnumParam(values: readonly string[], options: ParamOptions = {}): PropertyDecorator {
  return param(
    {
      schema: { type: 'string', enum: [...values] },
      accepts: { anyOf: [{ type: 'string', enum: [...values] }, { type: 'string', pattern: anyCase(values) }] },
      rule: `must be one of: ${values.join(', ')}`,
      parse: (value) => {
        const item = single(value);
        if (typeof item !== 'string') return bad;
        const match = values.find((allowed) => allowed === item.trim().toLowerCase());
        return match === undefined ? bad : ok(match);
      },
    },
    options,
  );
}

/** Plain text, trimmed. Markup is kept as text, never interpreted. */
/**
 * The longest `search` a list accepts, in characters. A search box never needs more, and SQLite refuses LIKE
 * patterns over 50,000 bytes, which a longer value would reach.
 */
export const SEARCH_MAX_LENGTH = 200;

/** The `search` parameter of a list: a non-empty string of at most SEARCH_MAX_LENGTH characters. */
export function SearchParam(options: ParamOptions = {}): PropertyDecorator {
  return StringParam({ ...options, maxLength: SEARCH_MAX_LENGTH });
}

export function StringParam(options: ParamOptions & { maxLength?: number } = {}): PropertyDecorator {
  const { maxLength } = options;
  return param(
    {
      schema: { type: 'string', ...(maxLength ? { maxLength } : {}) },
      accepts: { anyOf: [{ type: 'string', ...(maxLength ? { maxLength } : {}) }, { type: 'number' }] },
      rule: `must be a${options.empty === undefined || options.empty === 'invalid' ? ' non-empty' : ''} string${maxLength ? ` of at most ${maxLength} characters` : ''}`,
      parse: (value) => {
        const item = single(value);
        if (typeof item !== 'string' && typeof item !== 'number') return bad;
        const text = String(item).trim();
        return maxLength && [...text].length > maxLength ? bad : ok(text);
      },
    },
    options,
  );
}

/** Tags and attributes kept in HTML fields; everything else is removed on write. */
export const HTML_ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'span', 'del', 'ins', 'sub', 'sup'],
  allowedAttributes: {
    a: ['href', 'name', 'target', 'rel', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    '*': ['class', 'lang', 'dir'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowProtocolRelative: false,
};

export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, HTML_ALLOWED).trim();
}

/** HTML text, sanitised against a safe allow-list (no scripts, handlers or javascript: URLs). */
export function HtmlParam(options: ParamOptions = {}): PropertyDecorator {
  return param(
    {
      schema: { type: 'string', contentMediaType: 'text/html' },
      accepts: { anyOf: [{ type: 'string', contentMediaType: 'text/html' }, { type: 'number' }] },
      rule: 'must be a string of HTML',
      parse: (value) => {
        const item = single(value);
        return typeof item === 'string' || typeof item === 'number' ? ok(sanitizeRichText(String(item))) : bad;
      },
    },
    options,
  );
}

/** Any date-time form of SPEC §2.2; kept as text, read later in the reference zone of the operation. */
export function DateTimeParam(options: ParamOptions = {}): PropertyDecorator {
  return param(
    {
      schema: { type: 'string' },
      accepts: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      rule: `must be ${DATE_TIME_RULE}`,
      parse: (value) => {
        const item = single(value);
        if (typeof item !== 'string' && typeof item !== 'number') return bad;
        const text = String(item).trim();
        return parseDateTime(text, { zone: FixedOffsetZone.utcInstance }) ? ok(text) : bad;
      },
    },
    options,
  );
}

/** An IANA zone name or a `UTC±H[:MM]` offset; the value becomes the zone's canonical name. */
export function TimeZoneParam(options: ParamOptions = {}): PropertyDecorator {
  return param(
    {
      schema: { type: 'string' },
      rule: `must be ${TIME_ZONE_RULE}`,
      parse: (value) => {
        const item = single(value);
        const zone = typeof item === 'string' ? parseTimeZone(item) : null;
        return zone ? ok(zone.name) : bad;
      },
    },
    options,
  );
}

export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** An absolute http(s) URL. */
export function UrlParam(options: ParamOptions = {}): PropertyDecorator {
  return param(
    {
      schema: { type: 'string', format: 'uri' },
      rule: 'must be an absolute http or https URL, or empty to clear',
      parse: (value) => {
        const item = single(value);
        return typeof item === 'string' && isHttpUrl(item.trim()) ? ok(item.trim()) : bad;
      },
    },
    options,
  );
}

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

/** A syntactically valid e-mail address. */
export function EmailParam(options: ParamOptions = {}): PropertyDecorator {
  return param(
    {
      schema: { type: 'string', format: 'email' },
      rule: 'must be a valid e-mail address, or empty to clear',
      parse: (value) => {
        const item = single(value);
        return typeof item === 'string' && item.trim().length <= 254 && EMAIL.test(item.trim()) ? ok(item.trim()) : bad;
      },
    },
    options,
  );
}
