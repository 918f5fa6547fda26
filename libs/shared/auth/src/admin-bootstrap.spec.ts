import { loadConfig } from '@calendar/shared/config';
import { createMigratedSqlite } from '@calendar/shared/testing';
import { DataSource } from 'typeorm';
import { AdminBootstrap } from './admin-bootstrap';
import { ApiTokenEntity } from './entities/api-token.entity';
import { UserEntity } from './entities/user.entity';
import { hashToken, TokenService } from './token.service';
import { UserService } from './user.service';

const TOKEN = 'bootstrap-test-administrator-token-0123456789';

describe('AdminBootstrap on a real database', () => {
  let dataSource: DataSource;
  let users: UserService;
  let tokens: TokenService;
  const bootstrap = (token = TOKEN) => new AdminBootstrap(loadConfig({ ADMIN_TOKEN: token }), users, tokens).onApplicationBootstrap();
  const rows = async () => ({
    users: await dataSource.query('SELECT login, role FROM users ORDER BY id'),
    tokens: await dataSource.query('SELECT u.login, t.token_hash AS hash, t.revoked_at IS NULL AS live FROM api_tokens t JOIN users u ON u.id = t.user_id ORDER BY t.id'),
  });

  beforeEach(async () => {
    dataSource = await createMigratedSqlite([UserEntity, ApiTokenEntity]);
    users = new UserService(dataSource.getRepository(UserEntity));
    tokens = new TokenService(dataSource.getRepository(ApiTokenEntity));
  });
  afterEach(() => dataSource.destroy());

  it('makes one administrator and one token when instances start at once', async () => {
    // Their queries interleave on the one connection: every bootstrap finds no admin before any has made one.
    await Promise.all([bootstrap(), bootstrap(), bootstrap(), bootstrap()]);
    expect(await rows()).toEqual({ users: [{ login: 'admin', role: 'administrator' }], tokens: [{ login: 'admin', hash: hashToken(TOKEN), live: 1 }] });
    expect(await tokens.authenticate(`Bearer ${TOKEN}`)).toEqual({ id: 1, login: 'admin', role: 'administrator' });
  });

  it('gives the role back to an existing admin and brings a revoked configured token back to life', async () => {
    const admin = await users.create('admin', 'contributor');
    await tokens.issue(admin, TOKEN);
    expect(await tokens.revoke(TOKEN)).toBe(true);
    await bootstrap();
    await bootstrap();
    expect(await rows()).toEqual({ users: [{ login: 'admin', role: 'administrator' }], tokens: [{ login: 'admin', hash: hashToken(TOKEN), live: 1 }] });
  });

  it('makes the configured token the admin one when another user holds it, and does nothing without ADMIN_TOKEN', async () => {
    const other = await users.create('someone', 'editor');
    await tokens.issue(other, TOKEN);
    await new AdminBootstrap(loadConfig({}), users, tokens).onApplicationBootstrap();
    expect(await rows()).toEqual({ users: [{ login: 'someone', role: 'editor' }], tokens: [{ login: 'someone', hash: hashToken(TOKEN), live: 1 }] });
    await bootstrap();
    expect(await rows()).toEqual({
      users: [
        { login: 'someone', role: 'editor' },
        { login: 'admin', role: 'administrator' },
      ],
      tokens: [{ login: 'admin', hash: hashToken(TOKEN), live: 1 }],
    });
  });
});
