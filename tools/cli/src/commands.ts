import { TokenService, UserInputError, UserService } from '@calendar/shared/auth';

export class UsageError extends Error {}

export const USAGE = `Usage: npm run --silent cli -- <command> [options]
  users:create --login <login> --role <administrator|editor|author|contributor>
  tokens:create --login <login>
  tokens:revoke --token <token>
  users:list
  export --to <file> [--with-secrets]   the whole calendar as JSON Lines (secrets: API token digests, webhooks)
  import --from <file>                  an export, into an empty database of either engine, in one transaction
  backup --to <file>                    a consistent copy of the SQLite database, while the service runs`;

/** The commands that move or copy the data (they need every record kind, not only users). */
export const DATA_COMMANDS = ['export', 'import', 'backup'];

/** The options of a data command: `--to`/`--from` and the flag `--with-secrets`. */
export function dataOptions(command: string, args: string[]): { file: string; withSecrets: boolean } {
  const path = command === 'import' ? 'from' : 'to';
  let file: string | undefined;
  let withSecrets = false;
  for (let index = 0; index < args.length; index++) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(args[index]);
    if (match?.[1] === 'with-secrets' && command === 'export' && match[2] === undefined) withSecrets = true;
    else if (match?.[1] === path) {
      file = match[2] ?? args[++index];
      if (file === undefined || file === '') throw new UsageError(`--${path} needs a file`);
    } else throw new UsageError(`unknown argument "${args[index]}"`);
  }
  if (file === undefined) throw new UsageError(`--${path} is required`);
  return { file, withSecrets };
}

interface Services {
  users: UserService;
  tokens: TokenService;
}

/**
 * Reads `--name value` and `--name=value` for the given names. The word after `--name` is always its value:
 * tokens are base64url and may begin with a dash, which a general-purpose parser would take for an option.
 */
function options(args: string[], names: string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (let index = 0; index < args.length; index++) {
    const match = /^--([a-z]+)(?:=(.*))?$/.exec(args[index]);
    if (!match || !names.includes(match[1])) throw new UsageError(`unknown argument "${args[index]}"`);
    const value = match[2] ?? args[++index];
    if (value === undefined) throw new UsageError(`--${match[1]} needs a value`);
    values[match[1]] = value;
  }
  for (const name of names) if (!values[name]) throw new UsageError(`--${name} is required`);
  return values;
}

/** Runs one command and returns the JSON object it prints (SPEC §8 fixes these forms). */
export async function runCommand(command: string | undefined, args: string[], { users, tokens }: Services): Promise<object> {
  switch (command) {
    case 'users:create': {
      const { login, role } = options(args, ['login', 'role']);
      const user = await users.create(login, role);
      const token = await tokens.issue(user);
      return { id: user.id, login: user.login, role: user.role, token };
    }
    case 'tokens:create': {
      const { login } = options(args, ['login']);
      const user = await users.findByLogin(login);
      if (!user) throw new UserInputError(`no user with login "${login}"`);
      return { login: user.login, token: await tokens.issue(user) };
    }
    case 'tokens:revoke': {
      const { token } = options(args, ['token']);
      if (!(await tokens.revoke(token))) throw new UserInputError('no live token matches');
      return { revoked: true };
    }
    case 'users:list': {
      options(args, []);
      const list = await users.list();
      return { users: list.map((user) => ({ id: user.id, login: user.login, role: user.role })) };
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'a command is required');
  }
}
