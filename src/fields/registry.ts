/**
 * The fields a calendar's host declared, resolved once at `createCalendar`: by collection, with
 * what storage, filters and documents need to know of each value's type.
 */
import { z } from 'zod';
import { KINDS, KIND_NAMES, type Collection, type HostCollection } from '../kinds.js';
import { typeSchemas, type WpType } from '../args/arg.js';
import type { FieldDeclaration, FieldsOption } from './declare.js';

/** How the archive compares a field's values: as numbers, as texts (dates included), as flags; or not at all. */
export type FilterColumn = 'number' | 'text';

/** One declared field, resolved. */
export interface DeclaredField {
  readonly name: string;
  readonly collection: Collection | HostCollection;
  /** Where its item's id comes from: posts (events, venues, organizers, a host's kinds) or terms. */
  readonly family: 'post' | 'term';
  readonly declaration: FieldDeclaration;
  /** Its value's JSON Schema (zod's). */
  readonly schema: Readonly<Record<string, unknown>>;
  /** Its value's schema in OpenAPI 3.0's dialect, for the complete `/doc`. */
  readonly openApi: Readonly<Record<string, unknown>>;
  /** The JSON type the index shows (WordPress' `type`), when the value has one. */
  readonly wpType?: WpType;
  /** The column its filters compare, when it is filterable; ranges for numbers and dates only. */
  readonly filter?: { column: FilterColumn; ranges: boolean };
}

/** A field name: what a JSON key and a query argument can both be, and the store's column holds. */
const FIELD_NAME = /^[a-z][a-z0-9_]{0,63}$/;

const WP_TYPES: readonly WpType[] = ['integer', 'number', 'boolean', 'string', 'array', 'object'];

/** The single JSON type of a schema, if it has one (`z.number().int()` → `integer`). */
function jsonType(schema: Readonly<Record<string, unknown>>): WpType | undefined {
  return WP_TYPES.find((t) => t === schema.type);
}

/** The JSON types a text from a form or a query is read as before the field's own check. */
const isCoercible = (type: WpType | undefined): type is keyof typeof typeSchemas => type === 'integer' || type === 'number' || type === 'boolean';

/** Whether a string schema holds dates (ISO dates sort as texts do). */
const isDate = (schema: Readonly<Record<string, unknown>>) => schema.format === 'date' || schema.format === 'date-time';

/** The filter of a filterable field, by its value's type; `undefined` for values no column can compare. */
function filterOf(name: string, type: WpType | undefined, schema: Readonly<Record<string, unknown>>): DeclaredField['filter'] {
  if (type === 'integer' || type === 'number') return { column: 'number', ranges: true };
  if (type === 'string') return { column: 'text', ranges: isDate(schema) };
  if (type === 'boolean') return { column: 'text', ranges: false };
  throw new Error(`calendar-events-rest: the field ${name} cannot be filterable: only numbers, texts, dates and flags can be filtered`);
}

/** The fields of a calendar, by collection. */
export class FieldRegistry {
  readonly #byCollection = new Map<string, readonly DeclaredField[]>();
  readonly #collections: readonly (Collection | HostCollection)[];

  /**
   * Resolves the `fields` option; throws on a name that cannot be a field, or fields of a
   * collection that is neither built in nor one of `hostCollections` (the `kinds` option's).
   */
  constructor(option: FieldsOption = {}, hostCollections: readonly HostCollection[] = []) {
    const collections = [
      ...KIND_NAMES.map((k) => ({ collection: KINDS[k].collection, family: KINDS[k].family })),
      ...hostCollections.map((c) => ({ collection: c, family: 'post' as const })),
    ];
    this.#collections = collections.map((c) => c.collection);
    for (const key of Object.keys(option)) {
      if (!collections.some((c) => c.collection === key)) {
        throw new Error(
          `calendar-events-rest: fields.${key}: no kind has the collection '${key}' (${collections.map((c) => c.collection).join(', ')}; a host's own kind is declared in \`kinds\`)`,
        );
      }
    }
    for (const { collection, family } of collections) {
      const declared = option[collection];
      if (!declared) continue;
      const fields = Object.entries(declared).map(([name, declaration]): DeclaredField => {
        if (!FIELD_NAME.test(name)) {
          throw new Error(
            `calendar-events-rest: fields.${collection}: '${name}' is not a field name (lower-case letters, digits and _, starting with a letter, at most 64)`,
          );
        }
        if (!(declaration?.type instanceof z.ZodType))
          throw new Error(`calendar-events-rest: fields.${collection}.${name}: 'type' must be a zod type, such as z.number().int()`);
        const { $schema: _, ...schema } = z.toJSONSchema(declaration.type, { unrepresentable: 'any' });
        const wpType = jsonType(schema);
        const { $schema: __, ...openApi } = z.toJSONSchema(declaration.type, { unrepresentable: 'any', target: 'openapi-3.0' });
        return {
          name,
          collection,
          family,
          declaration,
          schema,
          openApi,
          wpType,
          filter: declaration.filterable ? filterOf(name, wpType, schema) : undefined,
        };
      });
      this.#byCollection.set(collection, fields);
    }
  }

  /** Every collection fields may be declared for: the built-in kinds', then the host's kinds'. */
  get collections(): readonly (Collection | HostCollection)[] {
    return this.#collections;
  }

  /** The fields of a collection, in declaration order. */
  of(collection: Collection | HostCollection): readonly DeclaredField[] {
    return this.#byCollection.get(collection) ?? [];
  }

  /** Whether any field is declared. */
  get empty(): boolean {
    return this.#byCollection.size === 0;
  }
}

/**
 * A value sent for a field: read as WordPress reads its JSON type (`"120"` for an integer from
 * a form or a query), then checked by the field's zod type. An empty text clears it (a JSON
 * `null` is no value at all to the API, as to WordPress), and `null` is what clearing stores.
 */
export function readFieldValue(field: DeclaredField, raw: unknown): { value: unknown } | undefined {
  if (raw === null || raw === '') return { value: null };
  let value = raw;
  if (isCoercible(field.wpType) && typeof raw === 'string') {
    const coerced = typeSchemas[field.wpType].safeParse(raw);
    if (!coerced.success) return undefined;
    value = coerced.data;
  }
  const parsed = field.declaration.type.safeParse(value);
  return parsed.success ? { value: parsed.data } : undefined;
}
