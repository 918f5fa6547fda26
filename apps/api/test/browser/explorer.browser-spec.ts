import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BuiltService, startBuiltService, WORKSPACE_ROOT } from '@calendar/shared/testing';
import { Browser, chromium, Page } from 'playwright-core';
import { watchProblems } from './problems';

declare const CHROMIUM_PATH: string;

const ADMIN_TOKEN = 'browser-test-administrator-token-0123456789abcdef';
const NS = '/wp-json/calendar/events/v1';
const SCREENSHOTS = join(WORKSPACE_ROOT, 'tmp/screenshots');

/*
 * The API explorer page in a real browser (Debian's Chromium driven by playwright-core), against the built
 * bundle started as `npm start` starts it.
 */
describe('the API explorer in Chromium', () => {
  let service: BuiltService;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    service = await startBuiltService({ DATABASE_URL: 'sqlite::memory:', ADMIN_TOKEN });
    const created = await fetch(`${service.base}${NS}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Opening Night', start_date: 'tomorrow 19:00', end_date: 'tomorrow 22:00' }),
    });
    expect(created.status).toBe(201);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    watchProblems(page, problems);
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    expect(await service?.stop()).toBe(0);
  });

  it('renders a group for every tag of the API description', async () => {
    const doc = (await (await fetch(`${service.base}${NS}/doc`)).json()) as { paths: Record<string, Record<string, { tags?: string[] }>> };
    const tags = new Set<string>();
    for (const operations of Object.values(doc.paths)) {
      for (const operation of Object.values(operations)) for (const tag of operation.tags ?? []) tags.add(tag);
    }
    expect([...tags].sort()).toEqual(['categories', 'discovery', 'events', 'organizers', 'tags', 'venues', 'webhooks']);

    const answer = await page.goto(`${service.base}${NS}/doc/ui`);
    expect(answer?.status()).toBe(200);
    await page.waitForSelector('.opblock-tag', { timeout: 20_000 });
    const groups = await page.$$eval('.opblock-tag', (nodes) => nodes.map((node) => node.getAttribute('data-tag')));
    expect([...groups].sort()).toEqual([...tags].sort());
    expect(await page.title()).toBe('Event Calendar Service API');
    await page.screenshot({ path: join(SCREENSHOTS, 'explorer.png'), fullPage: false });
    expect(problems).toEqual([]);
  }, 60_000);

  it('lists every model of the API description under Schemas, and opens one with its members', async () => {
    const doc = (await (await fetch(`${service.base}${NS}/doc`)).json()) as { components: { schemas: Record<string, { properties?: Record<string, unknown> }> } };
    // Swagger UI draws OpenAPI 3.1 schemas with its JSON Schema 2020-12 renderer: one article per model.
    const title = ':scope > .json-schema-2020-12-head .json-schema-2020-12__title';
    const models = page.locator('section.models > div > article[data-json-schema-level="0"]');
    await models.first().waitFor({ timeout: 20_000 });
    expect((await models.locator(title).allInnerTexts()).sort()).toEqual(Object.keys(doc.components.schemas).sort());
    const event = models.filter({ has: page.locator(title, { hasText: /^EventResponse$/ }) });
    await event.locator(':scope > .json-schema-2020-12-head .json-schema-2020-12-accordion').click();
    const members = event.locator(':scope > .json-schema-2020-12-body > .json-schema-2020-12-keyword--properties > ul > li > article');
    await members.first().waitFor({ timeout: 20_000 });
    expect(await members.locator(title).allInnerTexts()).toEqual(Object.keys(doc.components.schemas['EventResponse'].properties ?? {}));
    await event.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'explorer-models.png'), fullPage: false });
    expect(problems).toEqual([]);
  }, 60_000);

  it('tries out GET /events and shows the 200 answer', async () => {
    const operation = page.locator('#operations-events-EventController_list');
    if (!(await operation.locator('.opblock-body').isVisible())) await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();
    const status = operation.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor({ timeout: 20_000 });
    expect((await status.innerText()).trim()).toBe('200');
    const body = await operation.locator('.live-responses-table .response-col_description pre').first().innerText();
    const listed = JSON.parse(body);
    expect([listed.total, listed.events.map((event: { title: string }) => event.title)]).toEqual([1, ['Opening Night']]);
    await page.screenshot({ path: join(SCREENSHOTS, 'explorer-try-it-out.png'), fullPage: false });
    expect(problems).toEqual([]);
  }, 60_000);
});
