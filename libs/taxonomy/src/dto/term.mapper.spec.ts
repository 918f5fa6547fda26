import { loadConfig } from '@calendar/shared/config';
import { LinkBuilder } from '@calendar/shared/http';
import { TermEntity } from '../entities/term.entity';
import { TermTranslationEntity } from '../entities/term-translation.entity';
import { mapTerm } from './term.mapper';

const config = loadConfig({ SITE_URL: 'https://site.example' });
const links = new LinkBuilder(config);
const scope = { origin: 'https://api.example', versions: {} };

function term(): TermEntity {
  const entity = Object.assign(new TermEntity(), { id: 7, taxonomy: 'category', parentId: 3, originalLang: 'en', eventCount: 4 });
  entity.translations = [
    Object.assign(new TermTranslationEntity(), { lang: 'fr', name: 'Musique', slug: 'musique', description: null }),
    Object.assign(new TermTranslationEntity(), { lang: 'en', name: 'Music', slug: 'music', description: 'Sounds' }),
  ];
  return entity;
}

describe('mapTerm', () => {
  it('presents the request language with per-field fallback and language-based links', () => {
    expect(mapTerm(term(), { ...scope, language: 'fr', caller: null }, links, config.languages)).toEqual({
      id: 7,
      name: 'Musique',
      slug: 'musique',
      description: 'Sounds',
      taxonomy: 'tribe_events_cat',
      parent: 3,
      count: 4,
      url: 'https://site.example/fr/events/category/musique/',
      rest_url: 'https://api.example/fr/wp-json/calendar/events/v1/categories/7',
      urls: {
        self: 'https://api.example/fr/wp-json/calendar/events/v1/categories/7',
        collection: 'https://api.example/fr/wp-json/calendar/events/v1/categories',
        up: 'https://api.example/fr/wp-json/calendar/events/v1/categories/3',
      },
      lang: 'fr',
      translations: {
        en: { slug: 'music', title: 'Music', rest_url: 'https://api.example/wp-json/calendar/events/v1/categories/7' },
        fr: { slug: 'musique', title: 'Musique', rest_url: 'https://api.example/fr/wp-json/calendar/events/v1/categories/7' },
      },
    });
  });

  it('leaves out parent for tags and up for top-level terms', () => {
    const tag = Object.assign(term(), { taxonomy: 'tag', parentId: 0 });
    const mapped = mapTerm(tag, { ...scope, language: 'en', caller: null }, links, config.languages);
    expect(mapped.parent).toBeUndefined();
    expect(mapped.taxonomy).toBe('post_tag');
    expect(mapped.urls).toEqual({
      self: 'https://api.example/wp-json/calendar/events/v1/tags/7',
      collection: 'https://api.example/wp-json/calendar/events/v1/tags',
    });
    expect(mapped.url).toBe('https://site.example/events/tag/music/');
  });
});
