import { foldSearchText, prefixUpperBound, searchEntries, searchTerms, searchTokens } from './search';

describe('search tokens', () => {
  it('folds case, accents, compatibility forms, tags and entities', () => {
    expect(foldSearchText('<p>Café &amp; CRÈME brûlée&nbsp;ﬁn &#233;t&#xE9;</p>')).toBe(' cafe & creme brulee fin ete ');
    expect([...searchTokens('<p>Café &amp; CRÈME</p><p>brûlée</p>')]).toEqual(['cafe', 'creme', 'brulee']);
  });

  it('cuts Han runs into overlapping pairs plus the last character, and splits where the script changes', () => {
    expect([...searchTokens('古典音乐会')]).toEqual(['古典', '典音', '音乐', '乐会', '会']);
    expect([...searchTokens('Jazz音乐 2027')]).toEqual(['jazz', '音乐', '乐', '2027']);
    expect([...searchTokens('夜')]).toEqual(['夜']);
  });

  it('turns a search into terms: words as prefixes, Han pairs as exact tokens, one Han character as a prefix', () => {
    expect(searchTerms('  Caf  MUSÉE ')).toEqual([
      { token: 'caf', prefix: true },
      { token: 'musee', prefix: true },
    ]);
    expect(searchTerms('音乐会')).toEqual([
      { token: '音乐', prefix: false },
      { token: '乐会', prefix: false },
    ]);
    expect(searchTerms('会 rock-n-roll rock')).toEqual([
      { token: '会', prefix: true },
      { token: 'rock', prefix: true },
      { token: 'n', prefix: true },
      { token: 'roll', prefix: true },
    ]);
    expect(searchTerms('!!! ---')).toEqual([]);
    expect(searchTerms('x'.repeat(100))).toEqual([{ token: 'x'.repeat(64), prefix: true }]);
  });

  it('bounds prefixes in code point order', () => {
    expect(prefixUpperBound('caf')).toBe('cag');
    expect(prefixUpperBound('音')).toBe('韴');
    expect(prefixUpperBound('a\u{10ffff}')).toBe('b');
    expect(prefixUpperBound('\u{10ffff}')).toBeNull();
    expect(prefixUpperBound('\ud7ff')).toBe('\ue000');
  });

  it('indexes each language with the original as the fallback of its empty fields', () => {
    const entries = searchEntries(
      [
        { lang: 'en', fields: ['Summer Concert', null, '<p>Open air</p>'] },
        { lang: 'fr', fields: ['Concert d’été', '', null] },
      ],
      'en',
    );
    expect(entries).toEqual([
      { lang: 'en', original: true, token: 'summer' },
      { lang: 'en', original: true, token: 'concert' },
      { lang: 'en', original: true, token: 'open' },
      { lang: 'en', original: true, token: 'air' },
      { lang: 'fr', original: false, token: 'concert' },
      { lang: 'fr', original: false, token: 'd' },
      { lang: 'fr', original: false, token: 'ete' },
      { lang: 'fr', original: false, token: 'open' },
      { lang: 'fr', original: false, token: 'air' },
    ]);
  });
});
