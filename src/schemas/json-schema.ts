import type { DescriptionKey } from '../i18n/en.js';

/**
 * The part of OpenAPI 3.0's schema language the API's JSON is described in. Descriptions are
 * dictionary keys, translated when a document is written; the same data gives the TypeScript
 * types of the JSON (`JsonOf`), so the two cannot drift apart.
 */
export type JsonSchema = ScalarSchema | ArraySchema | ObjectSchema | RefSchema | AnyOfSchema | AnyValueSchema;

interface Described {
  readonly description?: DescriptionKey;
  /** `null` is a value too (what password-protected items show for their flags). */
  readonly nullable?: boolean;
}

export interface ScalarSchema extends Described {
  readonly type: 'string' | 'integer' | 'number' | 'boolean';
  readonly format?: string;
  readonly enum?: readonly (string | boolean)[];
}

export interface ArraySchema extends Described {
  readonly type: 'array';
  readonly items: JsonSchema;
  /** `0` for the empty list PHP writes where an object is empty (`custom_fields: []`). */
  readonly maxItems?: number;
}

export interface ObjectSchema extends Described {
  readonly type: 'object';
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: JsonSchema;
}

/** A reference to one of `components.schemas`. */
export interface RefSchema {
  readonly $ref: `#/components/schemas/${string}`;
}

export interface AnyOfSchema extends Described {
  readonly anyOf: readonly JsonSchema[];
}

/** Any JSON value (`{}`). */
export interface AnyValueSchema extends Described {
  readonly type?: never;
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The TypeScript type of the JSON a schema describes; `C` maps component names to their types. */
export type JsonOf<S, C> = S extends { readonly $ref: `#/components/schemas/${infer N}` }
  ? N extends keyof C
    ? C[N]
    : never
  : (S extends { readonly nullable: true } ? null : never) | NonNullJsonOf<S, C>;

type NonNullJsonOf<S, C> = S extends { readonly anyOf: readonly (infer U)[] }
  ? JsonOf<U, C>
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly type: 'string' }
      ? string
      : S extends { readonly type: 'integer' | 'number' }
        ? number
        : S extends { readonly type: 'boolean' }
          ? boolean
          : S extends { readonly type: 'array'; readonly maxItems: 0 }
            ? []
            : S extends { readonly type: 'array'; readonly items: infer I }
              ? JsonOf<I, C>[]
              : S extends { readonly type: 'object' }
                ? ObjectOf<S, C>
                : unknown;

type RequiredKeys<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

type PropertiesOf<S, C> = S extends { readonly properties: infer P }
  ? Simplify<
      { -readonly [K in keyof P as K extends RequiredKeys<S> ? K : never]: JsonOf<P[K], C> } & {
        -readonly [K in keyof P as K extends RequiredKeys<S> ? never : K]?: JsonOf<P[K], C>;
      }
    >
  : unknown;

type ObjectOf<S, C> = PropertiesOf<S, C> & (S extends { readonly additionalProperties: infer A } ? Record<string, JsonOf<A, C>> : unknown);

/** The JSON object of an OpenAPI document (for the parts written from the data here). */
export type JsonObject = Record<string, unknown>;

/** `schema` as a document shows it: every description translated. */
export function writeSchema(schema: JsonSchema, t: (key: DescriptionKey) => string): JsonObject {
  if ('$ref' in schema) return { $ref: schema.$ref };
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) out[key] = value;
  if ('items' in schema) out.items = writeSchema(schema.items, t);
  if ('properties' in schema && schema.properties) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([name, p]) => [name, writeSchema(p, t)]));
  }
  if ('additionalProperties' in schema && schema.additionalProperties) out.additionalProperties = writeSchema(schema.additionalProperties, t);
  if ('anyOf' in schema) out.anyOf = schema.anyOf.map((s) => writeSchema(s, t));
  if (schema.description) out.description = t(schema.description);
  return out;
}
