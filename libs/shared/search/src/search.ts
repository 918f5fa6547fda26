/*
 * Full-text search that runs the same on MySQL, MariaDB and SQLite: texts are cut into tokens here, stored in
 * the `search_tokens` table with a B-tree index on the token, and a search word becomes a range or equality
 * condition on that index. No engine's full-text parser is involved (MariaDB has no n-gram parser, InnoDB
 * skips words under three letters, FTS5 tokenizes differently), so the three engines find the same records.
 *
 * - Case and accents are folded (`Café` → `cafe`), compatibility forms unified (NFKD), HTML tags and entities
 *   removed.
 * - Words of alphabetic scripts are tokens; a search word matches any token it starts (`caf` finds `Café`).
 * - Han, Kana and Hangul have no spaces: a run of them is indexed as its overlapping pairs of characters plus
 *   its last character alone, and a search run of two or more characters must have all its pairs in the
 *   record (`音乐` finds `古典音乐会`); a single character matches as a prefix.
 */

/** The longest token kept; longer words are cut (and a longer search word is cut the same way). */
export const SEARCH_TOKEN_MAX = 64;

const TAG = /<[^>]*>/g;
const ENTITY = /&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp);/gi;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const MARKS = /\p{M}+/gu;
const RUN = /[\p{L}\p{N}]+/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/u;
const SEGMENTS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

function decodeEntity(_match: string, name: string): string {
  const lower = name.toLowerCase();
  if (lower.startsWith('#x')) return safeCodePoint(parseInt(lower.slice(2), 16));
  if (lower.startsWith('#')) return safeCodePoint(parseInt(lower.slice(1), 10));
  return NAMED[lower] ?? ' ';
}

function safeCodePoint(code: number): string {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
}

/** Text as it is compared: tags and entities resolved, compatibility forms unified, accents removed, lower case. */
export function foldSearchText(text: string): string {
  return text.replace(TAG, ' ').replace(ENTITY, decodeEntity).normalize('NFKD').replace(MARKS, '').toLowerCase().normalize('NFC');
}

function cut(token: string): string {
  const chars = [...token];
  return chars.length > SEARCH_TOKEN_MAX ? chars.slice(0, SEARCH_TOKEN_MAX).join('') : token;
}

/** The runs of letters and digits of a folded text, each split where it passes between CJK and other scripts. */
function segments(folded: string): string[] {
  return (folded.match(RUN) ?? []).flatMap((run) => run.match(SEGMENTS) ?? []);
}

/** The tokens a text is indexed under. */
export function searchTokens(text: string): Set<string> {
  const tokens = new Set<string>();
  for (const segment of segments(foldSearchText(text))) {
    if (!CJK.test(segment)) {
      tokens.add(cut(segment));
      continue;
    }
    const chars = [...segment];
    for (let i = 0; i + 1 < chars.length; i++) tokens.add(chars[i] + chars[i + 1]);
    tokens.add(chars[chars.length - 1]);
  }
  return tokens;
}

/** One condition of a search: a token the record must have, or a prefix one of its tokens must start with. */
export interface SearchTerm {
  token: string;
  prefix: boolean;
}

/**
 * What a search string asks for: every term must hold. Empty when the string has no letter or digit (such a
 * search matches nothing).
 */
export function searchTerms(search: string): SearchTerm[] {
  const terms = new Map<string, SearchTerm>();
  const add = (token: string, prefix: boolean) => {
    const key = `${prefix ? 'p' : 'e'}:${token}`;
    if (!terms.has(key)) terms.set(key, { token, prefix });
  };
  for (const segment of segments(foldSearchText(search))) {
    const chars = [...segment];
    if (!CJK.test(segment) || chars.length === 1) add(cut(segment), true);
    else for (let i = 0; i + 1 < chars.length; i++) add(chars[i] + chars[i + 1], false);
  }
  return [...terms.values()];
}

/** The first string after every string that starts with `prefix`, in code point order; null when there is none. */
export function prefixUpperBound(prefix: string): string | null {
  const chars = [...prefix];
  while (chars.length > 0) {
    const last = chars.pop() as string;
    const code = last.codePointAt(0) as number;
    // Skip the surrogate range, which no stored string holds on its own.
    const next = code === 0xd7ff ? 0xe000 : code + 1;
    if (next <= 0x10ffff) return chars.join('') + String.fromCodePoint(next);
  }
  return null;
}

/** One language's texts of a record; null or empty fields fall back to the original language's (SPEC §7). */
export interface SearchableTexts {
  lang: string;
  fields: (string | null | undefined)[];
}

