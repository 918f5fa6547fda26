import { ApiException } from './api-exception';
import { assertPageExists, ListResult, totalPages } from './list';

describe('lists', () => {
  const url = (page: number) => `http://x/tags?search=a&page=${page}`;

  it('renders the envelope with next and previous links only where they exist', () => {
    const middle = new ListResult('tags', [{ id: 1 }], 25, { page: 2, per_page: 10 }, url);
    expect(middle.toBody()).toEqual({ tags: [{ id: 1 }], rest_url: url(2), next_rest_url: url(3), previous_rest_url: url(1), total: 25, total_pages: 3 });
    expect(middle.links()).toEqual([`<${url(1)}>; rel="prev"`, `<${url(3)}>; rel="next"`]);
    const only = new ListResult('tags', [], 0, { page: 1, per_page: 10 }, url);
    expect(only.toBody()).toEqual({ tags: [], rest_url: url(1), total: 0, total_pages: 0 });
    expect(only.links()).toEqual([]);
  });

  it('counts pages and refuses pages beyond the last one', () => {
    expect(totalPages(0, 10)).toBe(0);
    expect(totalPages(21, 10)).toBe(3);
    expect(() => assertPageExists('event', { page: 1, per_page: 10 }, 0)).not.toThrow();
    expect(() => assertPageExists('event', { page: 3, per_page: 10 }, 21)).not.toThrow();
    let error: unknown;
    try {
      assertPageExists('event', { page: 4, per_page: 10 }, 21);
    } catch (caught) {
      error = caught;
    }
    expect((error as ApiException).toBody()).toEqual({ code: 'event-archive-page-not-found', message: 'The requested event archive page does not exist', data: { status: 404 } });
  });
});
