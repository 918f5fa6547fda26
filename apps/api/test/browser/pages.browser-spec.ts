import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { BuiltService, startBuiltService, WORKSPACE_ROOT, writeShowcase } from '@calendar/shared/testing';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { watchProblems } from './problems';

declare const CHROMIUM_PATH: string;

const ADMIN_TOKEN = 'browser-test-administrator-token-0123456789abcdef';
const NS = '/wp-json/calendar/events/v1';
const SCREENSHOTS = join(WORKSPACE_ROOT, 'tmp/screenshots');

/** The month current at an instant in the service's time zone here (Europe/Paris), as `locale` names it. */
const monthName = (locale: string, at: Date) => new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'Europe/Paris' }).format(at);

/**
 * Of the instants before and after a page was asked for, the one whose current month (`monthName`) the page showed:
 * a page asked for at a month's end may be answered either side of midnight. The first when it showed neither.
 */
const instantShown = (shown: string, locale: string, instants: Date[]) => instants.find((at) => monthName(locale, at) === shown) ?? instants[0];

/*
 * The public pages (SPEC §14) in Debian's Chromium, against the built bundle started as `npm start` starts it:
 * every page type in two languages checked by axe-core, a click path through them, the width of a phone, and the
 * event page's JSON-LD against the API's. Screenshots of each page go to tmp/screenshots/.
 */
describe('the public pages in Chromium', () => {
  let service: BuiltService;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const paths: Record<string, string> = {};
  let eventId = 0;

  const api = async (path: string) => (await (await fetch(`${service.base}${path}`)).json()) as { json_ld: unknown };

  beforeAll(async () => {
    service = await startBuiltService({ DATABASE_URL: 'sqlite::memory:', ADMIN_TOKEN, TIMEZONE: 'Europe/Paris' });
    const showcase = await writeShowcase(service.base, ADMIN_TOKEN);
    Object.assign(paths, showcase.paths);
    eventId = showcase.eventId;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    page = await context.newPage();
    watchProblems(page, problems);
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    expect(await service?.stop()).toBe(0);
  });

  it('shows every page type in English and French with no serious or critical accessibility problem', async () => {
    const seen: [string, string, string, number][] = [];
    // The month pages' current month, as the month current when each was asked for or after it was answered.
    const months: Record<string, string> = {};
    for (const [type, path] of Object.entries(paths)) {
      for (const language of ['en', 'fr']) {
        // The French page is the one the English page's language switcher links to.
        const address = language === 'en' ? `${service.base}${path}` : await page.locator('nav.languages a[hreflang="fr"]').getAttribute('href');
        const asked = new Date();
        const answer = await page.goto((address as string).replace(/^https?:\/\/[^/]+/, service.base));
        const heading = await page.locator('h1').innerText();
        if (type === 'month') months[language] = monthName(language, instantShown(heading, language, [asked, new Date()]));
        const violations = (await new AxeBuilder({ page }).analyze()).violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
        seen.push([type, await page.locator('html').getAttribute('lang') as string, heading, answer?.status() ?? 0]);
        expect(violations.map((violation) => `${type}/${language}: ${violation.id} ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
        await page.screenshot({ path: join(SCREENSHOTS, `page-${type}-${language}.png`), fullPage: true });
      }
    }
    expect(seen).toEqual([
      ['list', 'en', 'Upcoming events', 200],
      ['list', 'fr', 'Événements à venir', 200],
      ['month', 'en', months['en'], 200],
      ['month', 'fr', months['fr'], 200],
      ['event', 'en', 'Jazz in the park', 200],
      ['event', 'fr', 'Jazz au parc', 200],
      ['venue', 'en', 'Parc de la Tête d’Or', 200],
      ['venue', 'fr', 'Parc de la Tête d’Or', 200],
      ['organizer', 'en', 'Lyon Jazz Society', 200],
      ['organizer', 'fr', 'Lyon Jazz Society', 200],
      ['category', 'en', 'Music', 200],
      ['category', 'fr', 'Musique', 200],
      ['tag', 'en', 'Outdoor', 200],
      ['tag', 'fr', 'Outdoor', 200],
    ]);
    expect(problems).toEqual([]);
  }, 120_000);

  it('follows a visitor from the list to an event, its venue, its category, the month and the next month', async () => {
    await page.goto(`${service.base}/events/`);
    const upcoming = await page.locator('.event h3 a').allInnerTexts();
    await page.getByRole('link', { name: upcoming.find((title) => title === 'Jazz in the park') as string }).first().click();
    await page.waitForURL(/\/event\//);
    expect(await page.locator('h1').innerText()).toBe('Jazz in the park');
    await page.getByRole('link', { name: 'Parc de la Tête d’Or' }).click();
    await page.waitForURL(/\/venue\//);
    expect(await page.locator('.event h3 a').first().innerText()).toBeTruthy();
    await page.goBack();
    await page.getByRole('link', { name: 'Music', exact: true }).click();
    await page.waitForURL(/\/events\/category\/music\//);
    expect(await page.locator('h1').innerText()).toBe('Music');
    const asked = new Date();
    await page.getByRole('link', { name: 'Month', exact: true }).click();
    await page.waitForURL(/\/events\/month\//);
    const thisMonth = await page.locator('h1').innerText();
    const shown = instantShown(thisMonth, 'en', [asked, new Date()]);
    await page.locator('a[rel="next"]').click();
    await page.waitForURL(/\/events\/month\/\d{4}-\d{2}\//);
    // The month after the one current in Paris then (in the last hour of a month's last day, UTC's month is a month behind).
    const [year, month] = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', timeZone: 'Europe/Paris' }).format(shown).split('-').map(Number);
    const next = new Date(Date.UTC(year, month, 1, 12));
    expect([thisMonth, await page.locator('h1').innerText()]).toEqual([monthName('en', shown), new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(next)]);
    expect(problems).toEqual([]);
  }, 60_000);

  it('fits a 360 px wide screen without scrolling sideways', async () => {
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 360, height: 740 });
    const widths: [string, number][] = [];
    for (const [type, path] of Object.entries(paths)) {
      await phone.goto(`${service.base}${path}`);
      widths.push([type, await phone.locator('html').evaluate((root) => root.scrollWidth)]);
      await phone.screenshot({ path: join(SCREENSHOTS, `page-${type}-360.png`), fullPage: true });
    }
    expect(widths).toEqual(Object.keys(paths).map((type) => [type, 360]));
    await phone.close();
  }, 60_000);

  it('embeds the JSON-LD the API gives for the event', async () => {
    await page.goto(`${service.base}${paths['event']}`);
    const block = await page.locator('script[type="application/ld+json"]').textContent();
    const fromApi = await api(`${NS}/events/${eventId}`);
    expect(JSON.parse(block as string)).toEqual(fromApi.json_ld);
  });
});