/** A row of the search index: the record is found under `token` for requests in `lang`. */
export interface SearchEntry {
  lang: string;
  /** The row comes from the original language, which also serves languages the record has no text in. */
  original: boolean;
  token: string;
}

/**
 * The index rows of a record: for each language it has texts in, the tokens of the text it is presented with
 * in that language (each field from that language, or from the original language when empty there).
 */
export function searchEntries(translations: SearchableTexts[], originalLang: string): SearchEntry[] {
  const original = translations.find((row) => row.lang === originalLang);
  const entries: SearchEntry[] = [];
  for (const row of translations) {
    const presented = row.fields.map((field, index) => (field ? field : (original?.fields[index] ?? '')) || '');
    for (const token of searchTokens(presented.join(' \n '))) entries.push({ lang: row.lang, original: row.lang === originalLang, token });
  }
  return entries;
}

/** How a list condition on the index is written (see `searchConditions`). */
export interface SearchSql {
  /** The `kind` of the records in `search_tokens`. */
  kind: string;
  /** The SQL expression of the record's id in the list query (`e.id`, `r.id`). */
  id: string;
  /** The records' translation table and its column naming the record, for the language fallback. */
  translationTable: string;
  ownerColumn: string;
  language: string;
  /** As a probe per record (a scalar subquery by record id) instead of an `IN` set. */
  probe?: boolean;
  /**
   * The set itself, as a statement selecting each matching record's id once (`id`), for a list that reads from it
   * (a total driven from the matches rather than from the window); `'listed'`: of the listed records only (events
   * published and not hidden from listings), each with what its rows carry of its row as the listing index holds it
   * (`listedColumns`), read from the index too, so that a list's conditions on those columns are checked on the set
   * itself.
   */
  asSet?: boolean | 'listed';
  /**
   * Events: bounds on the start (UTC, as stored) that every event of the list meets. The `IN` set then reads only
   * the rows of the term that start within them (`search_tokens.start_utc`, index `ix_search_tokens_start`), so its
   * cost follows the matching events of the window rather than every event of the window or every match.
   */
  starts?: { from?: string; to?: string };
  /**
   * The engine, to name the index each form of an event search reads: the set of a window by start
   * (`ix_search_tokens_start`), where MySQL and MariaDB would otherwise probe the words of each event of the window;
   * the probe by record (`ix_search_tokens_record`), where SQLite, which keeps no statistics, would otherwise read
   * every row of the word for each event.
   */
  engine?: 'mysql' | 'sqlite';
}

/** `search_tokens s` read through `index` on `engine` (none named without an engine). */
function tokensThrough(index: string, engine: SearchSql['engine']): string {
  return engine === 'mysql' ? `search_tokens s FORCE INDEX (${index})` : engine === 'sqlite' ? `search_tokens s INDEXED BY ${index}` : 'search_tokens s';
}

/**
 * One SQL condition per search term, with its parameters: each term a range (prefix) or equality on the token
 * index; a row of the request language matches, and a row of the original language matches for records with no
 * text in the request language (SPEC §7 fallback).
 */
