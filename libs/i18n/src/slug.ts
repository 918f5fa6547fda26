import { slugify } from 'transliteration';

export const SLUG_MAX_LENGTH = 200;

/** A slug made from a title in any script: transliterated (Chinese gives pinyin), lower-case, hyphenated. */
export function slugFromText(text: string): string {
  const slug = slugify(text, { lowercase: true, separator: '-', trim: true }).replace(/-{2,}/g, '-').replace(/^-|-$/g, '');
  return slug.slice(0, SLUG_MAX_LENGTH).replace(/-$/, '');
}

/**
 * Cleans a slug the client chose: lower-case, spaces to hyphens, no characters that cannot live in one
 * path segment. Letters of any script are kept as they are; returns '' when nothing usable remains.
 */
export function cleanExplicitSlug(input: string): string {
  return input
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/[/?#%\\"'<>`{}|^[\]\p{Cc}]+/gu, '')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, SLUG_MAX_LENGTH);
}

/** The first of `base`, `base-2`, `base-3`, ... that `taken` does not contain. */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let suffix = 2; ; suffix++) {
    const candidate = `${base.slice(0, SLUG_MAX_LENGTH - String(suffix).length - 1)}-${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
