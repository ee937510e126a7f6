/**
 * The fields every imported post shares (title, text, slug, status, dates, author), read from
 * the source's JSON and written as an API write of the same fields writes them
 * (`write-rules.ts`): titles and texts arrive rendered (texturized, in paragraphs) and are
 * stored so once filtered, in a form that renders to the same HTML again (`texts.ts`).
 */
import type { AuthorMapping } from './types.js';
import type { PostType } from '../store/database.js';
import type { Store } from '../resources/store.js';
import { withRetry } from '../store/retry.js';
import { uniquePostSlug } from '../posts/slug.js';
import type { PreparedImage } from './images.js';
import { insertKeepingId } from './keep-ids.js';
import { passwordOf } from './wordpress.js';
import type { KindReport } from './report.js';
import type { ImportRun } from './run.js';
import { storedText } from './texts.js';
import { Refusal, type ItemRules } from './write-rules.js';

/** What the source shows of a post: its id, author, status and dates (checked), the rest as shown. */
export interface SourcePost {
  id: number;
  author: number;
  status: string;
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
  /** Title, description, excerpt and slug as shown: checked and cleaned once the post is to be written. */
  shown: { title: unknown; content: unknown; excerpt: unknown; slug: unknown };
}

/** A post's title, texts and slug under the API's write rules. */
export interface PostText {
  title: string;
  content: string;
  excerpt: string;
  /** The source's slug, within the limits: made a slug, and free here, in the write's transaction. */
  slug: string;
}

/** Statuses an import keeps; others (a plugin's own) become drafts. */
const STATUSES = new Set(['publish', 'future', 'draft', 'pending', 'private']);

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * The post of `kind` in a source item (its title under `titleKey`), its dates checked as an
 * event write checks dates (a draft's UTC dates may be `0000-00-00 00:00:00`); else why it is
 * left out.
 */
export function sourcePost(item: unknown, kind: 'event' | 'venue' | 'organizer', titleKey: string, rules: ItemRules): SourcePost | string {
  const p = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
  if (!Number.isSafeInteger(p.id) || (p.id as number) <= 0) return `not ${kind === 'event' ? 'an' : 'a'} ${kind}: no id`;
  try {
    return {
      id: p.id as number,
      author: Number(p.author) || 0,
      status: text(p.status),
      date: rules.date('date', p.date),
      date_utc: rules.date('date_utc', p.date_utc, true),
      modified: rules.date('modified', p.modified),
      modified_utc: rules.date('modified_utc', p.modified_utc, true),
      shown: { title: p[titleKey], content: p.description, excerpt: p.excerpt, slug: p.slug },
    };
  } catch (e) {
    if (e instanceof Refusal) return e.message;
    throw e;
  }
}

/** The title (under `titleKey`), texts and slug of a post as a write stores them; throws a {@link Refusal}. */
function postText(post: SourcePost, titleKey: string, rules: ItemRules): PostText {
  const { shown } = post;
  return {
    title: rules.html(titleKey, shown.title, 'title'),
    // Stored so that they render as the source showed them (as filtered), `wpautop` being run again.
    content: storedText(rules.html('description', shown.content, 'content'), 'content'),
    excerpt: storedText(rules.html('excerpt', shown.excerpt, 'excerpt'), 'excerpt'),
    slug: rules.text('slug', shown.slug),
  };
}

/**
 * The posts row of an imported post (for an insert or an update). An unknown status becomes a
 * draft, an unmapped author `fallbackAuthor`; both are reported.
 */
export function postColumns(type: PostType, post: SourcePost, text: PostText, authors: AuthorMapping, fallbackAuthor: number, report: KindReport) {
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
    title: text.title,
    content: text.content,
    excerpt: text.excerpt,
    date: post.date,
    date_utc: post.date_utc,
    modified: post.modified,
    modified_utc: post.modified_utc,
  };
}

/**
 * The slug of an imported post as a write makes it (`uniquePostSlug`: a slug of the source's,
 * free among posts of the kind); `null` when the source shows none, and the id (known once
 * inserted: `''` here) when it has no slug character.
 */
