import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { TokenService, UserInputError, UserService } from '@calendar/shared/auth';
import { ConfigError, loadConfig } from '@calendar/shared/config';
import { TransactionRunner } from '@calendar/shared/database';
import { DataSource } from 'typeorm';
import { backupSqlite } from './backup';
import { CliModule } from './cli.module';
import { DATA_COMMANDS, dataOptions, runCommand, USAGE, UsageError } from './commands';
import { assertFree, DataMoveError, exportCalendar, importCalendar } from './data-move';
import { DataModule } from './data.module';

/** Resolves once the text is handed to the operating system, so that nothing is lost if the process ends. */
function print(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => stream.write(text, () => resolve()));
}

/** Export, import and backup: each prints one JSON object with what it did. */
async function runDataCommand(command: string, args: string[]): Promise<object> {
  const { file, withSecrets } = dataOptions(command, args);
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 100) / 10;
  if (command === 'backup') return { ...(await backupSqlite(loadConfig(), file)), seconds: seconds() };
  if (command === 'export') assertFree(file);
  const app = await NestFactory.createApplicationContext(DataModule.forRoot(), { logger: false, abortOnError: false });
  try {
    const dataSource = app.get(DataSource);
    const rows = command === 'export' ? await exportCalendar(dataSource, app.get(TransactionRunner), file, { withSecrets }) : await importCalendar(dataSource, app.get(TransactionRunner), file);
    return { [command === 'export' ? 'exported' : 'imported']: rows, file, seconds: seconds() };
  } finally {
    await app.close();
  }
}

/** Manages users and tokens, and moves the data, against DATABASE_URL; prints one JSON object on stdout per command. */
async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === '--help' || command === 'help') {
    process.stderr.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  let app;
  try {
    if (DATA_COMMANDS.includes(command)) {
      await print(process.stdout, `${JSON.stringify(await runDataCommand(command, args))}\n`);
      return 0;
    }
    app = await NestFactory.createApplicationContext(CliModule, { logger: false, abortOnError: false });
    const result = await runCommand(command, args, { users: app.get(UserService), tokens: app.get(TokenService) });
    await print(process.stdout, `${JSON.stringify(result)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof UserInputError || error instanceof ConfigError || error instanceof DataMoveError) {
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
