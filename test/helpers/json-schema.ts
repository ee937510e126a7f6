import type { JsonSchema } from '../../src/schemas/json-schema.js';
import { SCHEMAS, type Field, type ResponseSchemaName } from '../../src/schemas/responses.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isName = (name: string): name is ResponseSchemaName => Object.hasOwn(SCHEMAS, name);

/**
 * Where a JSON value departs from one of the response schemas: every required key present,
 * no key the schema does not name (so that the types derived from the schemas are exact), every
 * value of its declared shape. `[]` when it conforms.
 */
export function mismatches(name: ResponseSchemaName, value: unknown, path: string = name): string[] {
  const fields: Readonly<Record<string, Field>> = SCHEMAS[name];
  if (!isObject(value)) return [`${path}: not an object`];
  const out: string[] = [];
  for (const [key, field] of Object.entries(fields)) if (!field.optional && !(key in value)) out.push(`${path}.${key}: missing`);
  for (const [key, v] of Object.entries(value)) {
    const field = fields[key];
    if (!field) out.push(`${path}.${key}: not in the schema`);
    else out.push(...schemaMismatches(field.json, v, `${path}.${key}`));
  }
  return out;
}

function schemaMismatches(schema: JsonSchema, value: unknown, path: string): string[] {
  if ('$ref' in schema) {
    const name = schema.$ref.split('/').pop() ?? '';
    return isName(name) ? mismatches(name, value, path) : [`${path}: unknown $ref ${schema.$ref}`];
  }
  if (value === null) return schema.nullable ? [] : [`${path}: null`];
  if ('anyOf' in schema)
    return schema.anyOf.some((s) => schemaMismatches(s, value, path).length === 0) ? [] : [`${path}: matches no anyOf option (${JSON.stringify(value)})`];
  if (!('type' in schema) || schema.type === undefined) return [];
  const bad = [`${path}: ${JSON.stringify(value)} is not ${schema.type}`];
  switch (schema.type) {
    case 'string':
    case 'boolean':
      if (typeof value !== schema.type) return bad;
      return schema.enum && !schema.enum.some((e) => e === value) ? [`${path}: ${JSON.stringify(value)} not in enum`] : [];
    case 'integer':
      return Number.isInteger(value) ? [] : bad;
    case 'number':
      return typeof value === 'number' ? [] : bad;
    case 'array':
      if (!Array.isArray(value)) return bad;
      if (schema.maxItems !== undefined && value.length > schema.maxItems) return [`${path}: more than ${schema.maxItems} items`];
      return value.flatMap((v, i) => schemaMismatches(schema.items, v, `${path}[${i}]`));
    case 'object': {
      if (!isObject(value)) return bad;
      const out: string[] = [];
      for (const key of schema.required ?? []) if (!(key in value)) out.push(`${path}.${key}: missing`);
      for (const [key, v] of Object.entries(value)) {
        const property = schema.properties?.[key] ?? schema.additionalProperties;
        if (!property) out.push(`${path}.${key}: not in the schema`);
        else out.push(...schemaMismatches(property, v, `${path}.${key}`));
      }
      return out;
    }
  }
}
