import { DataSource } from 'typeorm';
import { SelectStatement } from './select-statement';

describe('SelectStatement', () => {
  let dataSource: DataSource;
  beforeAll(async () => {
    dataSource = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE things (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, flag INTEGER NOT NULL)');
    await dataSource.query("INSERT INTO things (id, kind, flag) VALUES (1, 'a', 1), (2, 'b', 0), (3, 'a', 0), (4, 'c', 1), (5, 'a', 1)");
  });
  afterAll(() => dataSource.destroy());

  const things = () => new SelectStatement(dataSource, 'things', 't');

  it('writes each condition in parentheses and its parameters in place, lists one per value', () => {
    const statement = things()
      .andWhere('t.kind IN (:...kinds)', { kinds: ['a', 'c'] })
      .andWhere('t.flag = :flag OR t.id = :id', { flag: true, id: 3 })
      .select('t.id', 'id')
      .orderBy('t.id', 'DESC')
      .limit(2)
      .offset(1);
    expect(statement.getQueryAndParameters()).toEqual([
      'SELECT t.id AS "id" FROM "things" "t" WHERE (t.kind IN (?, ?)) AND (t.flag = ? OR t.id = 3) ORDER BY t.id DESC LIMIT 2 OFFSET 1',
      ['a', 'c', 1],
    ]);
  });

  it('reads the rows, the first row and the count its conditions give', async () => {
    const statement = () => things().andWhere('t.kind = :kind', { kind: 'a' }).andWhere('t.flag = :flag OR t.id = 3', { flag: true });
    expect(await statement().select('t.id', 'id').addSelect('t.kind', 'kind').orderBy('t.id').getRawMany()).toEqual([
      { id: 1, kind: 'a' },
      { id: 3, kind: 'a' },
      { id: 5, kind: 'a' },
    ]);
    expect(await statement().select('t.id', 'id').orderBy('t.id', 'DESC').getRawOne()).toEqual({ id: 5 });
    // Ordering and paging do not change a count.
    expect(await statement().orderBy('t.id').limit(1).offset(1).getCount()).toBe(3);
    expect(await things().getCount()).toBe(5);
  });

  it('selects the whole row when nothing is selected, and pages from an offset alone', async () => {
    expect(things().offset(3).orderBy('t.id').getQueryAndParameters()).toEqual(['SELECT "t".* FROM "things" "t" ORDER BY t.id ASC LIMIT -1 OFFSET 3', []]);
    expect(await things().offset(3).orderBy('t.id').getRawMany()).toEqual([
      { id: 4, kind: 'c', flag: 1 },
      { id: 5, kind: 'a', flag: 1 },
    ]);
  });

  it('refuses paging that is not a whole number', () => {
    expect(() => things().limit(1.5)).toThrow("a statement's limit is a whole number, not 1.5");
    expect(() => things().offset(-1)).toThrow("a statement's offset is a whole number, not -1");
  });
});
