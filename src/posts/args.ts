import { z } from 'zod';
import { arg } from '../args/arg.js';
import { nonEmptyString, parseList } from '../args/checks.js';
import { toId } from '../ids.js';
import type { RequestContext } from '../http/context.js';
import { isTime } from '../dates/index.js';
import { ANY_STATUSES, isRegisteredStatus } from './status.js';
import { has } from '../auth/capabilities.js';
import type { PostKindInfo } from './kinds.js';
import { isUrlOrEmpty } from '../text/url.js';
import { phpEmpty } from '../php/empty.js';

type Ctx = RequestContext;

/** "string or empty": PHP-empty, or a string. */
export const stringOrEmpty = z.custom<unknown>((v) => phpEmpty(v) || typeof v === 'string');

/** "URL or empty". */
export const urlOrEmpty = z.custom<unknown>((v) => phpEmpty(v) || (typeof v === 'string' && isUrlOrEmpty(v)));

/** "time": a number or a string `strtotime` can parse (not the epoch itself). */
export const time = z.custom<unknown>((v) => isTime(v));

/** A registered post status. */
export const registeredStatus = z.custom<unknown>((v) => isRegisteredStatus(v));

/** An existing user id (`author`). */
export async function existingUser(value: unknown, ctx: Ctx): Promise<boolean> {
  const id = toId(value);
  return id !== undefined && (await ctx.options.userExists(id));
}

/** An existing event id. */
export async function existingEvent(value: unknown, ctx: Ctx): Promise<boolean> {
  const id = toId(value);
  return id !== undefined && (await ctx.services.posts.typeOf(id)) === 'event';
}

/**
 * An archive's `status`: callers without the kind's edit capability may
 * only ask for `publish`; others for any registered statuses (a list), or `any`.
 */
export function archiveStatusCheck(kind: PostKindInfo) {
  return (value: unknown, ctx: Ctx): boolean => {
    if (!has(ctx.principal, `edit_tribe_${kind.kind}`)) return value === 'publish' || value === 'any';
    const list = parseList(value);
    return !!list && list.length > 0 && list.every((s) => s === 'any' || isRegisteredStatus(s));
  };
}

/** The statuses an archive lists: the caller's default set, or the ones asked for. */
export function archiveStatuses(kind: PostKindInfo, value: unknown, ctx: Ctx): { statuses: string[]; shown: string } {
  const editor = has(ctx.principal, `edit_tribe_${kind.kind}`);
  const list = value === undefined ? [] : (parseList(value) ?? []).map(String);
  if (!list.length || (list.length === 1 && list[0] === 'any')) {
    return editor ? { statuses: [...ANY_STATUSES], shown: 'any' } : { statuses: ['publish'], shown: 'publish' };
  }
  const statuses = list.flatMap((s) => (s === 'any' ? [...ANY_STATUSES] : [s]));
  return { statuses: [...new Set(statuses)], shown: list.join(',') };
}

/** `password` of single reads: when sent it must not be empty. */
export const passwordArg = arg({ type: 'string', description: 'post.password' }, { check: nonEmptyString });
