import { ApiTokenEntity, TokenService, UserEntity, UserService } from '@calendar/shared/auth';
import { createMigratedSqlite } from '@calendar/shared/testing';
import { DataSource } from 'typeorm';
import { dataOptions, runCommand, UsageError } from './commands';

describe('runCommand', () => {
  let dataSource: DataSource;
  let services: { users: UserService; tokens: TokenService };
  beforeAll(async () => {
    dataSource = await createMigratedSqlite([UserEntity, ApiTokenEntity]);
    services = {
      users: new UserService(dataSource.getRepository(UserEntity)),
      tokens: new TokenService(dataSource.getRepository(ApiTokenEntity)),
    };
  });
  afterAll(() => dataSource.destroy());

  it('returns the JSON forms of SPEC §8', async () => {
    const created = (await runCommand('users:create', ['--login', 'dana', '--role', 'author'], services)) as Record<string, unknown>;
    expect(created).toEqual({ id: 1, login: 'dana', role: 'author', token: expect.any(String) });
    const token = (await runCommand('tokens:create', ['--login', 'dana'], services)) as Record<string, unknown>;
    expect(token).toEqual({ login: 'dana', token: expect.any(String) });
    expect(await runCommand('users:list', [], services)).toEqual({ users: [{ id: 1, login: 'dana', role: 'author' }] });
    expect(await runCommand('tokens:revoke', ['--token', String(token['token'])], services)).toEqual({ revoked: true });
  });

  it('takes a token that begins with a dash as the value of --token', async () => {
    const user = await services.users.create('dash', 'author');
    const token = await services.tokens.issue(user, '-starts-with-a-dash-0123456789abcdefghijklmnop');
    expect(await runCommand('tokens:revoke', ['--token', token], services)).toEqual({ revoked: true });
    const again = await services.tokens.issue(user, '-another-dash-token-0123456789abcdefghijklmn');
    expect(await runCommand('tokens:revoke', [`--token=${again}`], services)).toEqual({ revoked: true });
  });

  it('rejects unknown commands, options and missing values as usage errors', async () => {
    await expect(runCommand(undefined, [], services)).rejects.toThrow(new UsageError('a command is required'));
    await expect(runCommand('users:drop', [], services)).rejects.toThrow('unknown command "users:drop"');
    await expect(runCommand('users:list', ['--all'], services)).rejects.toThrow(UsageError);
    await expect(runCommand('users:create', ['--login', 'x'], services)).rejects.toThrow('--role is required');
    await expect(runCommand('tokens:create', ['--login', 'nobody'], services)).rejects.toThrow('no user with login "nobody"');
  });
});

describe('dataOptions', () => {
  it('reads the file of export, import and backup, and --with-secrets of export only', () => {
    expect(dataOptions('export', ['--to', 'a.jsonl'])).toEqual({ file: 'a.jsonl', withSecrets: false });
    expect(dataOptions('export', ['--with-secrets', '--to=a.jsonl'])).toEqual({ file: 'a.jsonl', withSecrets: true });
    expect(dataOptions('import', ['--from', 'a.jsonl'])).toEqual({ file: 'a.jsonl', withSecrets: false });
    expect(dataOptions('backup', ['--to', 'copy.sqlite'])).toEqual({ file: 'copy.sqlite', withSecrets: false });
  });

  it.each([
    ['export', [], '--to is required'],
    ['import', ['--to', 'a.jsonl'], 'unknown argument "--to"'],
    ['import', ['--from'], '--from needs a file'],
    ['backup', ['--to', 'a', '--with-secrets'], 'unknown argument "--with-secrets"'],
  ])('refuses %s %j: %s', (command, args, message) => {
    expect(() => dataOptions(command, args)).toThrow(new UsageError(message));
  });
});
