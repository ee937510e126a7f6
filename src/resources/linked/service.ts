import type { LinkedInput } from './args.js';
import { insertPost, moveStatus, newPostState } from '../../posts/lifecycle.js';
import { can, type Principal } from '../../auth/capabilities.js';
import type { Urls } from '../../http/urls.js';
import { type ApiError, invalidParams } from '../../http/errors.js';
import { linkedNotCreated, linkedNotUpdated } from './errors.js';
import type { ParamFailure } from '../../args/failure.js';
import type { PostKindInfo } from '../../posts/kinds.js';
import { moveToTrash } from '../../posts/trash.js';
import { present, recheck, type WriteTarget } from '../../posts/write-target.js';
import { filterContent, filterTitle } from '../../posts/text.js';
import { storedSlugForm } from '../../posts/slug.js';
import { assertPublicationDates } from '../../posts/dates.js';
import { assertAuthorAllowed, namedAuthor, type AuthorWrite } from '../../posts/author.js';
import type { Store } from '../store.js';
import type { DetailsOf, ItemTable, LinkedListQuery, LinkedRow, LinkedRows } from './store.js';
import { withRetry } from '../../store/retry.js';
import type { ImageChoice, ImageService } from '../../images/service.js';
import type { HostItem, Image, Organizer, Venue } from '../../schemas/types.js';
import { NO_FIELDS, type HostFields } from '../../fields/values.js';
import { NO_HOOKS, type CalendarHooks } from '../../hooks/calendar-hooks.js';
import { keptBefore } from '../../hooks/rewrites.js';
import { merged } from '../../merged.js';

/** How one linked kind (or a host's kind) maps parameters to columns and rows to JSON. */
export interface LinkedKind<T extends ItemTable> {
  info: PostKindInfo;
  /** Its queries, over a store or a transaction's. */
  rows(store: Store): LinkedRows<T>;
  /** The name parameter and response key (`venue`, `organizer`; a host's kind: its noun). */
  titleKey: string;
  /** Details of a new item before the sent fields apply. */
  blank(): DetailsOf<T>;
  /** Detail columns a write sets from the parameters sent (merged with `current` on update). */
  details(input: LinkedInput, current: DetailsOf<T> | undefined): Partial<DetailsOf<T>>;
  /** The item as the API shows it. */
  represent(row: LinkedRow<T>, view: LinkedView): LinkedJson<T>;
}

/** The JSON of a linked kind's items (a host's kind's: `resources/host-kinds/`). */
export type LinkedJson<T extends ItemTable> = T extends 'venues' ? Venue : T extends 'organizers' ? Organizer : HostItem;

/** What a representation needs beyond the row. */
export interface LinkedView {
  urls: Urls;
  principal: Principal | null;
  image: false | Image;
  /** Whether the caller may read the item (pretty permalink of private items, `json_ld`). */
  canRead: boolean;
  /** Single reads (and items embedded in a single event) carry `json_ld` when readable. */
  jsonLd: boolean;
}

/** Items with the same title a create considers for reuse (the first one the caller may read wins). */
const DUPLICATE_CANDIDATES = 20;

/** Bytes the smallest text column of every store holds (MySQL/MariaDB `text`). */
const MAX_STORED_BYTES = 65_535;

/**
 * Refuses stored values a store could not hold (400, the parameter named as the request
 * limits name it), so that every dialect behaves alike and none answers 500. Values are
 * measured as stored: the HTML filter may lengthen them.
 */
export function assertStorable(values: Record<string, unknown>): void {
  const failures = new Map<string, ParamFailure>();
  for (const [name, value] of Object.entries(values)) {
    if (typeof value !== 'string' || Buffer.byteLength(value) <= MAX_STORED_BYTES) continue;
    const message = `${name} is too large.`;
    failures.set(name, { message, detail: { code: 'rest_param_too_large', message, data: { param: name } } });
  }
  if (failures.size) throw invalidParams(failures);
}

function owned(kind: PostKindInfo, row: LinkedRow<ItemTable>) {
  return { kind: kind.kind, authorId: row.author, status: row.status, statusBeforeTrash: row.status_before_trash };
}

