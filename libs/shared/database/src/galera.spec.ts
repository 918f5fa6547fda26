import { isGaleraNode, mysqlSessionSettings, syncWaitFor } from './galera';

describe('Galera settings', () => {
  it('recognises a Galera node by wsrep_on, and a server without the variable as none', async () => {
    expect(await isGaleraNode(async () => [{ wsrep_on: 1 }])).toBe(true);
    expect(await isGaleraNode(async () => [{ wsrep_on: '0' }])).toBe(false);
    expect(
      await isGaleraNode(async () => {
        throw Object.assign(new Error("Unknown system variable 'wsrep_on'"), { driverError: { errno: 1193, code: 'ER_UNKNOWN_SYSTEM_VARIABLE' } });
      }),
    ).toBe(false);
  });

  it('gives no answer rather than a wrong one when the question fails otherwise', async () => {
    const deadlock = Object.assign(new Error('Deadlock found when trying to get lock'), { driverError: { errno: 1213, code: 'ER_LOCK_DEADLOCK' } });
    await expect(
      isGaleraNode(async () => {
        throw deadlock;
      }),
    ).rejects.toBe(deadlock);
    await expect(
      isGaleraNode(async () => {
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED' });
      }),
    ).rejects.toThrow('ECONNREFUSED');
  });

  it('sets wsrep_sync_wait on Galera nodes only: 1 for auto, else the number configured', () => {
    expect([syncWaitFor('auto', true), syncWaitFor(3, true), syncWaitFor(0, true), syncWaitFor('auto', false), syncWaitFor(7, false)]).toEqual([1, 3, 0, null, null]);
  });

  it('sets the IN list estimates on every MySQL session, the wait for the cluster on Galera nodes in the same statement, and READ COMMITTED', () => {
    expect([mysqlSessionSettings(null), mysqlSessionSettings(1)]).toEqual([
      ['SET SESSION eq_range_index_dive_limit = 10', 'SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED'],
      ['SET SESSION eq_range_index_dive_limit = 10, wsrep_sync_wait = 1', 'SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED'],
    ]);
  });
});
