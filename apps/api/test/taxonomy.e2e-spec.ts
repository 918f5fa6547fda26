import { API, FR_API, ORIGIN, startTestApp, TestApp } from './support/test-app';

const CATEGORIES = '/wp-json/calendar/events/v1/categories';
const TAGS = '/wp-json/calendar/events/v1/tags';

describe('categories and tags (SPEC §6, §7)', () => {
  let t: TestApp;
  let editor: string;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    editor = (await t.user('editor')).token;
  });

  const createCategory = async (body: Record<string, unknown>, base = '') => {
    const reply = await t.request('POST', `${base}${CATEGORIES}`, { token: editor, json: body });
    expect(reply.status).toBe(201);
    return reply.body;
  };
  const createTag = async (body: Record<string, unknown>) => {
    const reply = await t.request('POST', TAGS, { token: editor, json: body });
    expect(reply.status).toBe(201);
    return reply.body;
  };
  const ids = (reply: { body: Record<string, { id: number }[]> }, key = 'categories') => reply.body[key].map((term) => term.id);

  describe('the term object', () => {
    it('creates a category and returns every key of §6.1', async () => {
      const reply = await t.request('POST', CATEGORIES, { token: editor, json: { name: 'Music', description: '<em>All</em> music' } });
      expect(reply.status).toBe(201);
      expect(reply.headers['location']).toBe(`${API}/categories/1`);
      expect(reply.body).toEqual({
        id: 1,
        name: 'Music',
        slug: 'music',
        description: '<em>All</em> music',
        taxonomy: 'tribe_events_cat',
        parent: 0,
        count: 0,
        url: `${ORIGIN}/events/category/music/`,
        rest_url: `${API}/categories/1`,
        urls: { self: `${API}/categories/1`, collection: `${API}/categories` },
        lang: 'en',
        translations: { en: { slug: 'music', title: 'Music', rest_url: `${API}/categories/1` } },
      });
      expect((await t.request('GET', `${CATEGORIES}/1`)).body).toEqual(reply.body);
    });

    it('creates a tag, which has no parent, and a child category with an up link', async () => {
      const tag = await createTag({ name: 'Outdoor', slug: 'Open Air' });
      expect(tag).toEqual({
        id: 1,
        name: 'Outdoor',
        slug: 'open-air',
        description: '',
        taxonomy: 'post_tag',
        count: 0,
        url: `${ORIGIN}/events/tag/open-air/`,
        rest_url: `${API}/tags/1`,
        urls: { self: `${API}/tags/1`, collection: `${API}/tags` },
        lang: 'en',
        translations: { en: { slug: 'open-air', title: 'Outdoor', rest_url: `${API}/tags/1` } },
      });
      const parent = await createCategory({ name: 'Music' });
      const child = await createCategory({ name: 'Jazz', parent: parent.id });
      expect(child.parent).toBe(parent.id);
      expect(child.urls).toEqual({ self: `${API}/categories/3`, collection: `${API}/categories`, up: `${API}/categories/2` });
    });

    it('numbers categories and tags from one sequence and keeps them apart', async () => {
      const category = await createCategory({ name: 'Music' });
      const tag = await createTag({ name: 'Music' });
      expect([category.id, tag.id]).toEqual([1, 2]);
      const wrong = await t.request('GET', `${CATEGORIES}/${tag.id}`);
      expect(wrong.status).toBe(404);
      expect(wrong.body).toEqual({ code: 'rest-category-not-found', message: 'The category does not exist.', data: { status: 404 } });
      expect((await t.request('GET', `${TAGS}/${category.id}`)).body.code).toBe('rest-tag-not-found');
    });

    it('makes slugs from titles in any script and unique with -2, -3', async () => {
      expect((await createCategory({ name: '音乐节' })).slug).toBe('yin-le-jie');
      const rock = await createCategory({ name: 'Rock' });
      const under = await createCategory({ name: 'Rock', parent: rock.id });
      const again = await createCategory({ name: 'ROCK!', parent: under.id });
      expect([rock.slug, under.slug, again.slug]).toEqual(['rock', 'rock-2', 'rock-3']);
      const percent = await createCategory({ name: 'Café', slug: 'café' });
      expect(percent.slug).toBe('café');
      expect(percent.url).toBe(`${ORIGIN}/events/category/caf%C3%A9/`);
    });
  });

  describe('writes', () => {
    it('refuses a second term with the same name under the same parent, or the same slug', async () => {
      const music = await createCategory({ name: 'Music' });
      const sameName = await t.request('POST', CATEGORIES, { token: editor, json: { name: 'music' } });
      expect(sameName.status).toBe(409);
      expect(sameName.body).toEqual({
        code: 'term-exists',
        message: 'A term with that name already exists under the same parent.',
        data: { status: 409, term_id: music.id },
      });
      const sameSlug = await t.request('POST', CATEGORIES, { token: editor, json: { name: 'Other', slug: 'music' } });
      expect(sameSlug.status).toBe(409);
      expect(sameSlug.body).toEqual({ code: 'term-exists', message: 'A term with that slug already exists.', data: { status: 409, term_id: music.id } });
      expect((await t.request('POST', CATEGORIES, { token: editor, json: { name: 'Music', parent: music.id } })).status).toBe(201);
      expect((await t.request('POST', TAGS, { token: editor, json: { name: 'Music', slug: 'music' } })).status).toBe(201);
      const rename = await t.request('PATCH', `${TAGS}/${(await createTag({ name: 'Jazz' })).id}`, { token: editor, json: { slug: 'music' } });
      expect(rename.status).toBe(409);
    });

    it('writes nothing when a create fails part-way (one transaction)', async () => {
      await createCategory({ name: 'Music' });
      const count = async () => Number((await t.dataSource.query('SELECT COUNT(*) AS n FROM terms'))[0].n);
      const before = await count();
      const clash = await t.request('POST', CATEGORIES, { token: editor, json: { name: 'Other', slug: 'music' } });
      expect(clash.status).toBe(409);
      expect(await count()).toBe(before);
      const translations = await t.dataSource.query('SELECT COUNT(*) AS n FROM term_translations');
      expect(Number(translations[0].n)).toBe(1);
    });

    it('validates the parent: an existing category, never the term itself or a descendant', async () => {
      const tag = await createTag({ name: 'Tag' });
      const top = await createCategory({ name: 'Top' });
      const child = await createCategory({ name: 'Child', parent: top.id });
      for (const parent of [999, tag.id]) {
        const reply = await t.request('POST', CATEGORIES, { token: editor, json: { name: 'X', parent } });
        expect(reply.status).toBe(400);
        expect(reply.body).toEqual({
          code: 'rest_invalid_param',
          message: 'Invalid parameter(s): parent',
          data: { status: 400, params: { parent: 'must be 0 or the id of an existing category' } },
        });
      }
      for (const parent of [top.id, child.id]) {
        const reply = await t.request('PATCH', `${CATEGORIES}/${top.id}`, { token: editor, json: { parent } });
        expect(reply.status).toBe(400);
        expect(reply.body.data.params).toEqual({ parent: 'must not be the category itself or one of its descendants' });
      }
      const moved = await t.request('PATCH', `${CATEGORIES}/${child.id}`, { token: editor, json: { parent: 0 } });
      expect(moved.status).toBe(200);
      expect(moved.body.parent).toBe(0);
      expect(moved.body.urls.up).toBeUndefined();
      expect((await t.request('GET', `${CATEGORIES}?hide_empty=0`)).body.total).toBe(2);
    });

    it('updates partially and identically with POST, PUT and PATCH', async () => {
      const term = await createCategory({ name: 'Music', description: 'Kept' });
      for (const [method, name] of [['POST', 'Sounds'], ['PUT', 'Noise'], ['PATCH', 'Tunes']]) {
        const reply = await t.request(method, `${CATEGORIES}/${term.id}`, { token: editor, json: { name } });
        expect(reply.status).toBe(200);
        expect(reply.body).toMatchObject({ id: term.id, name, description: 'Kept', slug: 'music', parent: 0 });
      }
      const cleared = await t.request('PATCH', `${CATEGORIES}/${term.id}`, { token: editor, json: { description: '', slug: '' } });
      expect(cleared.body).toMatchObject({ name: 'Tunes', description: '', slug: 'tunes' });
    });

    it('deletes for good, returns the term as it was and moves children up', async () => {
      const top = await createCategory({ name: 'Top' });
      const middle = await createCategory({ name: 'Middle', parent: top.id });
      const leaf = await createCategory({ name: 'Leaf', parent: middle.id });
      const deleted = await t.request('DELETE', `${CATEGORIES}/${middle.id}`, { token: editor });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual(middle);
      expect((await t.request('GET', `${CATEGORIES}/${leaf.id}`)).body.parent).toBe(top.id);
      const again = await t.request('DELETE', `${CATEGORIES}/${middle.id}`, { token: editor });
      expect(again.status).toBe(404);
      expect(again.body.code).toBe('rest-category-not-found');
      const tag = await createTag({ name: 'Gone' });
      expect((await t.request('DELETE', `${TAGS}/${tag.id}`, { token: editor })).body).toEqual(tag);
      expect((await t.request('GET', `${TAGS}/${tag.id}`)).status).toBe(404);
    });
  });

  describe('lists', () => {
    it('hides empty terms by default and answers an empty first page with 200', async () => {
      await createCategory({ name: 'Unused' });
      const reply = await t.request('GET', CATEGORIES);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({
        categories: [],
        rest_url: `${API}/categories?per_page=10&order=asc&hide_empty=true&orderby=name&page=1`,
        total: 0,
        total_pages: 0,
      });
      expect(reply.headers['x-wp-total']).toBe('0');
    });

    it('pages with totals, links in body and headers, and 404 beyond the last page', async () => {
      for (const name of ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Kappa']) await createTag({ name });
      const page2 = await t.request('GET', `${TAGS}?hide_empty=0&per_page=2&page=2&search=a`);
      expect(page2.status).toBe(200);
      const link = (page: number) => `${API}/tags?per_page=2&order=asc&hide_empty=false&orderby=name&search=a&page=${page}`;
      expect(page2.body).toEqual({
        tags: [expect.objectContaining({ name: 'Charlie' }), expect.objectContaining({ name: 'Delta' })],
        rest_url: link(2),
        next_rest_url: link(3),
        previous_rest_url: link(1),
        total: 5,
        total_pages: 3,
      });
      expect(page2.headers['x-tec-total']).toBe('5');
      expect(page2.headers['x-tec-totalpages']).toBe('3');
      expect(page2.headers['x-wp-total']).toBe('5');
      expect(page2.headers['x-wp-totalpages']).toBe('3');
      expect(page2.headers['link']).toBe(`<${link(1)}>; rel="prev", <${link(3)}>; rel="next", <${ORIGIN}/wp-json/>; rel="https://api.w.org/"`);
      const beyond = await t.request('GET', `${TAGS}?hide_empty=0&per_page=2&page=4&search=a`);
      expect(beyond.status).toBe(404);
      expect(beyond.body).toEqual({ code: 'tag-archive-page-not-found', message: 'The requested tag archive page does not exist', data: { status: 404 } });
      const french = await t.request('GET', `/fr${TAGS}?hide_empty=0&per_page=2`);
      expect(french.body.next_rest_url).toBe(`${FR_API}/tags?per_page=2&order=asc&hide_empty=false&orderby=name&page=2`);
      expect(french.body.previous_rest_url).toBeUndefined();
    });

    it('orders by every allowed attribute in both directions', async () => {
      const b = await createCategory({ name: 'banana', description: 'y', slug: 'z-banana' });
      const a = await createCategory({ name: 'Apple', description: 'z', parent: b.id });
      const c = await createCategory({ name: 'cherry', description: 'x', slug: 'a-cherry' });
      const order = async (query: string) => ids(await t.request('GET', `${CATEGORIES}?hide_empty=0&${query}`));
      expect(await order('')).toEqual([a.id, b.id, c.id]);
      expect(await order('order=DESC')).toEqual([c.id, b.id, a.id]);
      expect(await order('orderby=id&order=desc')).toEqual([c.id, a.id, b.id]);
      expect(await order('orderby=slug')).toEqual([c.id, a.id, b.id]);
      expect(await order('orderby=description')).toEqual([c.id, b.id, a.id]);
      expect(await order('orderby=parent')).toEqual([b.id, c.id, a.id]);
      expect(await order('orderby=count')).toEqual([b.id, a.id, c.id]);
      expect(await order(`orderby=include&include=${c.id},${a.id},${b.id}`)).toEqual([c.id, a.id, b.id]);
    });

    it('filters by search, include, exclude, parent and slug', async () => {
      const music = await createCategory({ name: 'Music' });
      const jazz = await createCategory({ name: 'Jazz', parent: music.id });
      const theatre = await createCategory({ name: 'Theatre', slug: 'stage-musical' });
      const list = async (query: string) => ids(await t.request('GET', `${CATEGORIES}?hide_empty=0&${query}`));
      expect(await list('search=MUSIC')).toEqual([music.id, theatre.id]);
      expect(await list('search=50%_')).toEqual([]);
      expect(await list(`include=${jazz.id},${theatre.id}`)).toEqual([jazz.id, theatre.id]);
      expect(await list(`exclude=${jazz.id}`)).toEqual([music.id, theatre.id]);
      expect(await list(`parent=${music.id}`)).toEqual([jazz.id]);
      expect(await list('parent=0')).toEqual([music.id, theatre.id]);
      expect(await list('slug=stage-musical')).toEqual([theatre.id]);
      expect(await list('slug=stage')).toEqual([]);
    });

    it('rejects ids that are not terms of the list, and post/event that are not events', async () => {
      const tag = await createTag({ name: 'Tag' });
      const reply = await t.request('GET', `${CATEGORIES}?include=${tag.id},77&exclude=78&parent=${tag.id}&event=5&search=`);
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): search',
        data: { status: 400, params: { search: 'must be a non-empty string of at most 200 characters' } },
      });
      const lookups = await t.request('GET', `${CATEGORIES}?include=${tag.id},77&exclude=78&parent=${tag.id}&event=5`);
      expect(lookups.status).toBe(400);
      expect(lookups.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): include, exclude, parent, event',
        data: {
          status: 400,
          params: {
            include: `must list ids of existing categories; unknown: ${tag.id}, 77`,
            exclude: 'must list ids of existing categories; unknown: 78',
            parent: 'must be 0 or the id of an existing category',
            event: 'must be the id of an existing event',
          },
        },
      });
      const post = await t.request('GET', `${TAGS}?post=3`);
      expect(post.body.data.params).toEqual({ post: 'must be the id of an existing event' });
      expect((await t.request('GET', `${TAGS}?post=x`)).body.data.params).toEqual({ post: 'must be an integer' });
      expect((await t.request('GET', `${TAGS}?parent=1`)).status).toBe(200);
    });
  });

  describe('translations', () => {
    it('writes a language without touching the others and reads with fallback', async () => {
      const music = await createCategory({ name: 'Music', description: 'All music' });
      const french = await t.request('PATCH', `/fr${CATEGORIES}/${music.id}`, { token: editor, json: { name: 'Musique' } });
      expect(french.status).toBe(200);
      expect(french.body).toEqual({
        id: music.id,
        name: 'Musique',
        slug: 'musique',
        description: 'All music',
        taxonomy: 'tribe_events_cat',
        parent: 0,
        count: 0,
        url: `${ORIGIN}/fr/events/category/musique/`,
        rest_url: `${FR_API}/categories/${music.id}`,
        urls: { self: `${FR_API}/categories/${music.id}`, collection: `${FR_API}/categories` },
        lang: 'fr',
        translations: {
          en: { slug: 'music', title: 'Music', rest_url: `${API}/categories/${music.id}` },
          fr: { slug: 'musique', title: 'Musique', rest_url: `${FR_API}/categories/${music.id}` },
        },
      });
      const english = await t.request('GET', `${CATEGORIES}/${music.id}`);
      expect(english.body).toMatchObject({ name: 'Music', slug: 'music', description: 'All music', lang: 'en' });
      const chinese = await t.request('GET', `${CATEGORIES}/${music.id}?translation_language=zh-hans`);
      expect(chinese.body).toMatchObject({ name: 'Music', slug: 'music', lang: 'zh-hans', url: `${ORIGIN}/zh-hans/events/category/music/` });
      expect(Object.keys(chinese.body.translations)).toEqual(['en', 'fr']);
    });

    it('creates in the request language, which becomes the original', async () => {
      const term = await createCategory({ name: 'Théâtre' }, '/fr');
      expect(term).toMatchObject({ name: 'Théâtre', slug: 'theatre', lang: 'fr' });
      const english = await t.request('GET', `${CATEGORIES}/${term.id}`);
      expect(english.body).toMatchObject({ name: 'Théâtre', slug: 'theatre', lang: 'en', translations: { fr: { slug: 'theatre', title: 'Théâtre', rest_url: `${FR_API}/categories/${term.id}` } } });
    });

    it('lists every term in the request language, searching and sorting the presented text', async () => {
      const music = await createCategory({ name: 'Music' });
      const dance = await createCategory({ name: 'Dance' });
      await t.request('PATCH', `${CATEGORIES}/${music.id}?translation_language=fr`, { token: editor, json: { name: 'Concerts' } });
      const french = await t.request('GET', `/fr${CATEGORIES}?hide_empty=0`);
      expect(french.body.categories.map((term: { name: string }) => term.name)).toEqual(['Concerts', 'Dance']);
      expect(ids(await t.request('GET', `/fr${CATEGORIES}?hide_empty=0&search=concert`))).toEqual([music.id]);
      expect(ids(await t.request('GET', `${CATEGORIES}?hide_empty=0&search=concert`))).toEqual([]);
      expect(ids(await t.request('GET', `${CATEGORIES}?hide_empty=0&slug=concerts`))).toEqual([music.id]);
      expect(ids(await t.request('GET', `/fr${CATEGORIES}?hide_empty=0&search=danc`))).toEqual([dance.id]);
    });

    it('counts only a language’s own texts for uniqueness', async () => {
      const music = await createCategory({ name: 'Music' });
      await t.request('PATCH', `/fr${CATEGORIES}/${music.id}`, { token: editor, json: { name: 'Musique' } });
      expect((await t.request('POST', CATEGORIES, { token: editor, json: { name: 'Musique' } })).status).toBe(201);
      const clash = await t.request('POST', `/fr${CATEGORIES}`, { token: editor, json: { name: 'Musique' } });
      expect(clash.status).toBe(409);
      expect(clash.body.data.term_id).toBe(music.id);
      const slugClash = await t.request('POST', `/fr${CATEGORIES}`, { token: editor, json: { name: 'Autre', slug: 'musique' } });
      expect(slugClash.status).toBe(409);
      expect((await t.request('POST', `/fr${CATEGORIES}`, { token: editor, json: { name: 'Music' } })).status).toBe(201);
    });
  });
});