/** The rules venues and organizers share: visibility, writes, trash and permanent deletion. */
export class LinkedPostService<T extends ItemTable> {
  constructor(
    private readonly store: Store,
    private readonly images: ImageService,
    readonly kind: LinkedKind<T>,
    /** Another user as `author` only with `edit_others` (`strictAuthor`). */
    private readonly strictAuthor = false,
    /** The fields the host declared. */
    private readonly fields: HostFields = NO_FIELDS,
    /** The host's hooks (`beforeChange` inside each write's transaction, `afterRead` on rendered items). */
    private readonly hooks: CalendarHooks = NO_HOOKS,
    /**
     * What a write's input becomes before its transaction, given the item it changes (none for a
     * create): a venue's coordinates, from the host's geocoder (`venues/locate.ts`).
     */
    private readonly beforeWrite?: (input: LinkedInput, current: LinkedRow<T> | undefined) => Promise<LinkedInput>,
  ) {}

  /**
   * The input a write stores, prepared outside any transaction (`beforeWrite`): a create's
   * (`current` undefined), an update's, or an item's created inside an event write.
   */
  prepared(input: LinkedInput, current: LinkedRow<T> | undefined): Promise<LinkedInput> {
    return this.beforeWrite ? this.beforeWrite(input, current) : Promise.resolve(input);
  }

  private rows(s: Store = this.store): LinkedRows<T> {
    return this.kind.rows(s);
  }

  /** The item with this id. */
  get(id: number): Promise<LinkedRow<T> | undefined> {
    return this.rows().get(id);
  }

  /** The item with this slug, given as stored or with its non-ASCII characters decoded. */
  async bySlug(slug: string): Promise<LinkedRow<T> | undefined> {
    const found = await this.rows().bySlug(slug);
    const stored = storedSlugForm(slug);
    return found ?? (stored !== slug ? this.rows().bySlug(stored) : undefined);
  }

  /** Items by id, any order. */
  getMany(ids: readonly number[]): Promise<LinkedRow<T>[]> {
    return this.rows().getMany(ids);
  }

  /** Whether `p` may read, edit or delete the item. */
  can(p: Principal | null, action: 'read' | 'edit' | 'delete', row: LinkedRow<T>): boolean {
    return can(p, action, owned(this.kind.info, row));
  }

  /** One archive page. */
  list(query: LinkedListQuery): Promise<{ rows: LinkedRow<T>[]; total: number }> {
    return this.rows().list(query);
  }

  /** Items as the API shows them, images looked up in one batch. */
  async render(rows: readonly LinkedRow<T>[], view: Omit<LinkedView, 'image' | 'canRead'>): Promise<LinkedJson<T>[]> {
    const images = await this.images.byIds(rows.map((r) => r.image_id));
    const items = rows.map((row) => {
      const canRead = this.can(view.principal, 'read', row);
      return this.kind.represent(row, merged(view, { image: images(row.image_id), canRead, jsonLd: view.jsonLd && canRead }));
    });
    return this.hooks.read(this.kind.info.collection, await this.fields.decorate(this.store.fields, this.kind.info.collection, items), view.principal);
  }

  /**
   * Creates an item, or returns the existing one with the same
   * title (and description, when sent) after applying the sent fields to it.
   */
  async create(sent: LinkedInput, p: Principal | null, siteZone: string, now: Date): Promise<LinkedRow<T>> {
    // Refused before an image URL is fetched and recorded, so that a refusal writes nothing.
    this.assertAuthor(sent, p, 'create');
    this.assertCreatable(sent, p);
    assertPublicationDates(sent, siteZone, now);
    const input = await this.prepared(sent, undefined);
    const image = await this.images.choose(input.image, p);
    const row = await withRetry(() => this.store.transaction(async (tx) => this.rows(tx).get(await this.insertIn(tx, input, p, siteZone, now, image))));
    if (!row) throw this.notCreated();
    return row;
  }

