import { foldSearchText, prefixUpperBound, searchConditions, searchEntries, searchRuns, searchTerms, searchTokens } from './search';

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

  it('reads the rows of a window by their start when the list bounds the start, naming the index each engine reads', () => {
    const sql = { kind: 'event', id: 'e.id', translationTable: 'event_translations', ownerColumn: 'event_id', language: 'en' };
    const language = '(s.lang = :searchLang OR (s.original = :searchOriginal AND NOT EXISTS (SELECT 1 FROM event_translations x WHERE x.event_id = s.record_id AND x.lang = :searchLang)))';
    const params = { searchKind: 'event', searchLang: 'en', searchOriginal: true, token0: 'jazz', upper0: prefixUpperBound('jazz') };
    const [term] = searchTerms('jazz');
    expect(searchConditions([term], { ...sql, starts: { from: '2030-03-01 00:00:00.000', to: '2030-03-31 23:59:59.000' }, engine: 'mysql' })).toEqual([
      {
        // A prefix is the word itself by its start, or a longer word: the start then bounds the index range.
        sql: `e.id IN (SELECT s.record_id FROM search_tokens s FORCE INDEX (ix_search_tokens_start) WHERE s.kind = :searchKind AND ((s.token = :token0 AND s.start_utc >= :searchFrom AND s.start_utc <= :searchTo) OR (s.token > :token0 AND s.token < :upper0)) AND ${language} AND s.start_utc >= :searchFrom AND s.start_utc <= :searchTo)`,
        params: { ...params, searchFrom: '2030-03-01 00:00:00.000', searchTo: '2030-03-31 23:59:59.000' },
      },
    ]);
    // The same set as a statement of its own, each record once (a total driven from it).
    expect(searchConditions([term], { ...sql, starts: { from: '2030-03-01 00:00:00.000' }, engine: 'mysql', asSet: true })[0].sql).toBe(
      `SELECT DISTINCT s.record_id AS id FROM search_tokens s FORCE INDEX (ix_search_tokens_start) WHERE s.kind = :searchKind AND ((s.token = :token0 AND s.start_utc >= :searchFrom) OR (s.token > :token0 AND s.token < :upper0)) AND ${language} AND s.start_utc >= :searchFrom`,
    );
    // Only an upper bound, on SQLite: the word's rows up to it, or a longer word's, as a union of the two ranges
    // (as one OR, SQLite reads every row of the kind from the index).
    const sqliteRange = (token: string, selected: string) =>
      `SELECT ${selected} FROM search_tokens s INDEXED BY ix_search_tokens_start WHERE s.kind = :searchKind AND ${token} AND ${language} AND s.start_utc <= :searchTo`;
    expect(searchConditions([term], { ...sql, starts: { to: '2030-03-31 23:59:59.000' }, engine: 'sqlite' })).toEqual([
      {
        sql: `e.id IN (${sqliteRange('s.token = :token0', 's.record_id')} UNION ALL ${sqliteRange('s.token > :token0 AND s.token < :upper0', 's.record_id')})`,
        params: { ...params, searchFrom: undefined, searchTo: '2030-03-31 23:59:59.000' },
      },
    ]);
    const listed = `DISTINCT s.record_id AS id, s.start_utc AS start_utc, s.end_utc AS end_utc, s.featured AS featured, 'publish' AS status, 0 AS hide_from_listings`;
    expect(searchConditions([term], { ...sql, starts: { to: '2030-03-31 23:59:59.000' }, engine: 'sqlite', asSet: 'listed' })[0].sql).toBe(
      `${sqliteRange('s.token = :token0', listed)} AND s.listed = 1 UNION ${sqliteRange('s.token > :token0 AND s.token < :upper0', listed)} AND s.listed = 1`,
    );
    // A probe per event reads the rows of the event (SQLite would guess the start index), whatever the bounds.
    expect(searchConditions([term], { ...sql, probe: true, starts: { from: '2030-03-01 00:00:00.000' }, engine: 'sqlite' })[0].sql).toBe(
      `(SELECT 1 FROM search_tokens s INDEXED BY ix_search_tokens_record WHERE s.record_id = e.id AND s.kind = :searchKind AND s.token >= :token0 AND s.token < :upper0 AND ${language} LIMIT 1) = 1`,
    );
    // A list with no bound on the start reads no start, and names no index.
    expect(searchConditions([term], { ...sql, starts: {}, engine: 'mysql' })[0].sql).toBe(
      `e.id IN (SELECT s.record_id FROM search_tokens s WHERE s.kind = :searchKind AND s.token >= :token0 AND s.token < :upper0 AND ${language})`,
    );
  });

  it('reads a term as runs by start within the bounds: the word itself in index order, then the longer words once each', () => {
    const sql = { kind: 'event', id: 'e.id', translationTable: 'event_translations', ownerColumn: 'event_id', language: 'fr' };
    const language = '(s.lang = :searchLang OR (s.original = :searchOriginal AND NOT EXISTS (SELECT 1 FROM event_translations x WHERE x.event_id = s.record_id AND x.lang = :searchLang)))';
    const params = { searchKind: 'event', searchLang: 'fr', searchOriginal: true, runToken: 'jazz', runFrom: '2030-03-01 00:00:00.000', runTo: '2030-03-31 23:59:59.000' };
    const starts = { from: params.runFrom, to: params.runTo };
    expect(searchRuns({ token: 'jazz', prefix: true }, { ...sql, starts })).toEqual([
      { where: `s.kind = :searchKind AND s.token = :runToken AND s.start_utc >= :runFrom AND s.start_utc <= :runTo AND ${language}`, params, distinct: false },
      { where: `s.kind = :searchKind AND s.token > :runToken AND s.token < :runUpper AND s.start_utc >= :runFrom AND s.start_utc <= :runTo AND ${language}`, params: { ...params, runUpper: 'jaz{' }, distinct: true },
    ]);
    // An exact token (a pair of Han characters) is one run; one bound is enough; none, no run.
    expect(searchRuns({ token: '音乐', prefix: false }, { ...sql, starts: { to: params.runTo } })).toEqual([
      { where: `s.kind = :searchKind AND s.token = :runToken AND s.start_utc <= :runTo AND ${language}`, params: { ...params, runToken: '音乐', runFrom: undefined }, distinct: false },
    ]);
    expect(searchRuns({ token: 'jazz', prefix: true }, { ...sql, starts: {} })).toEqual([]);
  });
});
