import { API, FR_API, ORIGIN, startTestApp, TestApp } from './support/test-app';

const VENUES = '/wp-json/calendar/events/v1/venues';
const MODIFIED = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('venues (SPEC §5)', () => {
  let t: TestApp;
  let editor: { id: number; token: string };
  let author: { id: number; token: string };
  beforeAll(async () => {
    t = await startTestApp({ TIMEZONE: 'Europe/Paris' });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    editor = await t.user('editor');
    author = await t.user('author');
  });

  const create = async (body: Record<string, unknown>, token = editor.token, base = '') => {
    const reply = await t.request('POST', `${base}${VENUES}`, { token, json: body });
    expect(reply.status).toBe(201);
    return reply.body;
  };
  const names = (reply: { body: { venues: { venue: string }[] } }) => reply.body.venues.map((venue) => venue.venue);

  describe('the venue object', () => {
    it('creates a venue with every key of §5.1 and schema.org Place JSON-LD', async () => {
      const reply = await t.request('POST', VENUES, {
        token: editor.token,
        json: {
          venue: 'Main Hall',
          description: '<p>The <b>main</b> hall.</p>',
          address: '1 Main St',
          city: 'Springfield',
          country: 'United States',
          state: 'IL',
          zip: '62701',
          phone: '555-0100',
          website: 'https://example.com/hall',
          image: 'https://img.example/hall.JPG',
          geo_lat: '39.78',
          geo_lng: -89.65,
          show_map_link: 'no',
          date_utc: '2026-01-15 10:00:00',
        },
      });
      expect(reply.status).toBe(201);
      expect(reply.headers['location']).toBe(`${API}/venues/1`);
      const self = `${API}/venues/1`;
      expect(reply.body).toEqual({
        id: 1,
        global_id: 'calendar.test?id=1',
        author: String(editor.id),
        status: 'publish',
        date: '2026-01-15 11:00:00',
        date_utc: '2026-01-15 10:00:00',
        modified: expect.stringMatching(MODIFIED),
        modified_utc: expect.stringMatching(MODIFIED),
        url: `${ORIGIN}/venue/main-hall/`,
        rest_url: self,
        venue: 'Main Hall',
        description: '<p>The <b>main</b> hall.</p>',
        slug: 'main-hall',
        image: { id: 1, url: 'https://img.example/hall.JPG', extension: 'jpg', sizes: {} },
        address: '1 Main St',
        city: 'Springfield',
        country: 'United States',
        province: '',
        state: 'IL',
        zip: '62701',
        phone: '555-0100',
        stateprovince: 'IL',
        website: 'https://example.com/hall',
        show_map: true,
        show_map_link: false,
        geo_lat: 39.78,
        geo_lng: -89.65,
        lang: 'en',
        translations: { en: { slug: 'main-hall', title: 'Main Hall', rest_url: self } },
        json_ld: {
          '@context': 'https://schema.org',
          '@type': 'Place',
          name: 'Main Hall',
          description: 'The main hall.',
          url: `${ORIGIN}/venue/main-hall/`,
          address: {
            '@type': 'PostalAddress',
            streetAddress: '1 Main St',
            addressLocality: 'Springfield',
            addressRegion: 'IL',
            postalCode: '62701',
            addressCountry: 'United States',
          },
          geo: { '@type': 'GeoCoordinates', latitude: 39.78, longitude: -89.65 },
          telephone: '555-0100',
          sameAs: 'https://example.com/hall',
          image: 'https://img.example/hall.JPG',
        },
      });
      const read = await t.request('GET', `${VENUES}/1`);
      expect(read.body).toEqual({ ...reply.body, modified: read.body.modified, modified_utc: read.body.modified_utc });
    });

    it('keeps every key present when empty, and leaves json_ld out of lists', async () => {
      const venue = await create({ venue: 'Bare' });
      expect(venue).toMatchObject({
        description: '',
        image: false,
        address: '',
        city: '',
        country: '',
        province: '',
        state: '',
        zip: '',
        phone: '',
        stateprovince: '',
        website: '',
        show_map: true,
        show_map_link: true,
        geo_lat: null,
        geo_lng: null,
      });
      const list = await t.request('GET', VENUES);
      expect(list.body.venues[0].json_ld).toBeUndefined();
      expect(Object.keys(list.body.venues[0])).toEqual(Object.keys(venue).filter((key) => key !== 'json_ld'));
    });

    it('derives stateprovince: the state in the United States or with no country, else the province', async () => {
      expect((await create({ venue: 'A', state: 'NY', province: 'x' })).stateprovince).toBe('NY');
      expect((await create({ venue: 'B', country: 'USA', state: 'CA' })).stateprovince).toBe('CA');
      const paris = await create({ venue: 'C', country: 'France', state: 'x', province: 'Île-de-France' });
      expect(paris.stateprovince).toBe('Île-de-France');
      expect((await create({ venue: 'D', country: 'France', province: 'p', stateprovince: 'Given' })).stateprovince).toBe('Given');
      const moved = await t.request('PATCH', `${VENUES}/${paris.id}`, { token: editor.token, json: { country: 'United States' } });
      expect(moved.body.stateprovince).toBe('x');
    });

    it('registers an image URL once and accepts the id of a known image', async () => {
      const first = await create({ venue: 'One', image: 'https://img.example/a.png' });
      const second = await create({ venue: 'Two', image: 'https://img.example/a.png' });
      const third = await create({ venue: 'Three', image: first.image.id });
      expect([first.image.id, second.image.id, third.image.id]).toEqual([1, 1, 1]);
      const cleared = await t.request('PATCH', `${VENUES}/${third.id}`, { token: editor.token, json: { image: '' } });
      expect(cleared.body.image).toBe(false);
    });
  });

  describe('writes', () => {
    it('validates every field and writes nothing on a 400', async () => {
      const missing = await t.request('POST', VENUES, { token: editor.token, json: { city: 'Nowhere' } });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): venue', data: { status: 400, params: ['venue'] } });
      const invalid = await t.request('POST', VENUES, {
        token: editor.token,
        json: { venue: 'X', website: 'ftp://x', show_map: 'sometimes', geo_lat: 91, geo_lng: 'east', image: 'https://img.example/a.pdf', status: 'live', date: 'whenever' },
      });
      expect(invalid.status).toBe(400);
      expect(invalid.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): date, geo_lat, geo_lng, image, show_map, status, website',
        data: {
          status: 400,
          params: {
            date: expect.stringMatching(/^must be a date-time/),
            geo_lat: 'must be a number from -90 to 90',
            geo_lng: 'must be a number from -180 to 180',
            image: 'must be the id of a known image or an http(s) URL of an image (.jpg .jpeg .png .gif .webp .avif .svg), or empty to clear',
            show_map: 'must be a boolean: true/false, 1/0, yes/no or on/off',
            status: 'must be one of: publish, future, draft, pending, private',
            website: 'must be an absolute http or https URL, or empty to clear',
          },
        },
      });
      const unknownImage = await t.request('POST', VENUES, { token: editor.token, json: { venue: 'X', image: 99 } });
      expect(unknownImage.status).toBe(400);
      expect(unknownImage.body.data.params).toEqual({ image: 'must be the id of a known image or an http(s) URL of an image' });
      expect((await t.request('GET', VENUES, { token: editor.token })).body.total).toBe(0);
    });

    it('creates a new record for a name that exists, with its own slug', async () => {
      const first = await create({ venue: 'Main Hall', city: 'A' });
      const second = await create({ venue: 'Main Hall', city: 'B' });
      expect([first.id, second.id]).toEqual([1, 2]);
      expect([first.slug, second.slug]).toEqual(['main-hall', 'main-hall-2']);
      expect((await t.request('GET', `${VENUES}/1`)).body.city).toBe('A');
      const taken = await t.request('POST', VENUES, { token: editor.token, json: { venue: 'Other', slug: 'main-hall' } });
      expect(taken.status).toBe(409);
      expect(taken.body).toEqual({ code: 'slug-exists', message: 'Another venue uses that slug in this language.', data: { status: 409, id: 1 } });
    });

    it('updates partially with POST, PUT and PATCH alike, and clears with empty values', async () => {
      const venue = await create({ venue: 'Hall', city: 'Lyon', website: 'https://hall.example', geo_lat: 45.7, geo_lng: 4.8 });
      for (const [method, city] of [['POST', 'Paris'], ['PUT', 'Nice'], ['PATCH', 'Lille']]) {
        const reply = await t.request(method, `${VENUES}/${venue.id}`, { token: editor.token, json: { city } });
        expect(reply.status).toBe(200);
        expect(reply.body).toMatchObject({ venue: 'Hall', city, website: 'https://hall.example', geo_lat: 45.7, show_map: true });
      }
      const cleared = await t.request('PATCH', `${VENUES}/${venue.id}`, { token: editor.token, form: { website: '', geo_lat: '', geo_lng: '', description: '' } });
      expect(cleared.body).toMatchObject({ website: '', geo_lat: null, geo_lng: null, description: '', city: 'Lille' });
    });

    it('finds by slug in any language; only a body slug renames', async () => {
      const venue = await create({ venue: 'Jazz Club' });
      await t.request('PATCH', `/fr${VENUES}/${venue.id}`, { token: editor.token, json: { venue: 'Club de jazz' } });
      expect((await t.request('GET', `${VENUES}/by-slug/club-de-jazz`)).body).toMatchObject({ id: venue.id, venue: 'Jazz Club', slug: 'jazz-club' });
      expect((await t.request('GET', `/fr${VENUES}/by-slug/jazz-club`)).body).toMatchObject({ id: venue.id, venue: 'Club de jazz', slug: 'club-de-jazz' });
      const kept = await t.request('PUT', `${VENUES}/by-slug/jazz-club`, { token: editor.token, json: { city: 'Paris' } });
      expect(kept.body).toMatchObject({ slug: 'jazz-club', city: 'Paris' });
      const renamed = await t.request('PATCH', `${VENUES}/by-slug/jazz-club`, { token: editor.token, json: { slug: 'le-club' } });
      expect(renamed.status).toBe(200);
      expect(renamed.body.slug).toBe('le-club');
      expect((await t.request('GET', `${VENUES}/by-slug/jazz-club`)).status).toBe(404);
      const missing = await t.request('GET', `${VENUES}/by-slug/nothing-here`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ code: 'rest-venue-not-found', message: 'The venue does not exist.', data: { status: 404 } });
    });

    it('writes translations per language and reads with fallback', async () => {
      const venue = await create({ venue: 'Opera House', description: 'Big', city: 'Paris' });
      const french = await t.request('PATCH', `/fr${VENUES}/${venue.id}`, { token: editor.token, json: { venue: 'Opéra', city: 'Paris 9e' } });
      expect(french.body).toMatchObject({
        venue: 'Opéra',
        slug: 'opera',
        description: 'Big',
        city: 'Paris 9e',
        lang: 'fr',
        url: `${ORIGIN}/fr/venue/opera/`,
        rest_url: `${FR_API}/venues/${venue.id}`,
        translations: {
          en: { slug: 'opera-house', title: 'Opera House', rest_url: `${API}/venues/${venue.id}` },
          fr: { slug: 'opera', title: 'Opéra', rest_url: `${FR_API}/venues/${venue.id}` },
        },
      });
      expect((await t.request('GET', `${VENUES}/${venue.id}`)).body).toMatchObject({ venue: 'Opera House', city: 'Paris 9e', lang: 'en' });
      expect((await t.request('GET', `${VENUES}/${venue.id}?translation_language=zh-hans`)).body).toMatchObject({ venue: 'Opera House', lang: 'zh-hans' });
      expect(names(await t.request('GET', `/fr${VENUES}?search=opéra`))).toEqual(['Opéra']);
    });
  });

  describe('trash, visibility and permissions', () => {
    it('moves to the trash, answers 410 the second time, and restores by a status update', async () => {
      const venue = await create({ venue: 'Old Hall' });
      const deleted = await t.request('DELETE', `${VENUES}/${venue.id}`, { token: editor.token });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toMatchObject({ id: venue.id, status: 'trash', venue: 'Old Hall' });
      const again = await t.request('DELETE', `${VENUES}/by-slug/old-hall`, { token: editor.token });
      expect(again.status).toBe(410);
      expect(again.body).toEqual({ code: 'venue-is-in-trash', message: 'The venue is already in the trash.', data: { status: 410 } });
      const hidden = await t.request('GET', `${VENUES}/${venue.id}`);
      expect(hidden.status).toBe(403);
      expect(hidden.body).toEqual({ code: 'venue-not-accessible', message: 'The venue is in the trash.', data: { status: 403 } });
      expect((await t.request('GET', `${VENUES}/${venue.id}`, { token: editor.token })).body.status).toBe('trash');
      expect((await t.request('GET', VENUES)).body.total).toBe(0);
      expect((await t.request('GET', `${VENUES}?status=trash`, { token: editor.token })).body.total).toBe(1);
      const restored = await t.request('PATCH', `${VENUES}/${venue.id}`, { token: editor.token, json: { status: 'publish' } });
      expect(restored.body.status).toBe('publish');
      expect((await t.request('GET', `${VENUES}/${venue.id}`)).status).toBe(200);
    });

    it('shows non-published venues only to their owner, editors and administrators', async () => {
      const draft = await create({ venue: 'Secret', status: 'draft' }, author.token);
      const other = await t.user('author');
      const anonymous = await t.request('GET', `${VENUES}/${draft.id}`);
      expect(anonymous.status).toBe(403);
      expect(anonymous.body).toEqual({ code: 'venue-not-accessible', message: 'The venue is not published and you may not read it.', data: { status: 403 } });
      expect((await t.request('GET', `${VENUES}/${draft.id}`, { token: other.token })).status).toBe(403);
      expect((await t.request('GET', `${VENUES}/${draft.id}`, { token: author.token })).status).toBe(200);
      expect((await t.request('GET', `${VENUES}/${draft.id}`, { token: editor.token })).status).toBe(200);
    });

    it('lists by role and status (SPEC §4.4, §11.11)', async () => {
      await create({ venue: 'Published' }, author.token);
      await create({ venue: 'My draft', status: 'draft' }, author.token);
      const mine = await create({ venue: 'My trashed' }, author.token);
      await t.request('DELETE', `${VENUES}/${mine.id}`, { token: author.token });
      await create({ venue: 'Their draft', status: 'draft' });
      await create({ venue: 'Their private', status: 'private' });
      const list = async (query: string, token?: string) => names(await t.request('GET', `${VENUES}${query}`, { token })).sort();
      expect(await list('')).toEqual(['Published']);
      expect(await list('', author.token)).toEqual(['My draft', 'Published']);
      expect(await list('', editor.token)).toEqual(['My draft', 'Published', 'Their draft', 'Their private']);
      expect(await list('?status=draft', author.token)).toEqual(['My draft']);
      expect(await list('?status=trash', author.token)).toEqual(['My trashed']);
      expect(await list('?status=draft,private', editor.token)).toEqual(['My draft', 'Their draft', 'Their private']);
      const refused = await t.request('GET', `${VENUES}?status=draft`);
      expect(refused.status).toBe(400);
      expect(refused.body.data.params).toEqual({ status: 'must be publish for callers who are not logged in' });
      expect((await t.request('GET', `${VENUES}?status=gone`)).body.data.params).toEqual({ status: 'must be one or more of: publish, future, draft, pending, private, trash' });
    });

    it('applies the role table to writes', async () => {
      const contributor = await t.user('contributor');
      const draft = await create({ venue: 'Contributed' }, contributor.token);
      expect(draft.status).toBe('draft');
      const asked = await create({ venue: 'Wants publish', status: 'publish' }, contributor.token);
      expect(asked.status).toBe('pending');
      const promoted = await t.request('PATCH', `${VENUES}/${draft.id}`, { token: contributor.token, json: { status: 'publish' } });
      expect(promoted.body.status).toBe('pending');
      await t.request('PATCH', `${VENUES}/${draft.id}`, { token: editor.token, json: { status: 'publish' } });
      expect((await t.request('PATCH', `${VENUES}/${draft.id}`, { token: contributor.token, json: { city: 'X' } })).status).toBe(403);
      expect((await t.request('DELETE', `${VENUES}/${draft.id}`, { token: contributor.token })).status).toBe(403);

      const owned = await create({ venue: 'Owned by the editor' });
      const forbidden = await t.request('PATCH', `${VENUES}/${owned.id}`, { token: author.token, json: { city: 'X' } });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } });
      expect((await t.request('DELETE', `${VENUES}/${owned.id}`, { token: author.token })).status).toBe(403);
      const mine = await create({ venue: 'Mine' }, author.token);
      expect(mine.status).toBe('publish');
      expect((await t.request('PATCH', `${VENUES}/${mine.id}`, { token: author.token, json: { author: editor.id } })).status).toBe(403);
      expect((await t.request('POST', VENUES, { token: author.token, json: { venue: 'Z', author: editor.id } })).status).toBe(403);
      // A user id that names nobody is a parameter error, checked before permissions and record lookups (§3.1).
      const noSuchUser = { code: 'rest_invalid_param', message: 'Invalid parameter(s): author', data: { status: 400, params: { author: 'must be the id of an existing user' } } };
      for (const [method, path] of [['POST', VENUES], ['PATCH', `${VENUES}/${mine.id}`], ['PATCH', `${VENUES}/${owned.id}`], ['PATCH', `${VENUES}/99999`]]) {
        const reply = await t.request(method, path, { token: author.token, json: { venue: 'Z', author: 99999 } });
        expect([method, path, reply.status, reply.body]).toEqual([method, path, 400, noSuchUser]);
      }
      expect((await t.request('GET', `${VENUES}?search=Z`, { token: editor.token })).body.total).toBe(0);
      const reassigned = await t.request('PATCH', `${VENUES}/${mine.id}`, { token: editor.token, json: { author: editor.id } });
      expect(reassigned.body.author).toBe(String(editor.id));
      const nobody = await t.request('PATCH', `${VENUES}/${mine.id}`, { token: editor.token, json: { author: 999 } });
      expect(nobody.status).toBe(400);
      expect(nobody.body.data.params).toEqual({ author: 'must be the id of an existing user' });
      const anonymous = await t.request('POST', VENUES, { json: { venue: 'Anon' } });
      expect(anonymous.status).toBe(401);
    });
  });

  describe('lists', () => {
    it('orders newest first, searches every word across fields, and pages with links', async () => {
      await create({ venue: 'Old Theatre', city: 'Lyon', date_utc: '2024-01-01 00:00:00' });
      await create({ venue: 'New Arena', city: 'Paris', zip: '75001', date_utc: '2026-01-01 00:00:00' });
      await create({ venue: 'Mid Club', address: '5 rue de Lyon', city: 'Paris', date_utc: '2025-01-01 00:00:00' });
      expect(names(await t.request('GET', VENUES))).toEqual(['New Arena', 'Mid Club', 'Old Theatre']);
      expect(names(await t.request('GET', `${VENUES}?search=lyon`))).toEqual(['Mid Club', 'Old Theatre']);
      expect(names(await t.request('GET', `${VENUES}?search=PARIS%20lyon`))).toEqual(['Mid Club']);
      expect(names(await t.request('GET', `${VENUES}?search=75001`))).toEqual(['New Arena']);
      expect(names(await t.request('GET', `${VENUES}?search=the`))).toEqual(['Old Theatre']);
      expect(names(await t.request('GET', `${VENUES}?search=heatre`))).toEqual([]);
      const page = await t.request('GET', `${VENUES}?per_page=2&page=2`);
      const link = (n: number) => `${API}/venues?per_page=2&only_with_upcoming=false&page=${n}`;
      expect(page.body).toEqual({ venues: [expect.objectContaining({ venue: 'Old Theatre' })], rest_url: link(2), previous_rest_url: link(1), total: 3, total_pages: 2 });
      expect(page.headers['x-wp-total']).toBe('3');
      const searched = await t.request('GET', `${VENUES}?per_page=1&page=2&search=paris`);
      expect([searched.body.venues.map((venue: { venue: string }) => venue.venue), searched.body.total, searched.headers['x-wp-total']]).toEqual([['Mid Club'], 2, '2']);
      const beyond = await t.request('GET', `${VENUES}?per_page=2&page=3`);
      expect(beyond.status).toBe(404);
      expect(beyond.body).toEqual({ code: 'venue-archive-page-not-found', message: 'The requested venue archive page does not exist', data: { status: 404 } });
    });

    it('searches through the index: accents folded, word starts, Chinese runs, the language fallback, writes at once', async () => {
      const cafe = await create({ venue: 'Café Müller', city: 'Montréal', description: '<p>Jazz &amp; blues</p>' });
      await create({ venue: '上海大剧院', city: 'Shanghai' });
      expect(names(await t.request('GET', `${VENUES}?search=cafe%20muller`))).toEqual(['Café Müller']);
      expect(names(await t.request('GET', `${VENUES}?search=MONTR%20blu`))).toEqual(['Café Müller']);
      expect(names(await t.request('GET', `${VENUES}?search=ontreal`))).toEqual([]);
      expect(names(await t.request('GET', `${VENUES}?search=${encodeURIComponent('大剧')}`))).toEqual(['上海大剧院']);
      expect((await t.request('PATCH', `/fr${VENUES}/${cafe.id}`, { token: editor.token, json: { venue: 'Le Café' } })).status).toBe(200);
      expect(names(await t.request('GET', `/fr${VENUES}?search=le%20cafe%20jazz`))).toEqual(['Le Café']);
      expect(names(await t.request('GET', `/fr${VENUES}?search=muller`))).toEqual([]);
      expect(names(await t.request('GET', `/zh-hans${VENUES}?search=muller`))).toEqual(['Café Müller']);
      expect((await t.request('PATCH', `${VENUES}/${cafe.id}`, { token: editor.token, json: { city: 'Québec' } })).status).toBe(200);
      expect(names(await t.request('GET', `${VENUES}?search=quebec`))).toEqual(['Café Müller']);
      expect(names(await t.request('GET', `/fr${VENUES}?search=quebec`))).toEqual(['Le Café']);
      expect(names(await t.request('GET', `${VENUES}?search=montreal`))).toEqual([]);
    });

    it('validates the event filters; with no linked events none has events', async () => {
      await create({ venue: 'Hall' });
      const event = await t.request('GET', `${VENUES}?event=12`);
      expect(event.status).toBe(400);
      expect(event.body).toEqual({ code: 'rest_invalid_param', message: 'Invalid parameter(s): event', data: { status: 400, params: { event: 'must be the id of an existing event' } } });
      expect((await t.request('GET', `${VENUES}?event=x`)).body.data.params).toEqual({ event: 'must be an integer' });
      expect((await t.request('GET', `${VENUES}?has_events=maybe`)).status).toBe(400);
      expect((await t.request('GET', `${VENUES}?has_events=true`)).body.total).toBe(0);
      expect((await t.request('GET', `${VENUES}?has_events=false`)).body.total).toBe(1);
      expect((await t.request('GET', `${VENUES}?only_with_upcoming=1`)).body.total).toBe(0);
      expect((await t.request('GET', `${VENUES}?only_with_upcoming=0`)).body.total).toBe(1);
    });
  });
});
