import type { OrganizerResponse } from '@calendar/organizer';
import type { VenueResponse } from '@calendar/venue';
import { eventJsonLd, EventJsonLdOwn, eventJsonLdOwnTexts, eventJsonLdText, organizerJsonLdText, placeJsonLdText } from './event.mapper';

// Only the members the JSON-LD reads.
const hall = {
  venue: 'Main Hall',
  description: '<p>Big <b>room</b></p>',
  url: 'https://calendar.example/venue/main-hall/',
  address: '1 Rue A',
  city: 'Paris',
  stateprovince: '',
  zip: '75001',
  country: 'France',
  geo_lat: 48.86,
  geo_lng: 2.35,
  phone: '',
  website: 'https://hall.example',
  image: false,
} as unknown as VenueResponse;
const organizers = [
  { organizer: 'Acme', description: '', website: '', url: 'https://calendar.example/organizer/acme/', phone: '+33 1', email: '', image: false },
  { organizer: 'Blue "Note"', description: 'Jazz', website: 'https://blue.example', url: '', phone: '', email: 'a@b.example', image: false },
] as unknown as OrganizerResponse[];
const head = {
  '@context': 'https://schema.org',
  '@type': 'Event',
  name: 'Jazz \u2028 Night',
  url: 'https://calendar.example/event/jazz-night/',
  startDate: '2030-12-05T19:00:00+01:00',
  endDate: '2030-12-05T22:30:00+01:00',
};

describe('eventJsonLdText', () => {
  it('is the JSON text of eventJsonLd, with or without a place, organizers and members after them', () => {
    const tails: EventJsonLdOwn['tail'][] = [{}, { offers: { '@type': 'Offer', price: 10, url: head.url } }, { offers: { '@type': 'Offer', price: 0, url: head.url }, image: 'https://img.example/a.png' }];
    for (const tail of tails) {
      const own = { head, tail };
      for (const venues of [[], [hall]]) {
        for (const organizing of [[], organizers.slice(0, 1), organizers]) {
          const text = eventJsonLdText(
            eventJsonLdOwnTexts(own),
            venues.length > 0 ? placeJsonLdText(venues[0]) : undefined,
            organizing.map((organizer) => organizerJsonLdText(organizer)),
          );
          expect(text).toBe(JSON.stringify(eventJsonLd(own, venues, organizing)));
        }
      }
    }
  });
});
