import { Column, DataSource, Entity, JoinColumn, ManyToOne, OneToMany, PrimaryGeneratedColumn, Relation } from 'typeorm';
import { TranslatedLoader } from './translated-loader';

/** An embedded object's columns (`place_city`, `place_rank`). */
class Place {
  @Column({ type: 'varchar', length: 20, nullable: true })
  city: string | null;

  @Column({ type: 'integer', default: 0 })
  rank: number;
}

@Entity('things')
class Thing {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'boolean', default: false })
  flag: boolean;

  @Column({ name: 'starts_at', type: 'datetime' })
  startsAt: Date;

  @Column({ type: 'varchar', length: 20, nullable: true })
  note: string | null;

  /** Read through a transformer: stored in capitals, read in lower case. */
  @Column({ type: 'varchar', length: 20, default: '', transformer: { to: (value: string) => value.toUpperCase(), from: (value: string) => value.toLowerCase() } })
  code: string;

  @Column(() => Place)
  place: Place;

  @OneToMany(() => ThingText, (text) => text.thing)
  translations: Relation<ThingText[]>;
}

@Entity('thing_texts')
class ThingText {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'thing_id', type: 'integer' })
  thingId: number;

  @Column({ type: 'varchar', length: 16 })
  lang: string;

  @ManyToOne(() => Thing, (thing) => thing.translations)
  @JoinColumn({ name: 'thing_id' })
  thing: Relation<Thing>;
}

describe('TranslatedLoader', () => {
  let dataSource: DataSource;
  beforeAll(async () => {
    dataSource = new DataSource({ type: 'better-sqlite3', database: ':memory:', entities: [Thing, ThingText], synchronize: true });
    await dataSource.initialize();
    await dataSource.getRepository(Thing).insert([
      { flag: true, startsAt: new Date('2030-01-02T03:04:05Z'), note: 'a', code: 'Ab', place: { city: 'Lyon', rank: 2 } },
      { flag: false, startsAt: new Date('2031-01-01T00:00:00Z'), note: null, code: 'cd', place: { city: null, rank: 0 } },
      { flag: false, startsAt: new Date('2032-06-30T23:59:59Z'), note: 'c', code: 'EF', place: { city: 'Oslo', rank: 5 } },
    ]);
    await dataSource.getRepository(ThingText).insert([
      { thingId: 1, lang: 'en' },
      { thingId: 1, lang: 'fr' },
      { thingId: 3, lang: 'zh-hans' },
    ]);
  });
  afterAll(() => dataSource.destroy());

  it('hydrates what TypeORM hydrates, in the order of the ids asked, without the missing ones', async () => {
    const loaded = await new TranslatedLoader(dataSource, Thing).load([3, 99, 1, 2]);
    const expected = await dataSource.getRepository(Thing).find({ relations: { translations: true } });
    const byId = new Map(expected.map((thing) => [thing.id, thing]));
    const sorted = (things: Thing[]) => things.map((thing) => ({ ...thing, translations: [...thing.translations].sort((a, b) => a.id - b.id) }));
    expect(sorted(loaded)).toEqual(sorted([3, 1, 2].map((id) => byId.get(id) as Thing)));
    expect(loaded[0]).toBeInstanceOf(Thing);
    expect(loaded[1].startsAt).toEqual(new Date('2030-01-02T03:04:05Z'));
    expect(loaded[1].flag).toBe(true);
    expect(loaded.map((thing) => [thing.code, thing.place])).toEqual([
      ['ef', { city: 'Oslo', rank: 5 }],
      ['ab', { city: 'Lyon', rank: 2 }],
      ['cd', { city: null, rank: 0 }],
    ]);
    expect(loaded[2].translations).toEqual([]);
    expect(await new TranslatedLoader(dataSource, Thing).load([])).toEqual([]);
  });

  it('reads more columns in the same statement, given with each record from its first row', async () => {
    const loader = new TranslatedLoader(dataSource, Thing);
    const found = await loader.loadWith('r.id IN (?, ?)', [1, 2], "(SELECT COUNT(*) FROM thing_texts c WHERE c.thing_id = r.id) AS texts, 'x' AS mark");
    const [thing1, thing2] = await loader.load([1, 2]);
    expect([...found].map(([thing, row]) => [thing, row['texts'], row['mark']])).toEqual([
      [thing1, 2, 'x'],
      [thing2, 0, 'x'],
    ]);
    expect([...(await loader.loadWith('r.id = ?', [99], '1 AS one'))]).toEqual([]);
  });
});
