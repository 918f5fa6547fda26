import { CreateCategoryDto, TermRepository, TermService } from '@calendar/taxonomy';
import { ServiceHarness, startServices, testEngines } from '../testing/service-harness';

/*
 * A category's ancestors, nearest first, read in one statement whatever the tree's depth (what an event counts for
 * in the totals per day and the terms' counts): on a real database, for a chain of three, a root, an unknown id,
 * and a cycle that rows written by hand could hold, which the read must end.
 */
describe.each(testEngines())('term ancestors (%s)', (engine) => {
  let services: ServiceHarness;
  beforeAll(async () => {
    services = await startServices(engine);
  });
  afterAll(() => services.close());

  it('are the chain of parents, nearest first, and end at a cycle', async () => {
    const terms = services.get(TermService);
    const editor = services.scope(await services.caller('editor'));
    const category = async (name: string, parent?: number) => (await terms.create('category', await services.fields(CreateCategoryDto, { name, ...(parent ? { parent } : {}) }), editor)).id;
    const music = await category('Music');
    const jazz = await category('Jazz', music);
    const bebop = await category('Bebop', jazz);
    const theatre = await category('Theatre');
    const repository = services.get(TermRepository);
    const manager = services.dataSource.manager;

    const ancestors = await repository.ancestors(manager, [bebop, jazz, theatre, 999_999]);
    expect([bebop, jazz, music, theatre, 999_999].map((id) => ancestors(id))).toEqual([[jazz, music], [music], [], [], []]);
    expect((await repository.ancestors(manager, []))(music)).toEqual([]);

    // Music under Bebop: a cycle the service refuses to write, read to its end all the same; each chain stops where
    // it comes round.
    await manager.query('UPDATE terms SET parent_id = ? WHERE id = ?', [bebop, music]);
    const cycled = await repository.ancestors(manager, [bebop]);
    expect([cycled(bebop), cycled(music)]).toEqual([
      [jazz, music, bebop],
      [bebop, jazz, music],
    ]);
  });
});
