import { arg } from '../args/arg.js';
import { phpPositiveInteger } from '../args/checks.js';
import { phpInteger } from '../php/numeric.js';
import type { RequestContext } from '../http/context.js';

/** `page` of every archive. */
export const pageArg = arg({ default: 1, description: 'archive.page', type: 'integer' }, { check: phpPositiveInteger });

/**
 * `per_page` of every archive: its own sanitiser (no type error; `archivePage` clamps it to
 * the mount's maximum). The index shows the default as a string, as upstream does.
 */
export const perPageArg = arg(
  { default: (ctx: RequestContext) => String(ctx.options.perPage), description: 'archive.per_page', type: 'integer' },
  { check: phpPositiveInteger, sanitize: (v) => phpInteger(v) ?? 0 },
);
