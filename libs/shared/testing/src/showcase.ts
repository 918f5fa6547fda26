/*
 * A small calendar written through the HTTP API of a running service: what the browser tests of the public pages
 * look at, and what the README's screenshots show (`npm run screenshots`).
 */

const NS = '/wp-json/calendar/events/v1';

/** Paths of one page of each type (below the service's base), and the id of the event they centre on. */
export interface Showcase {
  paths: { list: string; month: string; event: string; venue: string; organizer: string; category: string; tag: string };
  eventId: number;
}

/** Writes the showcase with an administrator's token: a weekly series, a recital, an all-day market, this month. */
export async function writeShowcase(base: string, token: string): Promise<Showcase> {
  const api = async (method: string, path: string, body?: Record<string, unknown>) => {
    const response = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const json: any = await response.json();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const month = new Date().toISOString().slice(0, 7);
  const music = await api('POST', `${NS}/categories`, { name: 'Music', description: '<p>Concerts and recitals.</p>' });
  await api('POST', `/fr${NS}/categories/${music.id}`, { name: 'Musique' });
  const created = await api('POST', `${NS}/events`, {
    title: 'Jazz in the park',
    excerpt: 'Three bands under the trees.',
    description: '<p>Three bands under the trees, <strong>free</strong> for everyone.</p>',
    start_date: `${month}-20 19:00`,
    end_date: `${month}-20 22:30`,
    timezone: 'Europe/Paris',
    cost: 'Free',
    categories: [music.id],
    tags: ['Outdoor'],
    venue: { venue: 'Parc de la Tête d’Or', address: 'Place du Général Leclerc', city: 'Lyon', country: 'France', geo_lat: 45.777, geo_lng: 4.855 },
    organizer: { organizer: 'Lyon Jazz Society', email: 'hello@jazz.example' },
    recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
  });
  await api('POST', `/fr${NS}/events/${created.id}`, { title: 'Jazz au parc', excerpt: 'Trois groupes sous les arbres.', description: '<p>Trois groupes sous les arbres, <strong>gratuit</strong>.</p>' });
  await api('POST', `${NS}/events`, { title: 'Piano recital', start_date: `${month}-08 18:00`, end_date: `${month}-08 19:30`, categories: [music.id], venue: created.venue.id });
  await api('POST', `${NS}/events`, { title: 'Harvest market', start_date: `${month}-14 08:00`, end_date: `${month}-15 13:00`, all_day: true, venue: created.venue.id });
  const event = await api('GET', `${NS}/events/${created.id}`);
  const relative = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');
  return {
    eventId: created.id,
    paths: {
      list: '/events/',
      month: '/events/month/',
      event: relative(event.url),
      venue: relative(event.venue.url),
      organizer: relative(event.organizer[0].url),
      category: relative(event.categories[0].url),
      tag: relative(event.tags[0].url),
    },
  };
}
