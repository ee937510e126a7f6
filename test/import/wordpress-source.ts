import type { Express, Request, Response } from 'express';
import type { PostType } from '../../src/store/database.js';
import type { StoreCalendar } from '../helpers/store.js';

// What a site running the original serves beside its v1 API, for the importer's tests: WordPress'
// own collections of the plugin's post types (`wp/v2/tribe_events`…), read from the source
// calendar's store. Only what the importer asks is served, the way WordPress answers it: ids
// with every status asked for (hidden events included), `password` with `context=edit` for a
// signed-in editor, `content.protected` otherwise, `modified_gmt`; one item by id; ordered by id
// or date; X-WP-Total and X-WP-TotalPages; 400 for an
// anonymous status other than `publish`, 401 for an anonymous `context=edit`.

const TYPES: Record<string, PostType> = { tribe_events: 'event', tribe_venue: 'venue', tribe_organizer: 'organizer' };

const refuse = (res: Response, status: number, code: string, message: string) => res.status(status).json({ code, message, data: { status } });

/** How the collections misbehave, for a test: ids left out of the lists (as when pages shift while read). */
export interface CollectionQuirks {
  unlisted: Set<number>;
}

/** An item as the collection shows it, `modified_gmt` as WordPress writes it. */
const shown = (r: { id: number; password: string | null; modified_utc: string }, edit: boolean) =>
  edit
    ? { id: r.id, password: r.password ?? '', modified_gmt: r.modified_utc.replace(' ', 'T') }
    : { id: r.id, content: { protected: Boolean(r.password) }, modified_gmt: r.modified_utc.replace(' ', 'T') };

/**
 * Mounts `/wp-json/wp/v2/{tribe_events,tribe_venue,tribe_organizer}[/id]` over the source's
 * store, and WordPress' root index (`/wp-json/`), which lists `wp/v2` beside the calendar.
 */
export function mountWordpressCollections(app: Express, source: StoreCalendar, quirks: CollectionQuirks = { unlisted: new Set() }): void {
  const ns = source.calendar.options.namespace;
  app.get(['/wp-json', '/wp-json/'], (_req: Request, res: Response) => {
    res.json({ name: 'Old site', namespaces: ['oembed/1.0', ns, 'wp/v2'], routes: { '/': {}, [`/${ns}`]: {}, [`/${ns}/events`]: {}, '/wp/v2/posts': {} } });
  });
  app.get('/wp-json/wp/v2/:collection/:id', async (req: Request, res: Response) => {
    const type = TYPES[String(req.params.collection)];
    if (!type) return refuse(res, 404, 'rest_no_route', 'No route was found matching the URL and request method.');
    const signedIn = /^Bearer user-(admin|editor)$/.test(req.headers.authorization ?? '');
    if (!signedIn && req.query.context === 'edit') return refuse(res, 401, 'rest_forbidden_context', 'Sorry, you are not allowed to edit this post.');
    const row = await source.db
      .selectFrom('posts')
      .select(['id', 'password', 'modified_utc', 'status'])
      .where('type', '=', type)
      .where('id', '=', Number(req.params.id))
      .executeTakeFirst();
    if (!row || (!signedIn && row.status !== 'publish')) return refuse(res, 404, 'rest_post_invalid_id', 'Invalid post ID.');
    res.json(shown(row, req.query.context === 'edit'));
  });
  app.get('/wp-json/wp/v2/:collection', async (req: Request, res: Response) => {
    const type = TYPES[String(req.params.collection)];
    if (!type) return refuse(res, 404, 'rest_no_route', 'No route was found matching the URL and request method.');
    const signedIn = /^Bearer user-(admin|editor)$/.test(req.headers.authorization ?? '');
    const params = req.query as Record<string, string | undefined>;
    const statuses = (params.status ?? 'publish').split(',');
    if (!signedIn && statuses.some((s) => s !== 'publish')) return refuse(res, 400, 'rest_invalid_param', 'Invalid parameter(s): status');
    if (!signedIn && params.context === 'edit')
      return refuse(res, 401, 'rest_forbidden_context', 'Sorry, you are not allowed to edit posts in this post type.');
    const perPage = Math.min(Number(params.per_page ?? 10), 100);
    const page = Number(params.page ?? 1);
    let query = source.db.selectFrom('posts').select(['id', 'password', 'modified_utc']).where('type', '=', type).where('status', 'in', statuses);
    query = query.orderBy(params.orderby === 'id' ? 'id' : 'date', params.order === 'asc' ? 'asc' : 'desc');
    const rows = (await query.execute()).filter((r) => !quirks.unlisted.has(r.id));
    const pages = Math.ceil(rows.length / perPage);
    if (page > Math.max(pages, 1))
      return refuse(res, 400, 'rest_post_invalid_page_number', 'The page number requested is larger than the number of pages available.');
    res.setHeader('X-WP-Total', String(rows.length));
    res.setHeader('X-WP-TotalPages', String(pages));
    res.json(rows.slice((page - 1) * perPage, page * perPage).map((r) => shown(r, req.query.context === 'edit')));
  });
}
