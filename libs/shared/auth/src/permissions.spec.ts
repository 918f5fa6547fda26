import type { Caller, Role } from '@calendar/shared/http';
import { can } from './permissions';

const as = (role: Role): Caller => ({ id: 1, login: role, role });

describe('capabilities of SPEC §8', () => {
  it('grants each role what the table says', () => {
    const table = (['administrator', 'editor', 'author', 'contributor'] as Role[]).map((role) => {
      const caller = as(role);
      return [role, can.readOthersPrivate(caller), can.publish(caller), can.editOthers(caller), can.manageTerms(caller), can.manageUsers(caller)];
    });
    expect(table).toEqual([
      ['administrator', true, true, true, true, true],
      ['editor', true, true, true, true, false],
      ['author', false, true, false, false, false],
      ['contributor', false, false, false, false, false],
    ]);
    expect([can.createRecords(null), can.manageTerms(null), can.readOthersPrivate(undefined)]).toEqual([false, false, false]);
  });
});
