import { API, ORIGIN, startTestApp, TestApp } from './support/test-app';

const ORGANIZERS = '/wp-json/calendar/events/v1/organizers';
const MODIFIED = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('organizers (SPEC §5)', () => {
  let t: TestApp;
  let editor: { id: number; token: string };
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    editor = await t.user('editor');
  });

  const create = async (body: Record<string, unknown>) => {
    const reply = await t.request('POST', ORGANIZERS, { token: editor.token, json: body });
    expect(reply.status).toBe(201);
    return reply.body;
  };

  it('creates an organizer with every key of §5.1 and schema.org Organization JSON-LD', async () => {
    const reply = await t.request('POST', ORGANIZERS, {
      token: editor.token,
      form: { organizer: ' Acme Events ', description: 'Organizer of <i>things</i>.', phone: '555-0199', website: 'https://acme.example', email: 'events@acme.example', date: '2026-03-01 12:00' },
    });
    expect(reply.status).toBe(201);
    const self = `${API}/organizers/1`;
    expect(reply.headers['location']).toBe(self);
    expect(reply.body).toEqual({
      id: 1,
      global_id: 'calendar.test?id=1',
      author: String(editor.id),
      status: 'publish',
      date: '2026-03-01 12:00:00',
      date_utc: '2026-03-01 12:00:00',
      modified: expect.stringMatching(MODIFIED),
      modified_utc: expect.stringMatching(MODIFIED),
      url: `${ORIGIN}/organizer/acme-events/`,
      rest_url: self,
      organizer: 'Acme Events',
      description: 'Organizer of <i>things</i>.',
      slug: 'acme-events',
      image: false,
      phone: '555-0199',
      website: 'https://acme.example',
      email: 'events@acme.example',
      lang: 'en',
      translations: { en: { slug: 'acme-events', title: 'Acme Events', rest_url: self } },
      json_ld: {
        '@context': 'https://schema.org',
        '@type': 'Organization',
        name: 'Acme Events',
        description: 'Organizer of things.',
        url: 'https://acme.example',
        telephone: '555-0199',
        email: 'events@acme.example',
      },
    });
  });

  it('validates e-mail and website, and clears them with empty values', async () => {
    const bad = await t.request('POST', ORGANIZERS, { token: editor.token, json: { organizer: 'X', email: 'not an address', website: 'acme.example' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): email, website',
      data: { status: 400, params: { email: 'must be a valid e-mail address, or empty to clear', website: 'must be an absolute http or https URL, or empty to clear' } },
    });
    const empty = await t.request('POST', ORGANIZERS, { token: editor.token, json: { organizer: '' } });
    expect(empty.body.data.params).toEqual({ organizer: 'must be a non-empty string of at most 200 characters' });
    const organizer = await create({ organizer: 'Acme', email: 'a@acme.example', phone: '1' });
    const cleared = await t.request('PATCH', `${ORGANIZERS}/${organizer.id}`, { token: editor.token, json: { email: '' } });
    expect(cleared.body).toMatchObject({ email: '', phone: '1', organizer: 'Acme' });
  });

  it('searches name, description, phone, e-mail and website', async () => {
    await create({ organizer: 'Acme', email: 'hello@acme.example' });
    await create({ organizer: 'Blue Note', phone: '+33 1 23', website: 'https://bluenote.example' });
    const search = async (text: string) =>
      (await t.request('GET', `${ORGANIZERS}?search=${encodeURIComponent(text)}`)).body.organizers.map((o: { organizer: string }) => o.organizer);
    expect(await search('hello@')).toEqual(['Acme']);
    expect(await search('+33')).toEqual(['Blue Note']);
    expect(await search('bluenote note')).toEqual(['Blue Note']);
    expect(await search('acme blue')).toEqual([]);
  });

  it('trashes, refuses a second delete, restores, and hides by role like venues', async () => {
    const organizer = await create({ organizer: 'Gone Soon' });
    expect((await t.request('DELETE', `${ORGANIZERS}/by-slug/gone-soon`, { token: editor.token })).body.status).toBe('trash');
    const again = await t.request('DELETE', `${ORGANIZERS}/${organizer.id}`, { token: editor.token });
    expect(again.status).toBe(410);
    expect(again.body).toEqual({ code: 'organizer-is-in-trash', message: 'The organizer is already in the trash.', data: { status: 410 } });
    expect((await t.request('GET', `${ORGANIZERS}/${organizer.id}`)).body.code).toBe('organizer-not-accessible');
    const restored = await t.request('PUT', `${ORGANIZERS}/by-slug/gone-soon`, { token: editor.token, json: { status: 'publish' } });
    expect(restored.body.status).toBe('publish');
    const missing = await t.request('GET', `${ORGANIZERS}/999`);
    expect(missing.body).toEqual({ code: 'rest-organizer-not-found', message: 'The organizer does not exist.', data: { status: 404 } });
  });
});
