/**
 * The arguments declared fields add to their kind's routes: one per field on writes (checked by
 * the field's type, and by its capability), and `{name}`, `{name}_min`, `{name}_max` on the
 * archive of a filterable one.
 */
import { z } from 'zod';
import { arg, type Arg, type Args } from '../args/arg.js';
import { parseList } from '../args/checks.js';
import type { ParamFailure } from '../args/failure.js';
import { has } from '../auth/capabilities.js';
import type { RequestContext } from '../http/context.js';
import type { LocalizedText } from '../i18n/index.js';
import { filterValue, type FieldFilter } from './store.js';
import { readFieldValue, type DeclaredField } from './registry.js';

/** What the index and `/doc` say of a field: the host's text, or that it is the host's. */
export const fieldDescription = (field: DeclaredField): LocalizedText => {
  const d = field.declaration.description;
  return typeof d === 'string' ? { en: d } : (d ?? { en: `The ${field.name} field.` });
};

/** The refusal of a value the caller may not write. */
function forbidden(field: DeclaredField): ParamFailure {
  const message = `Sorry, you are not allowed to set ${field.name}.`;
  return { message, detail: { code: 'rest_cannot_edit_field', message, data: { param: field.name, status: 403 } } };
}

/** The write argument of a field: its value, or `null` to clear it. */
function writeArg(field: DeclaredField): Arg<unknown, false, RequestContext> {
  const capability = field.declaration.capability;
  return arg(
    { description: fieldDescription(field), ...(field.wpType ? { type: field.wpType } : {}) },
    {
      check: (value: unknown, ctx: RequestContext) => {
        if (capability !== undefined && !has(ctx.principal, capability)) return forbidden(field);
        return readFieldValue(field, value) !== undefined;
      },
      sanitize: (value: unknown) => readFieldValue(field, value)?.value ?? null,
      // A value, or `''` to clear it (a JSON null is no value to the API).
      accepts: z.union([field.declaration.type, z.literal('')]),
      addition: false,
    },
  );
}

/** Whether a filter's value reads as a value of the field (not as clearing it). */
const isValue = (field: DeclaredField, value: unknown) => {
  const read = readFieldValue(field, value);
  return read !== undefined && read.value !== null;
};

/** Whether each element of a filter's value reads as the field's value. */
/**
 * Most values one equality filter may list: each is checked by the field's type and becomes an
 * SQL parameter, so a list as long as a body allows would hold the loop and overflow SQLite's
 * parameter limit (a longer list is refused, `rest_invalid_param`).
 */
export const MAX_FILTER_VALUES = 100;

const everyValue = (field: DeclaredField) => (value: unknown) => {
  const list = parseList(value);
  return !!list?.length && list.length <= MAX_FILTER_VALUES && list.every((v) => isValue(field, v));
};

/** The archive arguments of a filterable field. */
function filterArgs(field: DeclaredField): Args<RequestContext> {
  const filter = field.filter;
  if (!filter) return {};
  const description = fieldDescription(field);
  const one = (value: unknown) => isValue(field, value);
  const out: Args<RequestContext> = {
    [field.name]: arg({ description, ...(field.wpType ? { items: { type: field.wpType } } : {}) }, { check: everyValue(field), style: 'form' }),
  };
  if (filter.ranges) {
    out[`${field.name}_min`] = arg({ description, ...(field.wpType ? { type: field.wpType } : {}) }, { check: one });
    out[`${field.name}_max`] = arg({ description, ...(field.wpType ? { type: field.wpType } : {}) }, { check: one });
  }
  return out;
}

/** The write arguments of a kind's fields. */
export function fieldWriteArgs(fields: readonly DeclaredField[]): Args<RequestContext> {
  return Object.fromEntries(fields.map((f) => [f.name, writeArg(f)]));
}

/** The archive arguments of a kind's filterable fields. */
export function fieldFilterArgs(fields: readonly DeclaredField[]): Args<RequestContext> {
  return Object.assign({}, ...fields.map(filterArgs));
}

/** The names of the archive arguments of a kind's filterable fields, in declaration order. */
export function fieldFilterArgNames(fields: readonly DeclaredField[]): string[] {
  return fields.flatMap((f) => (!f.filter ? [] : f.filter.ranges ? [f.name, `${f.name}_min`, `${f.name}_max`] : [f.name]));
}

/** The tests an archive request's field arguments ask for. */
export function fieldFilters(fields: readonly DeclaredField[], checked: object): FieldFilter[] {
  const out: FieldFilter[] = [];
  if (!fields.length) return out;
  const params = new Map<string, unknown>(Object.entries(checked));
  for (const f of fields) {
    if (!f.filter) continue;
    const { column } = f.filter;
    const read = (v: unknown) => filterValue(column, readFieldValue(f, v)?.value);
    const base = { family: f.family, name: f.name, column };
    const values = params.get(f.name);
    if (values !== undefined) out.push({ ...base, test: { in: (parseList(values) ?? []).map(read) } });
    const min = params.get(`${f.name}_min`);
    if (min !== undefined) out.push({ ...base, test: { min: read(min) } });
    const max = params.get(`${f.name}_max`);
    if (max !== undefined) out.push({ ...base, test: { max: read(max) } });
  }
  return out;
}
