import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import type { components, paths } from '../generated/calendar-api';

/*
 * Keeps a local JSON copy of a calendar's events up to date with the typed client and `GET /events/sync` (SPEC
 * §16.2): the first run reads everything, each later run only what changed since the token it saved. `npm run
 * client:mirror -- <namespace URL> <file> [--every <seconds>]` runs it once, or every so many seconds.
 */

type Event = components['schemas']['EventResponse'];

/** The copy as it is kept on disk: the events by id, and the token to sync from next time. */
export interface Mirror {
  token: string | null;
  events: Record<string, Event>;
}

export function readMirror(file: string): Mirror {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Mirror) : { token: null, events: {} };
}

/** One sync: every page applied, then the copy and its new token written (atomically: a new file renamed over). */
export async function syncOnce(baseUrl: string, file: string, token?: string): Promise<{ changed: number; removed: number; full: boolean }> {
  const client = createClient<paths>({ baseUrl, headers: token ? { authorization: `Bearer ${token}` } : {} });
  let mirror = readMirror(file);
  let cursor: string | undefined;
  let changed = 0;
  let removed = 0;
  const full = mirror.token === null;
  for (;;) {
    const query = cursor ? { cursor } : mirror.token ? { sync_token: mirror.token } : {};
    const { data, error, response } = await client.GET('/events/sync', { params: { query: { ...query, per_page: 500 } } });
    if (response.status === 410) {
      // The token is older than the service keeps changes: drop the copy and read everything again.
      mirror = { token: null, events: {} };
      cursor = undefined;
      continue;
    }
    if (!data) throw new Error(`sync: ${response.status} ${JSON.stringify(error)}`);
    for (const item of data.events) {
      if ('removed' in item) {
        delete mirror.events[item.id];
        removed += 1;
      } else {
        mirror.events[item.id] = item;
        changed += 1;
      }
    }
    if (data.next_rest_url) {
      cursor = new URL(data.next_rest_url).searchParams.get('cursor') ?? undefined;
      continue;
    }
    mirror.token = data.sync_token ?? null;
    writeFileSync(`${file}.tmp`, JSON.stringify(mirror));
    renameSync(`${file}.tmp`, file);
    return { changed, removed, full };
  }
}

if (require.main === module) {
  const [baseUrl, file, flag, seconds] = process.argv.slice(2);
  if (!baseUrl || !file || (flag !== undefined && (flag !== '--every' || !(Number(seconds) > 0)))) {
    process.stderr.write('usage: npm run client:mirror -- <namespace URL, e.g. http://127.0.0.1:3000/wp-json/calendar/events/v1> <file.json> [--every <seconds>]\n');
    process.exitCode = 2;
  } else {
    const once = () => syncOnce(baseUrl, file).then((run) => process.stdout.write(`${JSON.stringify(run)}\n`));
    const loop = async () => {
      for (;;) {
        await once();
        await new Promise((resolve) => setTimeout(resolve, Number(seconds) * 1000));
      }
    };
    (flag ? loop() : once()).catch((error: Error) => {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 1;
    });
  }
}
