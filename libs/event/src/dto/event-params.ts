import { bad, commaList, DIGITS, listForms, SOME_ITEM, ok, param, ParamOptions, readInteger, readList } from '@calendar/shared/http';

/** `categories` / `tags` on writes and filters: ids, slugs or names, in any list form; `""` or `[]` means none. */
export function TermListParam(options: ParamOptions = {}): PropertyDecorator {
  return param(
    {
      schema: { type: 'array', items: { type: ['integer', 'string'] } },
      accepts: listForms([{ type: 'integer', minimum: 0 }], SOME_ITEM),
      rule: 'must be a list of term ids, slugs or names',
      parse: (value) => {
        const items = readList(value).map((item) => readInteger(item) ?? (typeof item === 'string' ? item : undefined));
        if (items.length === 0) return options.empty && options.empty !== 'invalid' ? ok([]) : bad;
        return items.some((item) => item === undefined) ? bad : ok([...new Set(items)]);
      },
    },
    options,
  );
}

/** One item of a `venue` / `organizer` write: an existing record, or the fields of a new one. */
export type LinkItem = { id: number } | { create: Record<string, unknown> };

/**
 * `venue` / `organizer` on writes (SPEC §4.2): an id, a list of ids, `{id}` objects, or objects with create
 * fields; `""`, `[]` or `0` unlinks everything.
 */
export function LinkListParam(options: ParamOptions = {}): PropertyDecorator {
  return param(
    {
      schema: { type: 'array', items: { oneOf: [{ type: 'integer' }, { type: 'object' }] } },
      accepts: listForms([{ type: 'integer', minimum: 0 }, { type: 'object', description: '{"id": ...}, or the fields of a new record' }], commaList(DIGITS)),
      rule: 'must be an id, a list of ids, {"id": ...} objects, or objects with the fields of a new record; empty or 0 to unlink',
      parse: (value) => {
        const raw = Array.isArray(value) ? value.flatMap((item) => (typeof item === 'string' ? readList(item) : [item])) : typeof value === 'object' && value !== null ? [value] : readList(value);
        const items: LinkItem[] = [];
        for (const item of raw) {
          const id = readInteger(item);
          if (id !== undefined) {
            if (id !== 0) items.push({ id });
            continue;
          }
          if (typeof item !== 'object' || item === null || Array.isArray(item)) return bad;
          const record = item as Record<string, unknown>;
          if (record['id'] !== undefined) {
            const nested = readInteger(record['id']);
            if (nested === undefined) return bad;
            items.push({ id: nested });
          } else {
            items.push({ create: record });
          }
        }
        return ok(items);
      },
    },
    { empty: 'null', ...options },
  );
}

/**
 * `recurrence` on writes (SPEC §13): RFC 5545 lines (`RRULE:...`, `RDATE...`, `EXDATE...`) as a list, or as one
 * string with a line per row; `""` or `[]` makes the event single again. The lines themselves are checked by
 * the service, which says what is wrong with them.
 */
export function RecurrenceParam(options: ParamOptions = {}): PropertyDecorator {
  return param(
    {
      schema: { type: 'array', items: { type: 'string' } },
      accepts: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }] },
      rule: 'must be a list of RFC 5545 lines (RRULE:..., RDATE..., EXDATE...), or one string of such lines; empty for none',
      parse: (value) => {
        const items = typeof value === 'string' ? value.split(/\r?\n/) : Array.isArray(value) ? value : null;
        if (!items || items.some((item) => typeof item !== 'string')) return bad;
        return ok((items as string[]).map((item) => item.trim()).filter((item) => item !== ''));
      },
    },
    options,
  );
}
