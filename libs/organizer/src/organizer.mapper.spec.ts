import { loadConfig } from '@calendar/shared/config';
import { LinkBuilder } from '@calendar/shared/http';
import { mapOrganizer } from './dto/organizer.mapper';
import { OrganizerEntity, OrganizerTranslationEntity } from './entities/organizer.entity';

describe('mapOrganizer', () => {
  it('presents the request language with fallback, dates in the service time zone, and JSON-LD on request', () => {
    const config = loadConfig({ TIMEZONE: 'America/New_York', SITE_URL: 'https://site.example' });
    const organizer = Object.assign(new OrganizerEntity(), {
      id: 4,
      authorId: 1,
      status: 'publish',
      originalLang: 'en',
      imageId: null,
      publishedAt: new Date('2026-07-01T16:00:00Z'),
      modifiedAt: new Date('2026-07-02T16:00:00Z'),
      phone: '',
      website: '',
      email: 'a@acme.example',
    });
    organizer.translations = [Object.assign(new OrganizerTranslationEntity(), { lang: 'en', name: 'Acme', slug: 'acme', description: null })];
    const mapped = mapOrganizer(organizer, { origin: 'https://api.example', versions: {}, language: 'fr', caller: null }, { links: new LinkBuilder(config), config }, null, true);
    expect(mapped).toMatchObject({
      date: '2026-07-01 12:00:00',
      date_utc: '2026-07-01 16:00:00',
      global_id: 'site.example?id=4',
      url: 'https://site.example/fr/organizer/acme/',
      rest_url: 'https://api.example/fr/wp-json/calendar/events/v1/organizers/4',
      organizer: 'Acme',
      lang: 'fr',
      json_ld: { '@type': 'Organization', name: 'Acme', url: 'https://site.example/fr/organizer/acme/', email: 'a@acme.example' },
    });
  });
});