export function searchConditions(terms: SearchTerm[], sql: SearchSql): { sql: string; params: Record<string, unknown> }[] {
  if (terms.length === 0) return [{ sql: '1 = 0', params: {} }];
  const language = languageCondition(sql);
  return terms.map((term, index) => {
    const upper = term.prefix ? prefixUpperBound(term.token) : null;
    const starts = [sql.starts?.from === undefined ? null : 's.start_utc >= :searchFrom', sql.starts?.to === undefined ? null : 's.start_utc <= :searchTo'].filter((bound) => bound !== null);
    const byStart = !sql.probe && starts.length > 0;
    // The start bounds the index range (kind, token, start_utc) only under one token: a prefix is read as the word
    // itself by its start, or a longer word (exact whatever words exist; the second range holds only the rows of
    // longer words; MySQL and MariaDB read the two as two ranges of the index, SQLite as a union). As one range of
    // tokens it read every row of the word, of any date.
    const word = `s.token = :token${index}`;
    const longer = `s.token > :token${index} AND s.token < :upper${index}`;
    const token = !term.prefix
      ? word
      : upper === null
        ? `s.token >= :token${index}`
        : byStart
          ? `((${word} AND ${starts.join(' AND ')}) OR (${longer}))`
          : `s.token >= :token${index} AND s.token < :upper${index}`;
    const where = `s.kind = :searchKind AND ${token} AND ${language}`;
    const params = { searchKind: sql.kind, searchLang: sql.language, searchOriginal: true, [`token${index}`]: term.token, [`upper${index}`]: upper };
    if (sql.probe) return { sql: `(SELECT 1 FROM ${tokensThrough('ix_search_tokens_record', sql.engine)} WHERE s.record_id = ${sql.id} AND ${where} LIMIT 1) = 1`, params };
    const table = byStart ? tokensThrough('ix_search_tokens_start', sql.engine) : 'search_tokens s';
    // On SQLite, a prefix bounded by start is the union of its two ranges, each read by the index on its own: written
    // as one OR, SQLite reads every row of the kind from the index, which holds every column the set asks for (a
    // searched total at 100,000 events: 192 ms instead of 0.2).
    const split = byStart && term.prefix && upper !== null && sql.engine === 'sqlite';
    const sets = (split ? [word, longer] : [token]).map(
      (run) => `FROM ${table} WHERE ${[`s.kind = :searchKind AND ${run} AND ${language}`, ...starts].join(' AND ')}`,
    );
    const selected = sql.asSet === 'listed' ? `s.record_id AS id, ${listedColumns('s')}` : 's.record_id AS id';
    const listed = sql.asSet === 'listed' ? ' AND s.listed = 1' : '';
    return {
      sql: sql.asSet ? sets.map((set) => `SELECT DISTINCT ${selected} ${set}${listed}`).join(' UNION ') : `${sql.id} IN (${sets.map((set) => `SELECT s.record_id ${set}`).join(' UNION ALL ')})`,
      params: { ...params, searchFrom: sql.starts?.from, searchTo: sql.starts?.to },
    };
  });
}

/**
 * What a row standing for a listed event carries of it (`listing-state.ts` in the database library), named as the
 * events' columns are, for a set that stands in for the listing index (`events e`) in a list's statement: its start,
 * end and whether featured, and the status and listing flag every listed event has.
 */
export function listedColumns(alias: string): string {
  return `${alias}.start_utc AS start_utc, ${alias}.end_utc AS end_utc, ${alias}.featured AS featured, 'publish' AS status, 0 AS hide_from_listings`;
}

/** A row of the request language matches, and a row of the original language for records with no text in it. */
function languageCondition(sql: SearchSql): string {
  return `(s.lang = :searchLang OR (s.original = :searchOriginal AND NOT EXISTS (SELECT 1 FROM ${sql.translationTable} x WHERE x.${sql.ownerColumn} = s.record_id AND x.lang = :searchLang)))`;
}

/**
 * The runs of one term's index rows within start bounds, each a condition on `search_tokens s`: the word itself,
 * whose rows the index `ix_search_tokens_start` (kind, token, start_utc, record_id, lang, original) gives in
 * (start, record) order, a record once (one row per token and language, and one language's row at most matches);
 * for a prefix, then the longer words, a range of tokens read whole and sorted, where a record with two such words
 * has a row for each (`distinct`). A record with the word and a longer one is in both runs (`EventRepository`'s
 * page along a word merges them). Empty without start bounds.
 */
export function searchRuns(term: SearchTerm, sql: SearchSql): { where: string; params: Record<string, unknown>; distinct: boolean }[] {
  const starts = [sql.starts?.from === undefined ? null : 's.start_utc >= :runFrom', sql.starts?.to === undefined ? null : 's.start_utc <= :runTo'].filter((bound) => bound !== null);
  if (starts.length === 0) return [];
  const params = { searchKind: sql.kind, searchLang: sql.language, searchOriginal: true, runToken: term.token, runFrom: sql.starts?.from, runTo: sql.starts?.to };
  const run = (token: string, distinct: boolean, upper?: string) => ({
    where: ['s.kind = :searchKind', token, ...starts, languageCondition(sql)].join(' AND '),
    params: upper === undefined ? params : { ...params, runUpper: upper },
    distinct,
  });
  const word = run('s.token = :runToken', false);
  if (!term.prefix) return [word];
  const upper = prefixUpperBound(term.token);
  return [word, upper === null ? run('s.token > :runToken', true) : run('s.token > :runToken AND s.token < :runUpper', true, upper)];
}

/**
 * The index rows of a record with its translations and the texts it shares between languages (a venue's
 * address): each language's own fields, then the shared ones.
 */
export function recordSearchEntries(translations: { lang: string; name: string | null; description: string | null; excerpt?: string | null }[], originalLang: string, shared: (string | null | undefined)[] = []): SearchEntry[] {
  return searchEntries(
    translations.map((row) => ({ lang: row.lang, fields: [row.name, row.excerpt, row.description, ...shared] })),
    originalLang,
  );
}
