import { z } from 'zod';
import { arg } from '../../args/arg.js';
import { parseList } from '../../args/checks.js';
import type { AnyKind } from '../../kinds.js';
import type { RequestContext } from '../../http/context.js';

/** Most changes one page of the feed reports. */
export const MAX_CHANGES_PER_PAGE = 100;

/** The arguments of `GET /changes`. */
export const changeFeedArgs = {
  sync_token: arg({ type: 'string', description: 'changes.sync_token' }),
  per_page: arg({ type: 'integer', description: 'changes.per_page', default: 50 }, { check: z.coerce.number().int().min(1).max(MAX_CHANGES_PER_PAGE) }),
  kinds: arg(
    { type: 'array', items: { type: 'string' }, description: 'changes.kinds' },
    {
      // The built-in kinds and the host's (`kinds` option).
      check: (value: unknown, ctx: RequestContext) => {
        const list = parseList(value);
        return list !== undefined && list.length > 0 && list.every((k) => typeof k === 'string' && ctx.options.kinds.names.includes(k));
      },
      sanitize: (value: unknown): AnyKind[] => (parseList(value) ?? []).filter((k) => typeof k === 'string'),
    },
  ),
};
