import { isHttpUrl, param, ParamOptions, readInteger, single, ok, bad, trimmed, DIGITS } from '@calendar/shared/http';

export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'webp', 'avif', 'svg'] as const;

/** The extension of an image URL's path, or null when it is not one of IMAGE_EXTENSIONS. */
export function imageExtension(url: string): string | null {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return null;
  }
  const match = /\.([a-z0-9]+)$/i.exec(path);
  const extension = match?.[1].toLowerCase();
  return extension && (IMAGE_EXTENSIONS as readonly string[]).includes(extension) ? extension : null;
}

/** `image`: the id of a known media record or an absolute http(s) URL of an image; empty clears it. */
export function ImageParam(options: ParamOptions = {}): PropertyDecorator {
  return param(
    {
      schema: { type: ['integer', 'string'], description: 'Media id or image URL' },
      accepts: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string', pattern: trimmed(DIGITS) }, { type: 'string', format: 'uri' }] },
      rule: `must be the id of a known image or an http(s) URL of an image (${IMAGE_EXTENSIONS.map((e) => `.${e}`).join(' ')}), or empty to clear`,
      parse: (value) => {
        const id = readInteger(value);
        if (id !== undefined) return ok(id);
        const item = single(value);
        if (typeof item !== 'string') return bad;
        const url = item.trim();
        return isHttpUrl(url) && imageExtension(url) ? ok(url) : bad;
      },
    },
    { empty: 'null', ...options },
  );
}
