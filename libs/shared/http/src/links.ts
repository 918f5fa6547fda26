import { Injectable } from '@nestjs/common';
import { AppConfig } from '@calendar/shared/config';
import { NAMESPACE } from './constants';

const PLAIN_PATH = /^[A-Za-z0-9\-._~/]*$/;

/** Encodes each path segment, so that non-ASCII slugs appear percent-encoded inside URLs. */
export function encodePath(path: string): string {
  // Most paths (ids, ASCII slugs) need no encoding: answers build several per record.
  if (PLAIN_PATH.test(path)) return path;
  return path
    .split('/')
    .map((segment) => encodeURIComponent(decodeURIComponentSafe(segment)))
    .join('/');
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Serialises filters as a query string: lists comma-joined, in the order given. */
export function toQueryString(params: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    const text = Array.isArray(value) ? value.join(',') : String(value);
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(text)}`);
  }
  return parts.join('&');
}

/**
 * Builds the absolute URLs of the API in a language base (SPEC §11.6), from the origin the request came to
 * (`requestOrigin` at the edge; `SITE_URL` wins for public pages and global ids).
 */
@Injectable()
export class LinkBuilder {
  constructor(private readonly config: AppConfig) {}

  private languagePrefix(language: string): string {
    return language === this.config.defaultLanguage ? '' : `/${language}`;
  }

  /** `{origin}{/lang}{api_root}` */
  apiRoot(origin: string, language: string): string {
    return `${origin}${this.languagePrefix(language)}${this.config.apiRoot}`;
  }

  /** `{origin}{/lang}{api_root}/calendar/events/v1` */
  namespace(origin: string, language: string): string {
    return `${this.apiRoot(origin, language)}/${NAMESPACE}`;
  }

  /** An address inside the namespace, e.g. `rest(origin, 'fr', 'categories/12')`. */
  rest(origin: string, language: string, path: string, query?: Record<string, unknown>): string {
    const qs = query ? toQueryString(query) : '';
    return `${this.namespace(origin, language)}/${encodePath(path)}${qs ? `?${qs}` : ''}`;
  }

  /** A public page: `SITE_URL{/lang}/{path}/`. */
  site(origin: string, language: string, path: string): string {
    const base = this.config.siteUrl ?? origin;
    return `${base}${this.languagePrefix(language)}/${encodePath(path)}/`;
  }

  /** `<host[:port] of SITE_URL>?id=<id>` */
  globalId(origin: string, id: number): string {
    return `${this.siteHost(origin)}?id=${id}`;
  }

  /** The host[:port] of SITE_URL, or of the request's origin when it is not set. */
  siteHost(origin: string): string {
    const base = this.config.siteUrl ?? origin;
    let host = this.hosts.get(base);
    if (host === undefined) {
      host = new URL(base).host;
      if (this.hosts.size < 100) this.hosts.set(base, host);
    }
    return host;
  }

  /** Hosts of the origins seen, so that a URL is not parsed for every record of an answer. */
  private readonly hosts = new Map<string, string>();
}
