import { cleanExplicitSlug, firstFreeSlug, slugFromText } from './slug';

describe('slugs', () => {
  it('transliterates titles in any script', () => {
    expect(slugFromText('Fête de la Musique 2026')).toBe('fete-de-la-musique-2026');
    expect(slugFromText('音乐节')).toBe('yin-le-jie');
    expect(slugFromText('  Rock & Roll!! ')).toBe('rock-roll');
  });

  it('cleans explicit slugs but keeps their letters', () => {
    expect(cleanExplicitSlug(' Jazz Club ')).toBe('jazz-club');
    expect(cleanExplicitSlug('café/noir?')).toBe('cafénoir');
    expect(cleanExplicitSlug('音乐')).toBe('音乐');
    expect(cleanExplicitSlug('///')).toBe('');
  });

  it('suffixes -2, -3 until free', () => {
    expect(firstFreeSlug('jazz', new Set())).toBe('jazz');
    expect(firstFreeSlug('jazz', new Set(['jazz', 'jazz-2']))).toBe('jazz-3');
  });
});
