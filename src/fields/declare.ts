/**
 * Fields a host adds to a kind of item, declared once (README "Extending: fields"): the value's
 * zod type, its default, whether the archive filters by it, who may write it and what it means.
 * Arguments, validation, storage, JSON, the index, `/doc`, tRPC and the response types all
 * derive from the declaration (`fields/registry.ts`).
 */
import { type z } from 'zod';
import type { Collection, HostCollection } from '../kinds.js';
import type { LocalizedText } from '../i18n/index.js';

/** One field of a kind, as a host declares it. `T` is the type of its value. */
export interface FieldDeclaration<T = unknown> {
  /** What the value must be: a JSON value (numbers, texts, flags, lists or objects of them). */
  readonly type: z.ZodType<T>;
  /** What an item without a value shows (else `null`). */
  readonly default?: T;
  /**
   * Whether the kind's archive filters by it: `{name}` (one value or a list of any of them),
   * and for numbers and dates `{name}_min` and `{name}_max`.
   */
  readonly filterable?: boolean;
  /** The capability a caller needs to write it (beyond the right to write the item). */
  readonly capability?: string;
  /** What it holds, for the index and `/doc`: a text, or texts by locale. */
  readonly description?: string | LocalizedText;
  /** Events only: shown in the iCalendar feeds as `X-CALENDAR-{NAME}`. */
  readonly ical?: boolean;
}

/** Declares a field: `field({ type: z.number().int(), filterable: true })`; with a `default`, its value is never `null`. */
export function field<const T>(declaration: FieldDeclaration<T> & { readonly default: T }): FieldDeclaration<T> & { readonly default: T };
export function field<const T>(declaration: FieldDeclaration<T>): FieldDeclaration<T>;
export function field<const T>(declaration: FieldDeclaration<T>): FieldDeclaration<T> {
  return declaration;
}

/** The fields of one kind, by name. */
export type KindFields = Readonly<Record<string, FieldDeclaration<unknown>>>;

/** The fields of each kind, by collection (`events`, `venues`, `organizers`, `categories`, `tags`, a host's kinds'). */
export type FieldsOption = { readonly [C in Collection]?: KindFields } & { readonly [collection: HostCollection]: KindFields | undefined };

/** The value a declared field shows: its type, or `null` where it has no default. */
type ShownValue<D> = D extends { readonly type: z.ZodType<infer T> } ? (D extends { readonly default: unknown } ? T : T | null) : never;

/** The values a record of declarations adds to an item. */
export type FieldValues<D> =
  D extends Readonly<Record<string, FieldDeclaration<unknown>>>
    ? // Declarations not known by name (a calendar typed as any calendar) add no key.
      string extends keyof D
      ? object
      : { -readonly [K in keyof D]: ShownValue<D[K]> }
    : object;

/** What the fields of `F` add to the items of collection `C`. */
export type HostFieldsOf<F, C extends string> = F extends FieldsOption ? FieldValues<F[C]> : object;
