import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@calendar/shared/testing';

/*
 * Stoplight Prism's validating proxy in front of a test application (the `-prism` projects): every request of the HTTP suite
 * goes through it, and each violation it reports (`sl-violations`), of the request or of the answer, fails the
 * test that sent it.
 */

export interface PrismProxy {
  /** The proxy's address: requests are sent here with their path below the host. */
  url: string;
  close(): Promise<void>;
}

export interface Violation {
  location: string[];
  severity: string;
  code?: string;
  message: string;
}

type Document = { paths: Record<string, Record<string, { operationId?: string; parameters?: unknown[] }>>; servers?: unknown };

/**
 * The served document with its paths spelled from the host: Prism routes a request by its path alone, while the
 * document puts the namespace (and the language base, as a variable) in its servers. Each path appears under the
 * namespace, and again under `/{language}` with the same variable as a path parameter. Nothing else changes.
 */
export function prismDocument(served: Document, namespacePath: string, languages: string[]): Document {
  const paths: Document['paths'] = {};
  const language = { name: 'language', in: 'path', required: true, schema: { type: 'string', enum: languages } };
  const add = (path: string, item: Document['paths'][string], suffix: string) => {
    paths[path] = Object.fromEntries(Object.entries(item).map(([method, operation]) => [method, { ...operation, operationId: operation.operationId && `${operation.operationId}${suffix}` }]));
  };
  for (const [path, item] of Object.entries(served.paths)) {
    const relative = path === '/' ? '' : path;
    const inLanguage = Object.fromEntries(Object.entries(item).map(([method, operation]) => [method, { ...operation, parameters: [language, ...(operation.parameters ?? [])] }]));
    add(`${namespacePath}${relative}`, item, '');
    if (languages.length > 0) add(`/{language}${namespacePath}${relative}`, inLanguage, '_in_language');
    // The service ignores a trailing slash (`/events/` is `/events`, as in WordPress); Prism would route it to
    // `/events/{id}` with an empty id, so the slashed form of each path without parameters is spelled out too.
    if (!path.includes('{')) {
      add(`${namespacePath}${relative}/`, item, '_slash');
      if (languages.length > 0) add(`/{language}${namespacePath}${relative}/`, inLanguage, '_in_language_slash');
    }
  }
  const { servers: _servers, ...rest } = served;
  return { ...rest, paths };
}

/** Starts `prism proxy` for the document in front of `upstream`, and waits until it listens. */
export async function startPrism(document: Document, upstream: string): Promise<PrismProxy> {
  const folder = mkdtempSync(join(tmpdir(), 'prism-'));
  const file = join(folder, 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [require.resolve('@stoplight/prism-cli/dist/index.js'), 'proxy', file, upstream, '--host', '127.0.0.1', '--port', String(port), '--cors', 'false'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SCARF_ANALYTICS: 'false' } },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start within 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited with ${code}:\n${output}`));
    });
  });
  // Its log is not needed once it listens; the violations come with each answer.
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * The violations of one exchange that make it off the document: any of the answer, and those of a request the
 * service accepted (a request it refused is meant to be invalid). Prism's warnings, such as "no such route", are not.
 */
export function violationsOf(header: string | null, status: number): Violation[] {
  if (!header) return [];
  return (JSON.parse(header) as Violation[]).filter((violation) => violation.severity === 'Error' && (violation.location[0] !== 'request' || status < 400));
}
