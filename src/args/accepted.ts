import { z } from 'zod';
import type { Arg, Args, WpType } from './arg.js';
import { describe } from '../i18n/index.js';

type InputOf<A> = A extends Arg<infer _T, boolean, infer _C, infer I> ? I : never;
type IsRequired<A> = A extends Arg<unknown, true, infer _C, infer _I> ? true : false;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * The JSON object a typed client sends for declared arguments: required arguments are required
 * keys, each value what the argument accepts (its JSON type, or its `accepts` shape).
 */
export type ArgsInput<A> = Simplify<
  { [K in keyof A as IsRequired<A[K]> extends true ? K : never]: InputOf<A[K]> } & {
    [K in keyof A as IsRequired<A[K]> extends true ? never : K]?: InputOf<A[K]>;
  }
>;

/** zod schemas of WordPress' JSON types, as a typed client sends them (no coercion). */
export const JSON_TYPES: Record<WpType, () => z.ZodType> = {
  integer: () => z.number().int(),
  number: () => z.number(),
  boolean: () => z.boolean(),
  string: () => z.string(),
  array: () => z.array(z.unknown()),
  object: () => z.record(z.string(), z.unknown()),
};

/** What a typed client sends for an argument: its `accepts` shape, else its JSON type; `undefined` for any value. */
export function acceptedValue(a: Arg<unknown, boolean, never>): z.ZodType | undefined {
  return a.accepts ?? (a.doc.type ? JSON_TYPES[a.doc.type]() : undefined);
}

/**
 * The JSON object of declared arguments as a zod schema (unknown keys dropped), each key
 * described by its dictionary key, for the objects an argument nests (a new venue's fields).
 */
export function acceptedObject<A extends Args<never>>(args: A): z.ZodType<ArgsInput<A>> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, a] of Object.entries(args)) {
    const value = acceptedValue(a) ?? z.unknown();
    // A dictionary key stays a key (the document translates it per request); a host's own text goes in English.
    const d = a.doc.description;
    const described = d === undefined ? value : value.describe(typeof d === 'string' ? d : describe(d, 'en'));
    shape[name] = a.required ? described : described.optional();
  }
  // Built key by key from the declarations `ArgsInput` reads: the same keys, required the same way.
  return z.object(shape) as z.ZodType<ArgsInput<A>>;
}
