/** A row of a translations table: one language's texts of one record. Missing texts are null. */
export interface TranslationRow {
  lang: string;
}

/**
 * Each translatable field in the requested language when that translation has it, otherwise in the
 * record's original language ("display as translated", SPEC §7).
 */
export function pickTranslated<R extends TranslationRow, K extends keyof R>(
  rows: readonly R[],
  fields: readonly K[],
  language: string,
  originalLanguage: string,
): { [F in K]: R[F] | null } {
  const requested = rows.find((row) => row.lang === language);
  const original = rows.find((row) => row.lang === originalLanguage) ?? rows[0];
  const picked = {} as { [F in K]: R[F] | null };
  for (const field of fields) {
    const own = requested?.[field];
    picked[field] = own !== null && own !== undefined && own !== '' ? own : (original?.[field] ?? null);
  }
  return picked;
}

/**
 * The `translations` key: one entry per language that has a translation, in the configured order.
 */
export function translationsKey<R extends TranslationRow, E>(
  rows: readonly R[],
  languages: readonly string[],
  entry: (row: R) => E,
): Record<string, E> {
  const key: Record<string, E> = {};
  const ordered = [...rows].sort((a, b) => rank(languages, a.lang) - rank(languages, b.lang));
  for (const row of ordered) key[row.lang] = entry(row);
  return key;
}

function rank(languages: readonly string[], language: string): number {
  const index = languages.indexOf(language);
  return index === -1 ? languages.length : index;
}

/** SQL for the presented value of a translated column: the request language's text, else the original's. */
export function presentedColumn(requestedAlias: string, originalAlias: string, column: string): string {
  return `COALESCE(NULLIF(${requestedAlias}.${column}, ''), ${originalAlias}.${column})`;
}

/**
 * The escape character of LIKE patterns. Not a backslash: MySQL reads `'\\'` in SQL text as an escape of its own.
 * Use as `LIKE :pattern ESCAPE '!'`.
 */
export const LIKE_ESCAPE = '!';

function escapeLike(text: string): string {
  return text.replace(/[!%_]/g, (char) => `${LIKE_ESCAPE}${char}`);
}

/** A LIKE pattern for "contains", case-folded. */
export function likeContains(text: string): string {
  return `%${escapeLike(text.toLowerCase())}%`;
}

/** A LIKE pattern for "starts with", exact case. */
export function likeStartsWith(text: string): string {
  return `${escapeLike(text)}%`;
}
