import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** The workspace root (this file is libs/shared/testing/src/built-service.ts). */
export const WORKSPACE_ROOT = resolve(__dirname, '../../../..');

/** The bundle `npm start` runs. */
export const BUILT_MAIN = join(WORKSPACE_ROOT, 'dist/apps/api/main.js');

/** The Node.js flags `npm start` runs the bundle with (the heap limit), read from package.json. */
export function startFlags(root = WORKSPACE_ROOT): string[] {
  const start = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start as string;
  const match = /node ((?:--\S+ )*)dist\/apps\/api\/main\.js/.exec(start);
  if (!match) throw new Error(`package.json's start script does not run node … dist/apps/api/main.js: ${start}`);
  return match[1].trim().split(/\s+/).filter(Boolean);
}

/** Resident memory of a process in MB, from /proc (0 where there is none). */
export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

export interface BuiltService {
  /** `http://127.0.0.1:<port>` */
  base: string;
  process: ChildProcess;
  /** Whether the process is still running. */
  alive(): boolean;
  /** What the process wrote on stderr (and on stdout, when `captureStdout`). */
  output(): string;
  /** SIGTERM, and the exit code once it has exited. */
  stop(): Promise<number | null>;
}

/**
 * Starts the built bundle exactly as `npm start` does (same file, same Node.js flags) with `env` added to this
 * process's environment, and waits until `/readyz` answers 200. `main` runs another build of it instead (one kept
 * inside the workspace, so that it finds the packages it leaves external): a comparison of two builds.
 */
export async function startBuiltService(env: Record<string, string>, options: { port?: number; captureStdout?: boolean; main?: string } = {}): Promise<BuiltService> {
  const main = options.main ?? BUILT_MAIN;
  if (!existsSync(main)) throw new Error(`${main} is missing: build it first (npx nx run api:build)`);
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, [...startFlags(), main], {
    cwd: WORKSPACE_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', options.captureStdout ? 'pipe' : 'ignore', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stderr?.on('data', keep);
  child.stdout?.on('data', keep);
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done((exitCode = code))));
  const base = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt += 1) {
    if (exitCode !== undefined) throw new Error(`the service exited with ${exitCode} before it was ready:\n${output}`);
    try {
      if ((await fetch(`${base}/readyz`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (attempt > 300) {
      child.kill('SIGKILL');
      throw new Error(`the service was not ready after 30 s:\n${output}`);
    }
    await sleep(100);
  }
  return {
    base,
    process: child,
    alive: () => exitCode === undefined,
    output: () => output,
    stop: async () => {
      if (exitCode === undefined) child.kill('SIGTERM');
      return exited;
    },
  };
}