async function importedSlug(tx: Store, type: PostType, slug: string, exceptId: number | undefined): Promise<string | null> {
  if (!slug) return null;
  return (await uniquePostSlug(tx, type, slug, exceptId)) || (exceptId !== undefined ? String(exceptId) : '');
}

/** The posts row of an imported post, as written. */
export type ImportedPostColumns = ReturnType<typeof postColumns> & {
  slug: string | null;
  password: string | null;
  menu_order: number;
  image_id?: number | null;
};

/** How one kind of post is found and written. */
export interface PostWriter {
  kind: 'event' | 'venue' | 'organizer';
  /** The key of its title at the source (`title`, `venue`, `organizer`). */
  titleKey: string;
  /** Whether the source showed the item redacted (password-protected, not unlocked for the account). */
  redacted: boolean;
  /** The item with this id here, if it still exists (locked inside a transaction). */
  get(tx: Store, id: number, lock: boolean): Promise<{ id: number } | undefined>;
  /** Columns of the posts row the kind sets itself (`menu_order` of sticky events). */
  menuOrder?: number;
  /**
   * The kind's own fields under the API's write rules, given the post's (throws a
   * {@link Refusal} naming the field that fails), once the item is to be written.
   */
  check(rules: ItemRules, text: PostText): void;
  /** Called once the item is to be written (or would be, in a dry run), before any transaction: its links are resolved and reported then. */
  prepare?(): void;
  /** Whether it is written without something it links (not imported): the next run writes it again. */
  incomplete?(): boolean;
  /** Before the posts row of an item imported before changes (events unlink their terms, so that counts follow the status). */
  beforeUpdate?(tx: Store, id: number): Promise<void>;
  /** Writes the kind's own rows and links of the item `id`, new or imported before. */
  details(tx: Store, id: number, isNew: boolean, status: string): Promise<void>;
}

/**
 * Imports one source post in a transaction of its own, with its record: left as it is when the
 * source has not modified it since it was imported, else checked and cleaned as an API write
 * of its fields (`rules`: refused, it is skipped with the field; what cleaning changed is
 * reported) and written over the item it became (or as a new one), with its image (downloaded
 * before the transaction). Under `since`, a post the source modified before is left as it is
 * (and, for venues and organizers, kept in case an event links it). A dry run only counts. A
 * failure skips that post only, reported.
 */
