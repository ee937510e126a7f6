import { insertPost } from '../posts/lifecycle.js';
import { phpEmpty } from '../php/empty.js';
import { has, type Principal } from '../auth/capabilities.js';
import { toId } from '../ids.js';
import { invalidParam } from '../http/errors.js';
import type { Limits } from '../http/limits.js';
import { ByteBudget } from './byte-budget.js';
import { fetchImage, type FetchedImage } from './fetch-image.js';
import { titleFromUrl } from './file-name.js';
import { nowDates } from '../posts/dates.js';
import { imageJson } from './json.js';
import type { AttachmentRow } from './queries.js';
import type { Image } from '../schemas/types.js';
import type { AttachmentsAccess } from './queries.js';
import type { PostsAccess } from '../posts/queries.js';

/** An `image` value as a write's transaction records it (see {@link ImageService.choose}). */
export type ImageChoice = undefined | null | { id: number } | { url: string; image: FetchedImage; author: number };

/** Featured images: attachments by id, and images side-loaded from URLs. */
export class ImageService {
  /** Bytes of all side-loads of this calendar at once, so concurrent requests cannot pile up bodies. */
  readonly budget: ByteBudget;

  constructor(
    private readonly store: AttachmentsAccess,
    private readonly options: {
      imageHosts: readonly string[];
      timezone: string;
      limits: Pick<Limits, 'imageBytes' | 'imageBytesInFlight'>;
    },
  ) {
    this.budget = new ByteBudget(options.limits.imageBytesInFlight);
  }

  /** An image attachment by id. */
  get(id: number): Promise<AttachmentRow | undefined> {
    return this.store.attachments.get(id);
  }

  /** Looks attachments up in one query; the result maps an image id to its JSON. */
  async byIds(ids: readonly (number | null)[]): Promise<(id: number | null) => false | Image> {
    const rows = await this.store.attachments.getMany(ids.filter((id): id is number => id !== null));
    const byId = new Map(rows.map((r) => [r.post_id, r]));
    return (id) => imageJson(id === null ? undefined : byId.get(id));
  }

  /** Whether an `image` value is a URL to side-load (not an attachment id, not a removal). */
  downloads(value: unknown): boolean {
    return typeof value === 'string' && !phpEmpty(value) && toId(value) === undefined;
  }

  /**
   * What an `image` value stands for, checked and, for a URL, downloaded before the write's
   * transaction: `undefined` when not sent, `null` to remove the image, an attachment id, or
   * a downloaded image that {@link record} stores with the write (so a refused write leaves
   * no attachment behind).
   */
  async choose(value: unknown, p: Principal | null): Promise<ImageChoice> {
    if (value === undefined) return undefined;
    if (phpEmpty(value) && value !== 0) return null;
    const id = toId(value);
    if (id !== undefined) {
      if (!(await this.get(id))) throw invalidParam('image');
      return { id };
    }
    if (typeof value !== 'string' || !has(p, 'upload_files')) throw invalidParam('image');
    const known = await this.store.attachments.byUrl(value);
    if (known) return { id: known.post_id };
    try {
      const image = await fetchImage(value, { allowHosts: this.options.imageHosts, maxBytes: this.options.limits.imageBytes, budget: this.budget });
      return { url: value, image, author: p.id };
    } catch {
      throw invalidParam('image');
    }
  }

  /** The attachment id of a chosen image, inside the write's transaction: a downloaded one is recorded once per URL. */
  async record(tx: AttachmentsAccess & PostsAccess, choice: ImageChoice): Promise<number | null | undefined> {
    if (choice === undefined || choice === null) return choice;
    if ('id' in choice) return choice.id;
    // Another write may have recorded the same URL since it was downloaded.
    const known = await tx.attachments.byUrl(choice.url);
    if (known) return known.post_id;
    const stamp = nowDates(this.options.timezone, new Date());
    const postId = await insertPost(tx, {
      type: 'attachment',
      author: choice.author,
      status: 'inherit',
      title: titleFromUrl(new URL(choice.image.url)),
      slugSource: null,
      date: stamp.local,
      date_utc: stamp.utc,
    });
    await tx.attachments.insert({
      post_id: postId,
      url: choice.url,
      mime_type: choice.image.mimeType,
      width: choice.image.width ?? null,
      height: choice.image.height ?? null,
      filesize: choice.image.filesize,
      sizes: '{}',
    });
    return postId;
  }
}
