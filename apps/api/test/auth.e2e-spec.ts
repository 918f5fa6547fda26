import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, TestDatabase } from '@calendar/shared/testing';
import { ENGINE, startTestApp, TestApp } from './support/test-app';

const TAGS = '/wp-json/calendar/events/v1/tags';
const ADMIN_TOKEN = 'admin-token-0123456789-abcdefghijklmnopqrstuvwxyz';
const run = promisify(execFile);
const WORKSPACE = join(__dirname, '../../..');

const basic = (login: string, token: string) => `Basic ${Buffer.from(`${login}:${token}`).toString('base64')}`;

describe('authentication and roles (SPEC §8)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ADMIN_TOKEN });
  });
  afterAll(() => t.close());

  it('bootstraps an admin administrator with ADMIN_TOKEN', async () => {
    const reply = await t.request('POST', TAGS, { token: ADMIN_TOKEN, json: { name: 'By admin' } });
    expect(reply.status).toBe(201);
    const admin = await t.dataSource.query(`SELECT login, role FROM users WHERE login = 'admin'`);
    expect(admin).toEqual([{ login: 'admin', role: 'administrator' }]);
  });

  describe('with fresh users', () => {
    beforeEach(() => t.reset());

    it('accepts Bearer tokens and Basic login:token', async () => {
      const editor = await t.user('editor', 'eddie');
      expect((await t.request('POST', TAGS, { token: editor.token, json: { name: 'Bearer' } })).status).toBe(201);
      const viaBasic = await t.request('POST', TAGS, { headers: { authorization: basic('eddie', editor.token) }, json: { name: 'Basic' } });
      expect(viaBasic.status).toBe(201);
    });

    it('answers wrong, revoked or mismatched credentials with 401 on every route, reads included', async () => {
      const editor = await t.user('editor', 'eddie');
      const other = await t.user('author', 'otto');
      const cases: Record<string, string>[] = [
        { authorization: 'Bearer not-a-token' },
        { authorization: 'Bearer ' },
        { authorization: 'Digest abc' },
        { authorization: basic('otto', editor.token) },
        { authorization: basic('eddie', other.token) },
        { authorization: 'Basic !!!' },
      ];
      for (const headers of cases) {
        for (const [method, path] of [['GET', `${TAGS}?hide_empty=0`], ['GET', '/wp-json/calendar/events/v1'], ['POST', TAGS]]) {
          const reply = await t.request(method, path, { headers, json: method === 'POST' ? { name: 'x' } : undefined });
          expect(reply.status).toBe(401);
          expect(reply.body).toEqual({ code: 'rest_invalid_credentials', message: 'The credentials sent are not valid.', data: { status: 401 } });
        }
      }
    });

    it('lets only editors and administrators manage terms', async () => {
      const admin = await t.user('administrator');
      const editor = await t.user('editor');
      const author = await t.user('author');
      const contributor = await t.user('contributor');
      expect((await t.request('POST', TAGS, { token: admin.token, json: { name: 'A' } })).status).toBe(201);
      const created = await t.request('POST', TAGS, { token: editor.token, json: { name: 'E' } });
      expect(created.status).toBe(201);
      for (const token of [author.token, contributor.token]) {
        const create = await t.request('POST', TAGS, { token, json: { name: 'N' } });
        expect(create.status).toBe(403);
        expect(create.body).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } });
        expect((await t.request('PUT', `${TAGS}/${created.body.id}`, { token, json: { name: 'N' } })).status).toBe(403);
        expect((await t.request('DELETE', `${TAGS}/${created.body.id}`, { token })).status).toBe(403);
        expect((await t.request('GET', `${TAGS}/${created.body.id}`, { token })).status).toBe(200);
      }
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const reply = await t.request(method, `${TAGS}/${created.body.id}`, { json: method === 'DELETE' ? undefined : { name: 'N' } });
        expect(reply.status).toBe(401);
        expect(reply.headers['www-authenticate']).toBe('Bearer realm="calendar"');
        expect(reply.body).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } });
      }
    });
  });
});

describe('the users and tokens command (SPEC §8)', () => {
  let database: TestDatabase;
  let directory: string;
  let url: string;
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'calendar-cli-'));
    database = await createTestDatabase(ENGINE);
    url = ENGINE === 'sqlite' ? `sqlite:${join(directory, 'cli.sqlite')}` : database.url;
  });
  afterAll(async () => {
    await database.drop();
    rmSync(directory, { recursive: true, force: true });
  });

  const cli = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run('node', ['-r', '@swc-node/register', 'tools/cli/src/main.ts', ...args], {
        cwd: WORKSPACE,
        env: { ...process.env, DATABASE_URL: url, ADMIN_TOKEN: '' },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };

  /** Runs a command that must succeed; a failure shows its exit code and stderr. */
  const ok = async (...args: string[]) => {
    const result = await cli(...args);
    expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: '' });
    return result;
  };

  it('creates users, lists them, creates and revokes tokens, printing one JSON object each', async () => {
    const created = await ok('users:create', '--login', 'alice', '--role', 'editor');
    const user = JSON.parse(created.stdout);
    expect(Object.keys(user)).toEqual(['id', 'login', 'role', 'token']);
    expect(user).toEqual({ id: 1, login: 'alice', role: 'editor', token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(created.stdout).toBe(`${JSON.stringify(user)}\n`);

    const token = await ok('tokens:create', '--login', 'alice');
    const issued = JSON.parse(token.stdout);
    expect(issued).toEqual({ login: 'alice', token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(issued.token).not.toBe(user.token);

    expect(JSON.parse((await ok('users:list')).stdout)).toEqual({ users: [{ id: 1, login: 'alice', role: 'editor' }] });
    expect(JSON.parse((await ok('tokens:revoke', '--token', issued.token)).stdout)).toEqual({ revoked: true });

    const again = await cli('tokens:revoke', '--token', issued.token);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toBe('error: no live token matches\n');
  }, 60000);

  it('fails with a message on stderr for bad commands and arguments', async () => {
    const unknown = await cli('users:delete');
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/^error: unknown command "users:delete"\nUsage:/);
    const role = await cli('users:create', '--login', 'bob', '--role', 'king');
    expect(role.code).toBe(1);
    expect(role.stderr).toBe('error: role must be one of: administrator, editor, author, contributor\n');
    const missing = await cli('tokens:create');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: --login is required\n/);
  }, 60000);
});
