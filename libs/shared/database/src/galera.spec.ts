import { isGaleraNode, syncWaitFor } from './galera';

describe('Galera settings', () => {
  it('recognises a Galera node by wsrep_on, and a server without the variable as none', async () => {
    expect(await isGaleraNode(async () => [{ wsrep_on: 1 }])).toBe(true);
    expect(await isGaleraNode(async () => [{ wsrep_on: '0' }])).toBe(false);
    expect(
      await isGaleraNode(async () => {
        throw new Error("Unknown system variable 'wsrep_on'");
      }),
    ).toBe(false);
  });

  it('sets wsrep_sync_wait on Galera nodes only: 1 for auto, else the number configured', () => {
    expect([syncWaitFor('auto', true), syncWaitFor(3, true), syncWaitFor(0, true), syncWaitFor('auto', false), syncWaitFor(7, false)]).toEqual([1, 3, 0, null, null]);
  });
});
