import { Router, type Express, type Response } from 'express';
import type { Calendar } from '../../src/index.js';
import { bundlePage, type PageBundle } from './bundle.js';
import { pageHtml } from './page-html.js';
import type { PageLocale } from './client/labels.js';

/**
 * The page's policy: its own script and styles only (FullCalendar adds `<style>` elements, hence
 * inline styles; its icon font is a data: URL), API calls to this origin only, no frames, no plugins.
 */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

function send(res: Response, type: string, body: string): void {
  res.set({ 'Content-Type': type, 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' }).send(body);
}

/** The page of one language: `index.html`, `app.js` and `app.css` under one folder. */
function pageRouter(bundle: PageBundle, locale: PageLocale, namespace: string): Router {
  const html = pageHtml({ locale, apiRoot: '../wp-json/', namespace });
  const router = Router({ strict: true });
  router.get('/', (req, res) => {
    // The page's URLs are relative to its folder: `/calendar` is sent to `/calendar/`.
    if (!req.originalUrl.split('?')[0]?.endsWith('/')) return res.redirect(301, `${req.baseUrl}/`);
    res.set('Content-Security-Policy', CSP);
    send(res, 'text/html; charset=utf-8', html);
  });
  router.get('/app.js', (_req, res) => send(res, 'text/javascript; charset=utf-8', bundle.js));
  router.get('/app.css', (_req, res) => send(res, 'text/css; charset=utf-8', bundle.css));
  return router;
}

/**
 * Serves the calendar page at `/calendar/` (reading `/wp-json/`) and in French at
 * `/fr/calendar/` (reading `/fr/wp-json/`), bundled once at start (docs/guide/calendar-page.md).
 */
export async function mountCalendarPages(app: Express, calendar: Calendar): Promise<void> {
  const bundle = await bundlePage();
  const { namespace } = calendar.options;
  app.use('/calendar', pageRouter(bundle, 'en', namespace));
  app.use('/fr/calendar', pageRouter(bundle, 'fr', namespace));
}
