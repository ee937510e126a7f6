/**
 * Featured images of imported items, side-loaded the way the API side-loads an `image` URL
 * (`images/fetch-image.ts`: the same address policy, allowed hosts and byte limits): the file
 * is checked to be an image and recorded as an attachment pointing at the source's URL, once
 * per URL, with the source's attachment id in the record of imports.
 */
import { fetchImage, type FetchedImage } from '../images/fetch-image.js';
import { titleFromUrl } from '../images/file-name.js';
import { ByteBudget } from '../images/byte-budget.js';
import type { Store } from '../resources/store.js';
import { insertKeepingId } from './keep-ids.js';
import type { ImportMap } from './map.js';

/** How images are side-loaded. */
export interface ImageImportOptions {
  /** Hosts images may come from even on loopback or private addresses (the calendar's `imageHosts`). */
  hosts: readonly string[];
  /** Largest image in bytes (default 10 MiB). */
  maxBytes?: number;
}

/** A source item's image, ready to be recorded in the item's transaction. */
export type PreparedImage =
  /** The item has no image at the source. */
  | { kind: 'none' }
  /** An attachment here already points at the URL. */
  | { kind: 'known'; sourceId: number; url: string; attachmentId: number }
  /** Downloaded and checked; recorded with the item. */
  | { kind: 'fetched'; sourceId: number; url: string; image: FetchedImage };

/** The image of a source item (`image: false`, or `{ id, url, … }`), or why it is not one. */
function sourceImage(value: unknown): { id: number; url: string } | undefined | string {
  if (value === false || value === undefined || value === null) return undefined;
  if (typeof value !== 'object') return 'not an image object';
  const { id, url } = value as { id?: unknown; url?: unknown };
  if (typeof url !== 'string' || !URL.canParse(url)) return 'no URL';
  return { id: Number.isSafeInteger(id) && (id as number) > 0 ? (id as number) : 0, url };
}

/** Side-loads the images of imported items. */
export class ImageImporter {
  readonly #budget: ByteBudget;

  constructor(private readonly options: ImageImportOptions) {
    this.#budget = new ByteBudget(4 * (options.maxBytes ?? 10 * 1024 * 1024));
  }

  /**
   * The image of a source item, downloaded when no attachment here points at its URL yet
   * (outside any transaction: a slow image server must not hold locks). Throws a message when
   * it cannot be side-loaded.
   */
  async prepare(store: Store, value: unknown): Promise<PreparedImage> {
    const image = sourceImage(value);
    if (image === undefined) return { kind: 'none' };
    if (typeof image === 'string') throw new Error(`its image is unusable (${image})`);
    const known = await store.attachments.byUrl(image.url);
    if (known) return { kind: 'known', sourceId: image.id, url: image.url, attachmentId: known.post_id };
    try {
      const fetched = await fetchImage(image.url, { allowHosts: this.options.hosts, maxBytes: this.options.maxBytes, budget: this.#budget });
      return { kind: 'fetched', sourceId: image.id, url: image.url, image: fetched };
    } catch (e) {
      throw new Error(`its image ${image.url} could not be side-loaded (${e instanceof Error ? e.message : String(e)})`);
    }
  }

  /**
   * The attachment id of a prepared image, inside the item's transaction (`null`: no image).
   * A new attachment has the item's author and dates, keeps the source's attachment id when
   * `keepIds` and free, and is recorded as the source's attachment.
   */
  async record(
    tx: Store,
    map: ImportMap,
    prepared: PreparedImage,
    post: { author: number; date: string; date_utc: string },
    now: Date,
    keepIds: boolean,
  ): Promise<number | null> {
    if (prepared.kind === 'none') return null;
    if (prepared.kind === 'known') return prepared.attachmentId;
    // Another item (or run) may have recorded the same URL since.
    const known = await tx.attachments.byUrl(prepared.url);
    if (known) return known.post_id;
    const { image } = prepared;
    const { author, date, date_utc } = post;
    const row = {
      type: 'attachment',
      author,
      status: 'inherit',
      status_before_trash: null,
      title: titleFromUrl(new URL(image.url)),
      content: '',
      excerpt: '',
      slug: null,
      password: null,
    } as const;
    const dates = { date, date_utc, modified: date, modified_utc: date_utc };
    const id = await insertKeepingId(tx, 'posts', keepIds && prepared.sourceId ? prepared.sourceId : undefined, (explicit) =>
      tx.posts.insert({ ...row, ...dates, id: explicit, menu_order: 0, parent: 0, image_id: null }),
    );
    await tx.attachments.insert({
      post_id: id,
      url: prepared.url,
      mime_type: image.mimeType,
      width: image.width ?? null,
      height: image.height ?? null,
      filesize: image.filesize,
      sizes: '{}',
    });
    if (prepared.sourceId) await map.in(tx.db).record('image', prepared.sourceId, { itemId: id, sourceModified: '' }, now);
    return id;
  }
}