export async function importPost(
  run: ImportRun,
  item: Record<string, unknown>,
  post: SourcePost,
  rules: ItemRules,
  writer: PostWriter,
  ids: Map<number, number>,
  report: KindReport,
  { ignoreSince = false } = {},
): Promise<void> {
  const { store, map, now } = run;
  try {
    const known = await map.find(writer.kind, post.id);
    const row = known ? await writer.get(store, known.itemId, false) : undefined;
    if (row && known?.sourceModified === post.modified_utc) {
      ids.set(post.id, row.id);
      report.unchanged++;
      return;
    }
    if (run.since !== undefined && !ignoreSince && post.modified_utc < run.since) {
      if (row) ids.set(post.id, row.id);
      else if (writer.kind !== 'event') run.deferred.get(writer.kind)?.set(post.id, item);
      report.older++;
      return;
    }
    // A protected item comes whole only to an account that may edit it (`context=edit`), and
    // is written only with its password, from WordPress' own collection (`wordpress.ts`).
    const facts = run.collections.get(writer.kind);
    const kept = row ? ' (its copy imported before is left as it was)' : '';
    if (writer.redacted || (facts && !facts.passwords && facts.items.get(post.id)?.protected)) {
      report.skipped.push({
        sourceId: post.id,
        reason: `password-protected, and the source shows it without its details or password (import with an account that may edit it)${kept}`,
      });
      return;
    }
    let password: string | null = null;
    if (facts?.passwords) {
      const known = await passwordOf(run.source, facts, post.id, post.modified_utc);
      if (known === undefined) {
        report.skipped.push({ sourceId: post.id, reason: `its password (if any) could not be read from WordPress' own collection${kept}` });
        return;
      }
      password = known || null;
    }
    let text: PostText;
    try {
      text = postText(post, writer.titleKey, rules);
      writer.check(rules, text);
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      report.skipped.push({ sourceId: post.id, reason: `${e.message}${kept}` });
      return;
    }
    const columns = postColumns(writer.kind, post, text, run.authors, run.fallbackAuthor, report);
    writer.prepare?.();
    /** What the rules changed, once the post is written (or would be): its slug as it came out. */
    const reportAltered = (slug: string | null) => {
      if (slug !== null) rules.note('slug', text.slug, slug);
      report.altered.push(...rules.altered.map((a) => ({ sourceId: post.id, ...a })));
    };
    if (run.dryRun) {
      // What it would become: events link to stand-ins of the venues and organizers.
      ids.set(post.id, row?.id ?? -post.id);
      report[row ? 'updated' : 'created']++;
      reportAltered(await importedSlug(store, writer.kind, text.slug, row?.id));
      return;
    }
    let image: PreparedImage | undefined;
    let imageFailed = false;
    if (run.images) {
      try {
        image = await run.images.prepare(store, item.image);
      } catch (e) {
        // Imported without a new image: one it has here is kept.
        imageFailed = true;
        run.imageReport.skipped.push({ sourceId: post.id, reason: `${writer.kind} ${post.id}: ${e instanceof Error ? e.message : String(e)}` });
      }
    }
    // Warnings of the attempt that commits: a transaction run again must not say things twice.
    let notes: string[] = [];
    const outcome = await withRetry(() =>
      store.transaction(async (tx) => {
        notes = [];
        const record = map.in(tx.db);
        // Again, inside the transaction: another run may have written it since.
        const known = await record.find(writer.kind, post.id);
        const row = known ? await writer.get(tx, known.itemId, true) : undefined;
        if (row && known?.sourceModified === post.modified_utc) return { id: row.id, result: 'unchanged' as const, image: undefined, slug: null };
        const imageId =
          image && (await run.images?.record(tx, map, image, { author: columns.author, date: columns.date, date_utc: columns.date_utc }, now, run.keepIds));
        const full: ImportedPostColumns = {
          ...columns,
          slug: await importedSlug(tx, writer.kind, text.slug, row?.id),
          password: password ?? null,
          menu_order: writer.menuOrder ?? 0,
          ...(imageId !== undefined ? { image_id: imageId } : {}),
        };
        let id: number;
        if (row) {
          id = row.id;
          await writer.beforeUpdate?.(tx, id);
          await tx.posts.update(id, full);
        } else {
          // Ids from the occurrences' range (the original add-on's provisional ids) are never kept: they are occurrences' here.
          id = await insertKeepingId(tx, 'posts', run.keepIds && !run.series.isOccurrenceId(post.id) ? post.id : undefined, (explicit) =>
            tx.posts.insert({ ...full, id: explicit, status_before_trash: null, parent: 0, image_id: full.image_id ?? null }),
          );
          if (run.keepIds && id !== post.id) notes.push(`${writer.kind} ${post.id}: its id is taken here; imported as ${id}`);
          // A slug without a single slug character: the post's id, as an API write gives it.
          if (full.slug === '') {
            full.slug = String(id);
            await tx.posts.update(id, { slug: full.slug });
          }
        }
        await writer.details(tx, id, !row, full.status);
        tx.changes.record(writer.kind, id, row ? 'updated' : 'created');
        // An image that could not be side-loaded, or a link to an item not imported, is tried again by the next run.
        await record.record(writer.kind, post.id, { itemId: id, sourceModified: imageFailed || writer.incomplete?.() ? '' : post.modified_utc }, now);
        return { id, result: row ? ('updated' as const) : ('created' as const), image, slug: full.slug };
      }),
    );
    ids.set(post.id, outcome.id);
    report[outcome.result]++;
    report.warnings.push(...notes);
    if (outcome.result !== 'unchanged') reportAltered(outcome.slug);
    if (outcome.image && outcome.image.kind !== 'none') run.imageReport[outcome.image.kind === 'fetched' ? 'created' : 'unchanged']++;
  } catch (e) {
    report.skipped.push({ sourceId: post.id, reason: e instanceof Error ? e.message : String(e) });
  }
}
