import { z } from 'zod';
import { arg } from '../../args/arg.js';
import { parseList } from '../../args/checks.js';
import { isKind, type Kind } from '../../kinds.js';

/** Most changes one page of the feed reports. */
export const MAX_CHANGES_PER_PAGE = 100;

/** The arguments of `GET /changes`. */
export const changeFeedArgs = {
  sync_token: arg({ type: 'string', description: 'changes.sync_token' }),
  per_page: arg({ type: 'integer', description: 'changes.per_page', default: 50 }, { check: z.coerce.number().int().min(1).max(MAX_CHANGES_PER_PAGE) }),
  kinds: arg(
    { type: 'array', items: { type: 'string' }, description: 'changes.kinds' },
    {
      check: (value: unknown) => {
        const list = parseList(value);
        return list !== undefined && list.length > 0 && list.every(isKind);
      },
      sanitize: (value: unknown): Kind[] => (parseList(value) ?? []).filter(isKind),
    },
  ),
};
