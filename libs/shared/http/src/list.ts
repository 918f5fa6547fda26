import type { FastifyReply } from 'fastify';
import { ApiException } from './api-exception';
import { JsonText, listBytes } from './json-text';

export interface PageRequest {
  page: number;
  per_page: number;
}

/** `page` beyond the last page (and > 1) is a 404 for every list (SPEC §3.3). */
export function assertPageExists(kind: string, request: PageRequest, total: number): void {
  if (request.page > 1 && request.page > totalPages(total, request.per_page)) throw ApiException.archivePageNotFound(kind);
}

export function totalPages(total: number, perPage: number): number {
  return total === 0 ? 0 : Math.ceil(total / perPage);
}

/** One page of a list; rendered as the list envelope of SPEC §3.3 with its headers. */
export class ListResult<T> {
  constructor(
    /** Body key: `events`, `categories`, ... */
    readonly key: string,
    readonly items: T[],
    readonly total: number,
    readonly page: PageRequest,
    /** The URL of a page of this list, with every effective filter. */
    readonly pageUrl: (page: number) => string,
  ) {}

  get totalPages(): number {
    return totalPages(this.total, this.page.per_page);
  }

  toBody(): Record<string, unknown> {
    const body: Record<string, unknown> = { [this.key]: this.items, rest_url: this.pageUrl(this.page.page) };
    if (this.page.page < this.totalPages) body['next_rest_url'] = this.pageUrl(this.page.page + 1);
    if (this.page.page > 1) body['previous_rest_url'] = this.pageUrl(this.page.page - 1);
    body['total'] = this.total;
    body['total_pages'] = this.totalPages;
    return body;
  }

  /**
   * The body as the UTF-8 bytes of JSON text equal to `JSON.stringify(toBody())`; items rendered ahead (JsonText)
   * are placed as they are, written one after the other (`listBytes`).
   */
  toJsonBytes(): Buffer {
    const { [this.key]: _items, ...rest } = this.toBody();
    return listBytes(this.key, this.items, rest);
  }

  links(): string[] {
    const links: string[] = [];
    if (this.page.page > 1) links.push(`<${this.pageUrl(this.page.page - 1)}>; rel="prev"`);
    if (this.page.page < this.totalPages) links.push(`<${this.pageUrl(this.page.page + 1)}>; rel="next"`);
    return links;
  }
}

/** The paging headers of a list (SPEC §3.3): totals under both names, and links to the pages around it. */
export function applyListHeaders(reply: FastifyReply, result: ListResult<unknown>): void {
  const total = String(result.total);
  const pages = String(result.totalPages);
  reply.header('X-TEC-Total', total).header('X-TEC-TotalPages', pages).header('X-WP-Total', total).header('X-WP-TotalPages', pages);
  const links = result.links();
  if (links.length > 0) reply.header('Link', links);
}

/**
 * A handler's answer as the body to send: a `ListResult` becomes its envelope, with the paging headers set on the
 * reply (SPEC §3.3); any other answer is sent as it is. The response cache's `answer` hook applies it.
 */
export function renderList(reply: FastifyReply, answer: unknown): unknown {
  if (!(answer instanceof ListResult)) return answer;
  applyListHeaders(reply, answer);
  return answer.items.some((item) => item instanceof JsonText) ? new JsonText(answer.toJsonBytes()) : answer.toBody();
}
