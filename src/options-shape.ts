/**
 * The shapes of options, checked when they are given: a value of the wrong type, or a key no
 * option has, fails at once with a message naming it (and the nearest known key), instead of
 * every request failing later. TypeScript catches these for typed hosts; JavaScript hosts get
 * them here. The resolvers of each option still check its range and form.
 */
import { invalidOption } from './option-error.js';

/** What an option takes, as checked before its resolver reads it. */
export interface OptionShape {
  /** What the option takes, as a message says it ("a function"). */
  readonly takes: string;
  /** Whether a value (never `undefined`: options are optional) has the right type. */
  readonly accepts: (value: unknown) => boolean;
  /** The keys of an object option: a key not among them is refused. */
  readonly fields?: OptionShapes;
  /** The shape of each element of a list option. */
  readonly items?: OptionShape;
}

/** The shapes of an object's keys. */
export type OptionShapes = Readonly<Record<string, OptionShape>>;

/**
 * The shapes of every key of `T` and of no other: written against the interface that declares
 * the options, so that a key added there and not here (or the reverse) fails the type check.
 */
export type ShapesOf<T> = { readonly [K in keyof Required<NonNullable<T>>]: OptionShape };

/** Whether a value is an object of keys (not an array, a function or `null`). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Any value: its resolver checks it and says what it takes. */
export const checkedLater: OptionShape = { takes: '', accepts: () => true };

/** A function. */
export const aFunction = (takes = 'a function'): OptionShape => ({ takes, accepts: (v) => typeof v === 'function' });

/** A string. */
export const aText = (takes = 'a text'): OptionShape => ({ takes, accepts: (v) => typeof v === 'string' });

/** `true` or `false`. */
export const aFlag: OptionShape = { takes: 'true or false', accepts: (v) => typeof v === 'boolean' };

/** One of a few values (`'json'`). */
export const aChoice = (values: readonly unknown[], takes: string): OptionShape => ({ takes, accepts: (v) => values.includes(v) });

/** A list, each element of `items`' shape. */
export const aList = (items: OptionShape, takes: string): OptionShape => ({ takes, accepts: Array.isArray, items });

/** An object of the keys `fields` declares; `orFalse`: or `false`, for an option that turns a feature off. */
export function anObject(fields: OptionShapes, takes: string, orFalse = false): OptionShape {
  return { takes, fields, accepts: (v) => isRecord(v) || (orFalse && v === false) };
}

/** An object of any keys (dictionaries by locale): its resolver checks them. */
export const aRecord = (takes: string): OptionShape => ({ takes, accepts: isRecord });

/** One shape or another (`'*'`, a list or a function). */
export const either = (takes: string, ...shapes: OptionShape[]): OptionShape => ({ takes, accepts: (v) => shapes.some((s) => s.accepts(v)) });

/**
 * Checks an object of options against their shapes: `where` names the call in messages
 * (`calendarRouter` for a mount's options; none for `createCalendar`'s), `owner` the object
 * when it is itself an option (`cors`).
 */
export function checkShapes(options: Record<string, unknown>, shapes: OptionShapes, where?: string, owner?: string): void {
  for (const key of Object.keys(options)) {
    const name = owner ? `${owner}.${key}` : key;
    const shape = Object.hasOwn(shapes, key) ? shapes[key] : undefined;
    if (!shape) throw unknownOption(name, key, Object.keys(shapes), where, owner);
    checkShape(options[key], shape, name, where);
  }
}

function checkShape(value: unknown, shape: OptionShape, name: string, where: string | undefined): void {
  if (value === undefined) return;
  if (!shape.accepts(value)) throw invalidOption(name, value, shape.takes, where);
  if (shape.fields && isRecord(value)) checkShapes(value, shape.fields, where, name);
  const { items } = shape;
  if (items && Array.isArray(value)) value.forEach((item: unknown, i) => checkShape(item, items, `${name}[${i}]`, where));
}

/** The most keys a message lists when it finds none near an unknown one. */
const LISTED = 12;

/** The error of a key no option has, with the nearest known key, or the known keys when there are few. */
function unknownOption(name: string, key: string, known: readonly string[], where: string | undefined, owner: string | undefined): TypeError {
  const near = nearest(key, known);
  const of = owner ? `\`${owner}\`` : where ? `${where}` : 'createCalendar';
  const hint = near
    ? `did you mean \`${owner ? `${owner}.` : ''}${near}\`?`
    : known.length <= LISTED
      ? `the options of ${of} are ${known.join(', ')}.`
      : `it is none of the options of ${of} (docs/reference/options.md).`;
  return new TypeError(`calendar-events-rest: ${where ? `${where} ` : ''}option \`${name}\` is unknown; ${hint}`);
}

/**
 * The known key closest to `key` in edits (ignoring case: `getuser` is `getUser`), when it is
 * close enough to be a slip: at most one edit in four characters, and at least one allowed.
 */
export function nearest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(key.length / 4)) + 1;
  for (const candidate of known) {
    const d = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`: the optimal string alignment distance. */
function editDistance(a: string, b: string): number {
  // One flat table, (a.length + 1) × (b.length + 1): cell (i, j) at i * width + j.
  const width = b.length + 1;
  const d = new Uint16Array((a.length + 1) * width);
  const at = (i: number, j: number) => d[i * width + j] ?? 0;
  for (let i = 0; i <= a.length; i++) d[i * width] = i;
  for (let j = 0; j <= b.length; j++) d[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      d[i * width + j] = best;
    }
  }
  return at(a.length, b.length);
}
