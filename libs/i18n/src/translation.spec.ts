import { likeContains, pickTranslated, translationsKey } from './translation';

const rows = [
  { lang: 'en', name: 'Music', description: 'All music' },
  { lang: 'fr', name: 'Musique', description: null },
];

describe('pickTranslated', () => {
  it('takes each field from the requested language, else from the original', () => {
    expect(pickTranslated(rows, ['name', 'description'], 'fr', 'en')).toEqual({ name: 'Musique', description: 'All music' });
    expect(pickTranslated(rows, ['name', 'description'], 'zh-hans', 'en')).toEqual({ name: 'Music', description: 'All music' });
  });
});

describe('translationsKey', () => {
  it('lists every translated language in configured order', () => {
    const key = translationsKey([...rows].reverse(), ['en', 'fr', 'zh-hans'], (row) => ({ title: row.name }));
    expect(Object.keys(key)).toEqual(['en', 'fr']);
    expect(key['fr']).toEqual({ title: 'Musique' });
  });
});

describe('likeContains', () => {
  it('escapes LIKE wildcards', () => {
    expect(likeContains('50%_Off!')).toBe('%50!%!_off!!%');
  });
});