  /** The stored name and description of a new item, once sure the store can hold them. */
  private assertCreatable(input: LinkedInput, p: Principal | null): { title: string; content: string | undefined } {
    const title = filterTitle(String(input[this.kind.titleKey]), p);
    const content = input.description !== undefined ? filterContent(String(input.description ?? ''), p) : undefined;
    assertStorable({ [this.kind.titleKey]: title, description: content, ...this.kind.details(input, undefined) });
    // WordPress refuses a post with neither title nor content (a name of blanks, or only tags).
    if (!title.trim() && !content?.trim()) throw this.notCreated();
    return { title, content };
  }

  /**
   * Refuses a write of this kind that names an `author` `p` may not name (`strictAuthor`:
   * another user only with `edit_others`); an item created inside an event write is a `create`.
   */
  assertAuthor(input: { author?: unknown }, p: Principal | null, write: AuthorWrite): void {
    assertAuthorAllowed(this.strictAuthor, this.kind.info, namedAuthor(input), p, write);
  }

  private notCreated(): ApiError {
    return linkedNotCreated(this.kind.info.noun);
  }

  /**
   * The creation step of {@link create}, inside a caller's transaction (event writes create
   * linked items). An item with the same title (and description, when sent) is reused instead:
   * updated with the sent fields when the caller may edit it,
   * linked as it stands when the caller may only read it; one the caller may not read is no match.
   */
  async insertIn(tx: Store, sent: LinkedInput, p: Principal | null, siteZone: string, now: Date, image?: ImageChoice): Promise<number> {
    // The host's hook first, before anything is written (also for an item created inside an event write).
    const input = await this.hooks.before(this.kind.info.collection, 'create', sent, p);
    if (input !== sent) {
      keptBefore(this.kind.info.collection, sent, input, ['image']);
      this.assertAuthor(input, p, 'create');
    }
    const { title, content } = this.assertCreatable(input, p);
    // Dates are read (a bad one refused) before a duplicate is looked for, as upstream reads them first.
    const state = newPostState(input, p, siteZone, now);
    const table = this.rows(tx);
    // A password-protected item's title and description are hidden from who may not edit it:
    // matching them would let a create tell whether a guess was right.
    const reusable = (row: LinkedRow<T>) => row.status !== 'trash' && this.can(p, 'read', row) && (!row.password || this.can(p, 'edit', row));
    const candidates = await table.findDuplicates(title, content === '' ? undefined : content, DUPLICATE_CANDIDATES);
    const match = candidates.find(reusable);
    // Locked and judged again: it may have changed since it was found.
    const duplicate = match && (await table.get(match.id, { lock: true }));
    if (duplicate && reusable(duplicate)) {
      if (!this.can(p, 'edit', duplicate)) return duplicate.id;
      await table.updateDetails(duplicate.id, this.kind.details(input, duplicate));
      await this.fields.save(tx.fields, this.kind.info.collection, duplicate.id, input);
      if (image !== undefined) await tx.posts.update(duplicate.id, { image_id: (await this.images.record(tx, image)) ?? null });
      tx.changes.record(this.kind.info.noun, duplicate.id, 'updated');
      return duplicate.id;
    }
    const id = await insertPost(tx, {
      type: this.kind.info.type,
      author: namedAuthor(input) ?? p?.id ?? 0,
      ...state,
      title,
      content,
      // Drafts get their slug too.
      slugSource: title,
      image_id: (await this.images.record(tx, image)) ?? null,
    });
    await table.insertDetails(id, { ...this.kind.blank(), ...this.kind.details(input, undefined) });
    await this.fields.save(tx.fields, this.kind.info.collection, id, input, { created: true });
    tx.changes.record(this.kind.info.noun, id, 'created');
    return id;
  }

