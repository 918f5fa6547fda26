import { queryCounter } from '@calendar/shared/database';
import { createMigratedSqlite } from '@calendar/shared/testing';
import { DataSource } from 'typeorm';
import { ApiTokenEntity } from './entities/api-token.entity';
import { UserEntity } from './entities/user.entity';
import { generateToken, hashToken, TokenService } from './token.service';
import { UserService, UserInputError } from './user.service';

describe('TokenService and UserService on a real database', () => {
  let dataSource: DataSource;
  let users: UserService;
  let tokens: TokenService;
  beforeAll(async () => {
    dataSource = await createMigratedSqlite([UserEntity, ApiTokenEntity]);
    users = new UserService(dataSource.getRepository(UserEntity));
    tokens = new TokenService(dataSource.getRepository(ApiTokenEntity));
  });
  afterAll(() => dataSource.destroy());

  it('makes 32-byte URL-safe tokens and stores only their digest', async () => {
    const token = generateToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const alice = await users.create('alice', 'editor');
    const issued = await tokens.issue(alice);
    const rows = await dataSource.query('SELECT token_hash FROM api_tokens');
    expect(rows).toEqual([{ token_hash: hashToken(issued) }]);
    expect(JSON.stringify(rows)).not.toContain(issued);
  });

  it('authenticates Bearer and Basic credentials and refuses the rest', async () => {
    const bob = await users.create('bob', 'author');
    const token = await tokens.issue(bob);
    const caller = { id: bob.id, login: 'bob', role: 'author' };
    expect(await tokens.authenticate(`Bearer ${token}`)).toEqual(caller);
    expect(await tokens.authenticate(`bearer   ${token}`)).toEqual(caller);
    expect(await tokens.authenticate(`Basic ${Buffer.from(`bob:${token}`).toString('base64')}`)).toEqual(caller);
    expect(await tokens.authenticate(`Basic ${Buffer.from(`alice:${token}`).toString('base64')}`)).toBeNull();
    expect(await tokens.authenticate(`Basic ${Buffer.from(token).toString('base64')}`)).toBeNull();
    expect(await tokens.authenticate('Bearer nope')).toBeNull();
    expect(await tokens.authenticate(`Token ${token}`)).toBeNull();
    expect(await tokens.revoke(token)).toBe(true);
    expect(await tokens.revoke(token)).toBe(false);
    expect(await tokens.authenticate(`Bearer ${token}`)).toBeNull();
  });

  it('checks a token with one query, the token joined to its user', async () => {
    const carol = await users.create('cora', 'editor');
    const token = await tokens.issue(carol);
    const before = queryCounter.count;
    expect(await tokens.authenticate(`Bearer ${token}`)).toEqual({ id: carol.id, login: 'cora', role: 'editor' });
    expect(queryCounter.count - before).toBe(1);
  });

  it('validates logins and roles and keeps logins unique', async () => {
    await expect(users.create('has space', 'editor')).rejects.toThrow(new UserInputError('login must be 1 to 60 letters, digits or . _ @ -'));
    await expect(users.create('carol', 'owner')).rejects.toThrow('role must be one of: administrator, editor, author, contributor');
    await users.create('carol', 'contributor');
    await expect(users.create('carol', 'editor')).rejects.toThrow('a user with login "carol" already exists');
    const ensured = await users.ensure('carol', 'administrator');
    expect((await users.findById(ensured.id))?.role).toBe('administrator');
  });
});
