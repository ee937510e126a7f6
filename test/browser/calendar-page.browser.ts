import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExampleServer, type ExampleServer } from './example-server.js';
import { nextMonth, seedCalendar, type SeededCalendar } from './seed.js';

/**
 * The calendar page (examples/calendar-page) in a real headless Chromium, driven through what a
 * person sees: roles, accessible names and labels only. The browser lives in Tokyo while the
 * events happen in Los Angeles and Auckland, near midnight: a page that placed events by the
 * browser's zone would move each of them a day.
 */

const CHROMIUM = process.env.CALENDAR_CHROMIUM || '/usr/bin/chromium';
const BROWSER_ZONE = 'Asia/Tokyo';
const TOKEN = 'browser-test-admin-token';
const SCREENSHOTS = fileURLToPath(new URL('../../.tmp/screenshots/', import.meta.url));
// CI installs Chromium (.ci/browser.sh): there a missing browser is a failure, elsewhere a skip.
const missing = !existsSync(CHROMIUM);
if (missing && process.env.CI) throw new Error(`no Chromium at ${CHROMIUM} (apt-get install chromium, or set CALENDAR_CHROMIUM)`);

/** Today's date in `zone`, `YYYY-MM-DD`. */
const todayIn = (zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());

/** How the page names a day of the seeded month (FullCalendar's day label in `locale`). */
const dayName = (locale: string, month: string, day: number) =>
  new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${month}-${String(day).padStart(2, '0')}T12:00:00Z`),
  );

const monthName = (locale: string, month: string) =>
  new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(`${month}-15T12:00:00Z`));

describe.skipIf(missing)('calendar page in Chromium', () => {
  let server: ExampleServer;
  let browser: Browser;
  let seeded: SeededCalendar;
  let dir: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'calendar-page-'));
    mkdirSync(SCREENSHOTS, { recursive: true });
    server = await startExampleServer({ CALENDAR_DB: join(dir, 'calendar.sqlite'), CALENDAR_TOKENS: `administrator:${TOKEN}` });
    // The month after the browser's today: the page opens on today's month, the test pages forward.
    seeded = await seedCalendar(`${server.origin}/wp-json/calendar/events/v1`, TOKEN, nextMonth(todayIn(BROWSER_ZONE)));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      // As root in a container, without the network: no sandbox, no background calls out.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });

  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A fresh tab in Tokyo at `path`, collecting console errors, page errors and request URLs. */
  async function open(path: string, locale = 'en-US'): Promise<{ page: Page; errors: string[]; requests: { url: string; authorization?: string }[] }> {
    const context = await browser.newContext({ timezoneId: BROWSER_ZONE, locale, viewport: { width: 1200, height: 1000 } });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    const requests: { url: string; authorization?: string }[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('request', (request) => requests.push({ url: request.url(), authorization: request.headers().authorization }));
    await page.goto(`${server.origin}${path}`);
    return { page, errors, requests };
  }

  /** From the opening month to the seeded one, with the "Next month" button. */
  async function toSeededMonth(page: Page, labels = { next: 'Next month', empty: 'No events in this view.' }, locale = 'en'): Promise<void> {
    await page.getByText(labels.empty).waitFor();
    await page.getByRole('button', { name: labels.next }).click();
    await page.getByRole('heading', { level: 2, name: monthName(locale, seeded.month) }).waitFor();
  }

  const day = (page: Page, d: number, locale = 'en-US'): Locator => page.getByRole('gridcell', { name: dayName(locale, seeded.month, d), exact: true });

  it('shows each seeded event on its start day in its own zone, with the zone, the browser being in Tokyo', async () => {
    const { page, errors } = await open('/calendar/');
    await page.getByRole('heading', { level: 1, name: 'Events calendar' }).waitFor();
    await toSeededMonth(page);
    await page.getByText('3 events in this view.').waitFor();

    // 23:30 in Los Angeles on the 12th is 16:30 on the 13th in Tokyo.
    await day(page, 12)
      .getByRole('button', { name: /^11:30\sPM P[SD]T Late show$/ })
      .waitFor();
    expect(
      await day(page, 13)
        .getByRole('button', { name: /Late show/ })
        .count(),
    ).toBe(0);
    // 00:30 in Auckland on the 15th is 20:30 on the 14th in Tokyo.
    await day(page, 15)
      .getByRole('button', { name: /^12:30\sAM NZ[DS]T Early bird talk$/ })
      .waitFor();
    expect(
      await day(page, 14)
        .getByRole('button', { name: /Early bird talk/ })
        .count(),
    ).toBe(0);
    // All day in Paris: on its day, with no time.
    await day(page, 22).getByRole('button', { name: 'Book fair', exact: true }).waitFor();
    // The draft is not shown without a token.
    expect(await page.getByRole('button', { name: /Secret rehearsal/ }).count()).toBe(0);

    await page.screenshot({ path: join(SCREENSHOTS, 'calendar-month.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  it("opens an event's detail: when in its zone, venue with address, organizer, cost, description", async () => {
    const { page, errors } = await open('/calendar/');
    await toSeededMonth(page);
    // From the keyboard: the event is focusable and Enter opens it.
    await day(page, 12)
      .getByRole('button', { name: /Late show/ })
      .focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Late show' });
    await dialog.waitFor();
    // Its end is the next day in Los Angeles, written in full, with the zone.
    await dialog.getByText(/, 11:30\sPM – \w+, .+, 12:45\sAM P[SD]T \(America\/Los_Angeles\)$/).waitFor();
    await dialog.getByText('Harbor Hall').waitFor();
    await dialog.getByText(/1 Main St/).waitFor();
    await dialog.getByText(/Springfield IL 62701/).waitFor();
    await dialog.getByText(/Arts Council/).waitFor();
    await dialog.getByText('$15').waitFor();
    await dialog.getByText('jazz').waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'calendar-detail.png') });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // With the mouse, and Escape closes it.
    await day(page, 15)
      .getByRole('button', { name: /Early bird talk/ })
      .click();
    await page.getByRole('dialog', { name: 'Early bird talk' }).getByText('Old Town Library').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);
  });

  it('filters by category and venue, and the subscribe link follows them to an iCalendar feed', async () => {
    const { page, errors } = await open('/calendar/');
    await toSeededMonth(page);
    await page.getByText('3 events in this view.').waitFor();
    const subscribe = page.getByRole('link', { name: 'Subscribe (iCalendar)' });

    const feed = async () => {
      const href = (await subscribe.getAttribute('href')) ?? '';
      const response = await fetch(href);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/calendar/);
      return { href, body: await response.text() };
    };
    const all = await feed();
    expect(all.body).toContain('BEGIN:VCALENDAR');
    expect(all.body).toContain('SUMMARY:Late show');

    await page.getByLabel('Category').selectOption({ label: 'Music' });
    await page.getByText('1 event in this view.').waitFor();
    await day(page, 12)
      .getByRole('button', { name: /Late show/ })
      .waitFor();
    expect(await page.getByRole('button', { name: /Early bird talk|Book fair/ }).count()).toBe(0);
    const music = await feed();
    expect(new URL(music.href).searchParams.get('categories')).toBe(String(seeded.categories.music));
    expect(music.body).toContain('SUMMARY:Late show');
    expect(music.body).not.toContain('SUMMARY:Early bird talk');

    await page.getByLabel('Category').selectOption({ label: 'All categories' });
    await page.getByLabel('Venue').selectOption({ label: 'Old Town Library' });
    await page.getByText('2 events in this view.').waitFor();
    await day(page, 15)
      .getByRole('button', { name: /Early bird talk/ })
      .waitFor();
    expect(await page.getByRole('button', { name: /Late show/ }).count()).toBe(0);
    expect(new URL((await subscribe.getAttribute('href')) ?? '').searchParams.get('venue')).toBe(String(seeded.venues.library));
    expect(errors).toEqual([]);
  });

  it('lists the month, each event under its own day', async () => {
    const { page, errors } = await open('/calendar/');
    await toSeededMonth(page);
    await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'List' }).click();
    await page.getByRole('button', { name: 'List', pressed: true }).waitFor();
    await page.getByRole('button', { name: /^11:30\sPM P[SD]T Late show$/ }).waitFor();
    // In the list, the Late show row follows the 12th's heading and comes before the 13th's.
    const rows = await page.getByRole('row').allInnerTexts();
    const at = (text: string) => rows.findIndex((r) => r.includes(text));
    expect(at(dayName('en-US', seeded.month, 12))).toBeLessThan(at('Late show'));
    expect(at('Late show')).toBeLessThan(at(dayName('en-US', seeded.month, 15)));
    expect(errors).toEqual([]);
  });

  it('shows drafts, marked as such, only with a token kept in sessionStorage and sent as a Bearer header', async () => {
    const { page, errors, requests } = await open('/calendar/');
    await toSeededMonth(page);
    await page.getByText('3 events in this view.').waitFor();
    expect(await page.getByRole('button', { name: /Secret rehearsal/ }).count()).toBe(0);

    await page.getByLabel('Access token').fill(TOKEN);
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.getByText('4 events in this view.').waitFor();
    await day(page, 20)
      .getByRole('button', { name: /Secret rehearsal Draft$/ })
      .waitFor();
    expect(await page.evaluate("sessionStorage.getItem('calendar-page:token')")).toBe(TOKEN);
    const api = requests.filter((r) => r.url.includes('/wp-json/'));
    expect(api.some((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(requests.filter((r) => r.url.includes(TOKEN))).toEqual([]);

    await page.getByRole('button', { name: 'Forget token' }).click();
    await page.getByText('3 events in this view.').waitFor();
    expect(await page.getByRole('button', { name: /Secret rehearsal/ }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('/fr/calendar/, linked from /calendar/, speaks French and reads the French root', async () => {
    const { page, errors, requests } = await open('/calendar/', 'fr-FR');
    await page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: 'Français' }).click();
    await page.getByRole('heading', { level: 1, name: 'Calendrier des événements' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/fr/calendar/');
    requests.length = 0;
    await toSeededMonth(page, { next: 'Mois suivant', empty: 'Aucun événement dans cette vue.' }, 'fr');
    await page.getByText('3 événements dans cette vue.').waitFor();
    await day(page, 12, 'fr-FR')
      .getByRole('button', { name: /^23:30 P[SD]T Late show$/ })
      .waitFor();
    await page.getByLabel('Catégorie').selectOption({ label: 'Music' });
    await page.getByText('1 événement dans cette vue.').waitFor();
    await page.getByRole('link', { name: 'S’abonner (iCalendar)' }).waitFor();
    await page.getByRole('button', { name: 'Mois précédent' }).waitFor();
    await page.getByRole('group', { name: 'Affichage' }).getByRole('button', { name: 'Liste' }).waitFor();
    await page.getByLabel('Jeton d’accès').waitFor();
    const api = requests.filter((r) => r.url.includes('/wp-json/'));
    expect(api.length).toBeGreaterThan(0);
    expect(api.filter((r) => !r.url.includes('/fr/wp-json/'))).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'calendar-month-fr.png'), fullPage: true });
    expect(errors).toEqual([]);
  });
});