  /**
   * Updates the fields sent; every other field keeps its value. A
   * `status` of `trash` goes through the trash rule, and leaving the trash restores the slug.
   */
  async update(target: WriteTarget<LinkedRow<T>>, given: LinkedInput, p: Principal | null, siteZone: string, now: Date): Promise<LinkedRow<T>> {
    const early = this.updatedText(target, given, p, siteZone, now);
    const sent = await this.prepared(given, target.row);
    const image = await this.images.choose(sent.image, p);
    return withRetry(() =>
      this.store.transaction(async (tx) => {
        const table = this.rows(tx);
        const row = recheck(await table.get(target.row.id, { lock: true }), target, p, (r) => this.can(p, 'edit', r));
        const input = await this.hooks.before(this.kind.info.collection, 'update', sent, p, row);
        if (input !== sent) keptBefore(this.kind.info.collection, sent, input, ['image']);
        const text = input === sent ? early : this.updatedText({ ...target, row }, input, p, siteZone, now);
        const changes: Parameters<Store['posts']['update']>[1] = { ...text };
        const author = namedAuthor(input);
        if (author !== undefined) changes.author = author;
        if (image !== undefined) changes.image_id = (await this.images.record(tx, image)) ?? null;
        const { trashing, changes: moved } = await moveStatus(tx, this.kind.info, row, input, p, this.can(p, 'delete', row), siteZone, now);
        await tx.posts.update(row.id, { ...changes, ...moved });
        await table.updateDetails(row.id, this.kind.details(input, row));
        await this.fields.save(tx.fields, this.kind.info.collection, row.id, input);
        tx.changes.record(this.kind.info.noun, row.id, 'updated');
        if (trashing) await moveToTrash(tx, this.kind.info, present(await table.get(row.id), target), siteZone, now, () => this.unlink(tx, row.id));
        return present(await table.get(row.id), target);
      }),
    );
  }

  /** The name and description an update writes, once sure they are allowed and the store can hold them. */
  private updatedText(
    target: WriteTarget<LinkedRow<T>>,
    input: LinkedInput,
    p: Principal | null,
    siteZone: string,
    now: Date,
  ): { title?: string; content?: string } {
    this.assertAuthor(input, p, 'update');
    const text: { title?: string; content?: string } = {};
    const title = input[this.kind.titleKey];
    if (title !== undefined) text.title = filterTitle(String(title), p);
    if (input.description !== undefined) text.content = filterContent(String(input.description ?? ''), p);
    assertStorable({ [this.kind.titleKey]: text.title, description: text.content, ...this.kind.details(input, target.row) });
    if (!(text.title ?? target.row.title).trim() && !(text.content ?? target.row.content).trim()) {
      throw linkedNotUpdated(this.kind.info.noun);
    }
    assertPublicationDates(input, siteZone, now);
    return text;
  }

  /** Moves the item to the trash and unlinks it from events. */
  async trash(target: WriteTarget<LinkedRow<T>>, p: Principal | null, siteZone: string, now: Date): Promise<LinkedRow<T>> {
    return withRetry(() =>
      this.store.transaction(async (tx) => {
        const table = this.rows(tx);
        const row = recheck(await table.get(target.row.id, { lock: true }), target, p, (r) => this.can(p, 'delete', r));
        await this.hooks.before(this.kind.info.collection, 'delete', { force: false }, p, row);
        await moveToTrash(tx, this.kind.info, row, siteZone, now, () => this.unlink(tx, row.id));
        tx.changes.record(this.kind.info.noun, row.id, 'updated');
        return present(await table.get(row.id), target);
      }),
    );
  }

  /** Removes the item for good (`force=true`), unlinking it from events. */
  async deletePermanently(target: WriteTarget<LinkedRow<T>>, p: Principal | null): Promise<void> {
    await withRetry(() =>
      this.store.transaction(async (tx) => {
        const table = this.rows(tx);
        const row = recheck(await table.get(target.row.id, { lock: true }), target, p, (r) => this.can(p, 'delete', r));
        await this.hooks.before(this.kind.info.collection, 'delete', { force: true }, p, row);
        for (const event of await table.deletePermanently(row.id)) tx.changes.record('event', event, 'updated');
        tx.changes.record(this.kind.info.noun, row.id, 'deleted');
      }),
    );
  }

  /** Unlinks the item from its events, which the change log then shows as updated. */
  private async unlink(tx: Store, id: number): Promise<void> {
    for (const event of await this.rows(tx).unlinkFromEvents(id)) tx.changes.record('event', event, 'updated');
  }
}
