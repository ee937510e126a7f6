/**
 * The life of a post shared by events, venues, organizers and image attachments: how one is
 * inserted, and how an update moves its status, publication dates and modification stamp.
 * Each kind adds only its own columns and rules.
 */
import { forbidden } from '../http/errors.js';
import type { Principal } from '../auth/capabilities.js';
import type { Insertable } from 'kysely';
import type { PostType, PostsTable } from '../store/database.js';
import type { PostsAccess } from './queries.js';
import type { PostRow } from './queries.js';
import { nowDates, publicationDates, updatedPublicationDates } from './dates.js';
import type { PostKindInfo } from './kinds.js';
import { freeSlug, numberedSlug, uniquePostSlug } from './slug.js';
import { sanitizeTitle } from '../text/slug.js';
import { FLOATING_STATUSES, scaleBackStatus, scheduleStatus } from './status.js';
import { leaveTrash } from './trash.js';

/** A post's columns as one update changes them. */
export type PostChanges = Parameters<PostsAccess['posts']['update']>[1];

/**
 * The status and publication dates of a new post: the status the caller may give it, the
 * dates sent (none for a draft), and `future` for a publication date ahead.
 */
export function newPostState(
  input: { status?: unknown; date?: unknown; date_utc?: unknown },
  p: Principal | null,
  siteZone: string,
  now: Date,
  zone: string = siteZone,
): { status: string; date: string; date_utc: string } {
  const asked = scaleBackStatus(p, typeof input.status === 'string' ? input.status : undefined);
  const floating = FLOATING_STATUSES.has(asked);
  const dates = publicationDates(input, siteZone, now, floating, zone);
  return { status: floating ? asked : scheduleStatus(asked, dates.date_utc, now), ...dates };
}

/** What a new post is made of; the other columns take WordPress' defaults. */
export interface NewPost {
  type: PostType;
  author: number;
  status: string;
  title: string;
  content?: string;
  excerpt?: string;
  /**
   * The text its slug is made from, made unique among posts of the type (a text with no slug
   * character gives the post its id as slug); `null`: no slug.
   */
  slugSource: string | null;
  date: string;
  date_utc: string;
  menu_order?: number;
  image_id?: number | null;
}

/** A new post's columns, and whether its slug is to be its id ({@link newPostColumns}). */
export interface NewPostColumns {
  columns: Insertable<PostsTable>;
  slugFromId: boolean;
  /** The slug is the text's own, not yet checked against other posts' ({@link settleSlug}). */
  slugUnchecked: boolean;
}

/**
 * A new post's columns, its slug made unique among posts of its type (`checkSlug: false`: left
 * to the statement that inserts it, see {@link settleSlug}). Its modification date is its
 * publication date, as WordPress inserts it. `slugFromId`: its slug is to be its id (a text with
 * no slug character), known once it is inserted.
 */
export async function newPostColumns(tx: PostsAccess, post: NewPost, { checkSlug = true } = {}): Promise<NewPostColumns> {
  const slug = post.slugSource === null ? '' : checkSlug ? await uniquePostSlug(tx, post.type, post.slugSource) : sanitizeTitle(post.slugSource);
  const columns: Insertable<PostsTable> = {
    type: post.type,
    author: post.author,
    status: post.status,
    status_before_trash: null,
    title: post.title,
    content: post.content ?? '',
    excerpt: post.excerpt ?? '',
    slug: slug || null,
    password: null,
    date: post.date,
    date_utc: post.date_utc,
    modified: post.date,
    modified_utc: post.date_utc,
    menu_order: post.menu_order ?? 0,
    parent: 0,
    image_id: post.image_id ?? null,
  };
  return { columns, slugFromId: !slug && post.slugSource !== null, slugUnchecked: !checkSlug && slug !== '' };
}

/**
 * The slug of a post inserted with an unchecked slug ({@link newPostColumns} with `checkSlug:
 * false`) by a statement that stored it only if no other post of the type had it, else none
 * (`stored` null): then the next free numbered one, stored now. One query fewer per new post
 * whose slug is free, which is nearly every one.
 */
export async function settleSlug(tx: PostsAccess, { columns, slugUnchecked }: NewPostColumns, id: number, stored: string | null): Promise<string | null> {
  if (!slugUnchecked || stored !== null || !columns.slug) return stored;
  const slug = await numberedSlug(tx, columns.type, columns.slug, id);
  await tx.posts.update(id, { slug });
  return slug;
}

/** Inserts a post's columns ({@link newPostColumns}) and returns its id. */
export async function insertPostColumns(tx: PostsAccess, { columns, slugFromId, slugUnchecked }: NewPostColumns): Promise<number> {
  const id = await tx.posts.insert(slugUnchecked && columns.slug ? { ...columns, slug: await freeSlug(tx, columns.type, columns.slug) } : columns);
  if (slugFromId) await tx.posts.update(id, { slug: String(id) });
  return id;
}

/** Inserts a post and returns its id. */
export async function insertPost(tx: PostsAccess, post: NewPost): Promise<number> {
  return insertPostColumns(tx, await newPostColumns(tx, post));
}

/** How an update moves a post's status; `trashing`: the caller then moves it to the trash. */
export interface StatusMove {
  status: string;
  trashing: boolean;
  changes: PostChanges;
}

/**
 * The status, publication dates and modification stamp an update gives a post (the partial
 * update recommendation: what is not sent stays). A status the caller may set is scaled back
 * as on create; `trash` needs the right to delete and goes through the trash rule
 * (`moveToTrash`, by the caller, once its own columns are written); leaving the trash restores
 * the slug; a post never published is dated when it leaves the draft statuses.
 */
export async function moveStatus(
  tx: PostsAccess,
  kind: PostKindInfo,
  row: PostRow,
  input: { status?: unknown; date?: unknown; date_utc?: unknown },
  p: Principal | null,
  canDelete: boolean,
  siteZone: string,
  now: Date,
  zone: string = siteZone,
): Promise<StatusMove> {
  let status = typeof input.status === 'string' ? scaleBackStatus(p, input.status) : row.status;
  const trashing = status === 'trash' && row.status !== 'trash';
  if (trashing && !canDelete) throw forbidden(p !== null);
  const changes: PostChanges = { ...updatedPublicationDates(input, row, status, siteZone, now, zone) };
  if (!FLOATING_STATUSES.has(status) && status !== 'trash') status = scheduleStatus(status, changes.date_utc ?? row.date_utc, now);
  if (row.status === 'trash' && status !== 'trash') Object.assign(changes, await leaveTrash(tx, kind, row, status));
  else if (status !== row.status && !trashing) changes.status = status;
  const stamp = nowDates(siteZone, now);
  changes.modified = stamp.local;
  changes.modified_utc = stamp.utc;
  return { status, trashing, changes };
}
