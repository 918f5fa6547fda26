import { RouteRegistry } from './route-registry';

describe('RouteRegistry', () => {
  const registry = new RouteRegistry();
  registry.add(['GET', 'HEAD'], '/wp-json/calendar/events/v1/tags');
  registry.add('POST', '/wp-json/calendar/events/v1/tags');
  registry.add('GET', '/wp-json/calendar/events/v1/tags/:id(^\\d+$)');
  registry.add('DELETE', '/wp-json/calendar/events/v1/tags/:id(^\\d+$)');
  registry.add('GET', '/wp-json/calendar/events/v1/events/by-slug/:slug');

  it('finds the methods served at a concrete path, with or without a trailing slash', () => {
    expect(registry.methodsFor('/wp-json/calendar/events/v1/tags')).toEqual(['GET', 'POST']);
    expect(registry.methodsFor('/wp-json/calendar/events/v1/tags/12/?x=1')).toEqual(['GET', 'DELETE']);
    expect(registry.methodsFor('/wp-json/calendar/events/v1/events/by-slug/jazz-night')).toEqual(['GET']);
  });

  it('knows nothing of paths no route matches', () => {
    expect(registry.methodsFor('/wp-json/calendar/events/v1/tags/abc')).toEqual([]);
    expect(registry.methodsFor('/wp-json/calendar/events/v1/events/by-slug/a/b')).toEqual([]);
  });
});
