import createClient from 'openapi-fetch';
import type { paths } from '../generated/calendar-api';

/*
 * A client of the service typed from its own OpenAPI document (openapi-typescript + openapi-fetch): it creates an
 * event, finds it in a list, renames it and trashes it. `npm run client:example -- <namespace URL> <token>` runs it
 * against a running service; the HTTP suite runs it against the built one.
 */

export interface ExampleRun {
  created: { id: number; title: string; start_date: string; author: string; categories: string[] };
  listed: string[];
  renamed: string;
  trashed: string;
}

export async function runExample(baseUrl: string, token: string): Promise<ExampleRun> {
  const client = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}` } });
  const created = await client.POST('/events', {
    // Categories as PHP clients of TEC send a list: an object of its values (a plain list works as well).
    body: { title: 'Typed client concert', start_date: '2031-05-04 20:00', end_date: '2031-05-04 22:00', status: 'publish', categories: { '0': 'Typed clients' } },
  });
  if (!created.data) throw new Error(`create: ${JSON.stringify(created.error)}`);
  const id = created.data.id;
  const listed = await client.GET('/events', { params: { query: { start_date: '2031-05-04', end_date: '2031-05-04' } } });
  if (!listed.data) throw new Error(`list: ${JSON.stringify(listed.error)}`);
  const renamed = await client.PATCH('/events/{id}', { params: { path: { id } }, body: { title: 'Typed client concert, renamed' } });
  if (!renamed.data) throw new Error(`update: ${JSON.stringify(renamed.error)}`);
  const trashed = await client.DELETE('/events/{id}', { params: { path: { id } } });
  if (!trashed.data) throw new Error(`delete: ${JSON.stringify(trashed.error)}`);
  return {
    created: {
      id,
      title: created.data.title,
      start_date: created.data.start_date,
      // The user id as a string of digits, as TEC sends it.
      author: created.data.author,
      categories: created.data.categories.map((term) => term.name),
    },
    listed: listed.data.events.map((event) => event.title),
    renamed: renamed.data.title,
    trashed: trashed.data.status,
  };
}

if (require.main === module) {
  const [baseUrl, token] = process.argv.slice(2);
  if (!baseUrl || !token) {
    process.stderr.write('usage: npm run client:example -- <namespace URL, e.g. http://127.0.0.1:3000/wp-json/calendar/events/v1> <token>\n');
    process.exitCode = 2;
  } else {
    runExample(baseUrl, token).then(
      (run) => process.stdout.write(`${JSON.stringify(run, null, 2)}\n`),
      (error: Error) => {
        process.stderr.write(`${error.message}\n`);
        process.exitCode = 1;
      },
    );
  }
}
