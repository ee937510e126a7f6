/**
 * Declared fields at work in the services: the values a write gives, stored inside its
 * transaction, and the values items show, loaded for a whole page at once.
 */
import { invalidParam } from '../http/errors.js';
import type { Collection, HostCollection } from '../kinds.js';
import type { FieldStore } from './store.js';
import { FieldRegistry, readFieldValue } from './registry.js';

/** The fields of a calendar, for the services that write and render items. */
export class HostFields {
  /** The event fields shown in the iCalendar feeds (`ical: true`), by name. */
  readonly icalNames: readonly string[];

  constructor(readonly registry: FieldRegistry) {
    this.icalNames = registry
      .of('events')
      .filter((f) => f.declaration.ical)
      .map((f) => f.name);
  }

  /**
   * The field values `input` gives (keys absent or `undefined` are not given; `''` or `null` clears).
   * Values are checked again here: an item created inside another's write (a venue given as
   * data in an event write) did not pass the route's arguments.
   */
  given(collection: Collection | HostCollection, input: object): Map<string, unknown> {
    const out = new Map<string, unknown>();
    const fields = this.registry.of(collection);
    if (!fields.length) return out;
    const sent = new Map<string, unknown>(Object.entries(input));
    for (const field of fields) {
      const raw = sent.get(field.name);
      if (raw === undefined) continue;
      const read = readFieldValue(field, raw);
      if (!read) throw invalidParam(field.name);
      out.set(field.name, read.value);
    }
    return out;
  }

  /**
   * The field values an item of another site shows (the importer's source, running this library
   * with the same declarations): the keys named as a field, each checked by it; values it
   * refuses are left out and returned, for the import's report.
   */
  fromSource(collection: Collection | HostCollection, item: object): { values: Map<string, unknown>; refused: { field: string; from: string }[] } {
    const values = new Map<string, unknown>();
    const refused: { field: string; from: string }[] = [];
    const shown = new Map<string, unknown>(Object.entries(item));
    for (const field of this.registry.of(collection)) {
      if (!shown.has(field.name)) continue;
      const raw = shown.get(field.name);
      const read = readFieldValue(field, raw);
      if (read) values.set(field.name, read.value);
      else refused.push({ field: field.name, from: JSON.stringify(raw) ?? String(raw) });
    }
    return { values, refused };
  }

  /** Stores values already checked (`fromSource`) for item `id`. */
  async saveValues(store: FieldStore, collection: Collection | HostCollection, id: number, values: ReadonlyMap<string, unknown>): Promise<void> {
    if (values.size) await store.save(this.family(collection), id, values);
  }

  /**
   * Stores the values `input` gives for item `id`, with `store` (the write's transaction's);
   * `created`: a new item. Returns the values now stored that it sent (`null` removes one, so is
   * left out): for a new item, all it has, which its rendering then need not read again.
   */
  async save(
    store: FieldStore,
    collection: Collection | HostCollection,
    id: number,
    input: object,
    { created = false } = {},
  ): Promise<ReadonlyMap<string, unknown>> {
    const values = this.given(collection, input);
    if (values.size) await store.save(this.family(collection), id, values, { created });
    for (const [name, value] of values) if (value === null) values.delete(name);
    return values;
  }

  /**
   * Adds each field's value (else its default, else `null`) to the items as they are shown;
   * `ids` are the items whose values they show, where not their own (an occurrence shows its event's);
   * `known`: every value of items a write has just created (what {@link save} returned), not read again.
   */
  async decorate<J extends { id: number }>(
    store: FieldStore,
    collection: Collection | HostCollection,
    items: J[],
    ids?: readonly number[],
    known?: ReadonlyMap<number, ReadonlyMap<string, unknown>>,
  ): Promise<J[]> {
    const fields = this.registry.of(collection);
    if (!fields.length || !items.length) return items;
    const owners = ids ?? items.map((i) => i.id);
    const values = known && owners.every((id) => known.has(id)) ? known : await store.load(this.family(collection), owners, fields);
    return items.map((item, i) => {
      const stored = values.get(owners[i] ?? item.id);
      const shown = Object.fromEntries(fields.map((f) => [f.name, stored?.has(f.name) ? stored.get(f.name) : (f.declaration.default ?? null)]));
      return Object.assign(item, shown);
    });
  }

  private family(collection: Collection | HostCollection): 'post' | 'term' {
    return this.registry.of(collection)[0]?.family ?? 'post';
  }
}

/** A calendar without declared fields (services built on their own: tests, scripts). */
export const NO_FIELDS = new HostFields(new FieldRegistry());
