/**
 * The fields every imported post shares (title, text, slug, status, dates, author), read from
 * the source's JSON and written as the source has them: titles and texts arrive rendered
 * (texturized, in paragraphs) and are stored so, which renders to the same HTML again.
 */
import type { PostType } from '../store/database.js';
import type { Store } from '../store/index.js';
import { withRetry } from '../store/retry.js';
import type { ImportMap } from './map.js';
import type { KindReport } from './report.js';

/** What the source shows of a post. */
export interface SourcePost {
  id: number;
  author: number;
  status: string;
  title: string;
  content: string;
  excerpt: string;
  slug: string;
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
}

/** Statuses an import keeps; others (a plugin's own) become drafts. */
const STATUSES = new Set(['publish', 'future', 'draft', 'pending', 'private']);

const WALL_CLOCK = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** The post in a source item (its title under `titleKey`), if it has the shape of one. */
export function sourcePost(item: unknown, titleKey: string): SourcePost | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const p = item as Record<string, unknown>;
  if (!Number.isSafeInteger(p.id) || (p.id as number) <= 0) return undefined;
  const dates = ['date', 'date_utc', 'modified', 'modified_utc'].map((k) => text(p[k]));
  if (!dates.every((d) => WALL_CLOCK.test(d))) return undefined;
  const [date, date_utc, modified, modified_utc] = dates as [string, string, string, string];
  return {
    id: p.id as number,
    author: Number(p.author) || 0,
    status: text(p.status),
    title: text(p[titleKey]),
    content: text(p.description),
    excerpt: text(p.excerpt),
    slug: text(p.slug),
    date,
    date_utc,
    modified,
    modified_utc,
  };
}

/** How source authors become users here. */
export type AuthorMapping = (sourceAuthor: number) => number | undefined;

/**
 * The posts row of an imported post (for an insert or an update). An unknown status becomes a
 * draft, an unmapped author `fallbackAuthor`; both are reported.
 */
export function postColumns(type: PostType, post: SourcePost, authors: AuthorMapping, fallbackAuthor: number, report: KindReport) {
  let author = authors(post.author);
  if (author === undefined) {
    author = fallbackAuthor;
    const note = `author ${post.author} of the source has no user here`;
    if (!report.warnings.includes(note)) report.warnings.push(note);
  }
  let status = post.status;
  if (!STATUSES.has(status)) {
    report.warnings.push(`${type} ${post.id}: status ${status || '(none)'} imported as draft`);
    status = 'draft';
  }
  return {
    type,
    author,
    status,
    title: post.title,
    content: post.content,
    excerpt: post.excerpt,
    date: post.date,
    date_utc: post.date_utc,
    modified: post.modified,
    modified_utc: post.modified_utc,
  };
}

/** The source's slug, or with a suffix when another post of the kind has it here. */
export async function freeSlug(tx: Store, type: PostType, slug: string, exceptId: number | undefined, report: KindReport, sourceId: number): Promise<string | null> {
  if (!slug) return null;
  if (!(await tx.posts.slugTaken(type, slug, exceptId))) return slug;
  for (let n = 2; ; n++) {
    const candidate = `${slug.slice(0, 180)}-${n}`;
    if (!(await tx.posts.slugTaken(type, candidate, exceptId))) {
      report.warnings.push(`${type} ${sourceId}: slug ${slug} is taken here; imported as ${candidate}`);
      return candidate;
    }
  }
}

/** How one kind of post is found and written. */
export interface PostWriter {
  kind: 'event' | 'venue' | 'organizer';
  /** The item with this id here, locked, if it still exists. */
  get(tx: Store, id: number): Promise<{ id: number } | undefined>;
  /** Writes the post: over the item it became (`existing`), else as a new one; its id. */
  write(tx: Store, existing: number | undefined): Promise<number>;
}

/**
 * Imports one source post in a transaction of its own, with its record: left as it is when the
 * source has not modified it since it was imported, else written over the item it became (or
 * as a new one). A failure skips that post only, reported.
 */
export async function importPost(store: Store, map: ImportMap, post: SourcePost, writer: PostWriter, now: Date, ids: Map<number, number>, report: KindReport): Promise<void> {
  try {
    const outcome = await withRetry(() =>
      store.transaction(async (tx) => {
        const record = map.in(tx.db);
        const known = await record.find(writer.kind, post.id);
        const row = known ? await writer.get(tx, known.itemId) : undefined;
        if (row && known?.sourceModified === post.modified_utc) return { id: row.id, result: 'unchanged' as const };
        const id = await writer.write(tx, row?.id);
        tx.changes.record(writer.kind, id, row ? 'updated' : 'created');
        await record.record(writer.kind, post.id, { itemId: id, sourceModified: post.modified_utc }, now);
        return { id, result: row ? ('updated' as const) : ('created' as const) };
      }),
    );
    ids.set(post.id, outcome.id);
    report[outcome.result]++;
  } catch (e) {
    report.skipped.push({ sourceId: post.id, reason: e instanceof Error ? e.message : String(e) });
  }
}
