import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { TokenService, UserInputError, UserService } from '@calendar/shared/auth';
import { ConfigError } from '@calendar/shared/config';
import { CliModule } from './cli.module';
import { runCommand, USAGE, UsageError } from './commands';

/** Resolves once the text is handed to the operating system, so that nothing is lost if the process ends. */
function print(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => stream.write(text, () => resolve()));
}

/** Manages users and tokens against DATABASE_URL; prints one JSON object on stdout per command. */
async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === '--help' || command === 'help') {
    process.stderr.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  let app;
  try {
    app = await NestFactory.createApplicationContext(CliModule, { logger: false, abortOnError: false });
    const result = await runCommand(command, args, { users: app.get(UserService), tokens: app.get(TokenService) });
    await print(process.stdout, `${JSON.stringify(result)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof UserInputError || error instanceof ConfigError) {
      process.stderr.write(`error: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(`error: ${(error as Error).message ?? String(error)}\n`);
    return 1;
  } finally {
    // The command's outcome stands even if closing the connections fails.
    await app?.close().catch((error: Error) => print(process.stderr, `warning: closing the database connection failed: ${error.message}\n`));
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: Error) => {
    process.stderr.write(`error: ${error.message}\n`);
    process.exitCode = 1;
  },
);
