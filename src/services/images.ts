import { has, type Principal } from '../auth/capabilities.js';
import { toId } from '../args/checks.js';
import { invalidParam } from '../http/errors.js';
import type { Limits } from '../http/limits.js';
import { ByteBudget } from '../images/byte-budget.js';
import { fetchImage } from '../images/fetch-image.js';
import { titleFromUrl } from '../images/file-name.js';
import { nowDates } from '../posts/dates.js';
import { imageJson } from '../represent/image.js';
import type { AttachmentRow } from '../store/attachments.js';
import type { Store } from '../store/index.js';
import { phpEmpty } from '../schemas/post-args.js';

/** Featured images: attachments by id, and images side-loaded from URLs. */
export class ImageService {
  /** Bytes of all side-loads of this calendar at once, so concurrent requests cannot pile up bodies. */
  readonly budget: ByteBudget;

  constructor(
    private readonly store: Store,
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
  async byIds(ids: readonly (number | null)[]): Promise<(id: number | null) => false | Record<string, unknown>> {
    const rows = await this.store.attachments.getMany(ids.filter((id): id is number => id !== null));
    const byId = new Map(rows.map((r) => [r.post_id, r]));
    return (id) => imageJson(id === null ? undefined : byId.get(id));
  }

  /**
   * The attachment id an `image` value stands for: `undefined` when not sent, `null` to
   * remove the image; a URL is fetched (from allowed hosts only) and recorded once.
   */
  async resolve(value: unknown, p: Principal | null): Promise<number | null | undefined> {
    if (value === undefined) return undefined;
    if (phpEmpty(value) && value !== 0) return null;
    const id = toId(value);
    if (id !== undefined) {
      if (!(await this.get(id))) throw invalidParam('image');
      return id;
    }
    if (typeof value !== 'string' || !has(p, 'upload_files')) throw invalidParam('image');
    const known = await this.store.attachments.byUrl(value);
    if (known) return known.post_id;
    let fetched: Awaited<ReturnType<typeof fetchImage>>;
    try {
      fetched = await fetchImage(value, {
        allowHosts: this.options.imageHosts,
        maxBytes: this.options.limits.imageBytes,
        budget: this.budget,
      });
    } catch {
      throw invalidParam('image');
    }
    const stamp = nowDates(this.options.timezone, new Date());
    const title = titleFromUrl(new URL(fetched.url));
    return this.store.transaction(async (tx) => {
      const postId = await tx.posts.insert({
        type: 'attachment',
        author: p.id,
        status: 'inherit',
        status_before_trash: null,
        title,
        content: '',
        excerpt: '',
        slug: null,
        password: null,
        date: stamp.local,
        date_utc: stamp.utc,
        modified: stamp.local,
        modified_utc: stamp.utc,
        menu_order: 0,
        parent: 0,
        image_id: null,
      });
      await tx.attachments.insert({
        post_id: postId,
        url: value,
        mime_type: fetched.mimeType,
        width: fetched.width ?? null,
        height: fetched.height ?? null,
        filesize: fetched.filesize,
        sizes: '{}',
      });
      return postId;
    });
  }
}
