import { z } from 'zod';
import { arg } from '../../args/arg.js';
import { parseList } from '../../args/checks.js';
import type { ChangeKind } from '../../store/database.js';

/** The kinds of item the feed reports, as `kinds` names them. */
export const CHANGE_KINDS: readonly ChangeKind[] = ['event', 'venue', 'organizer', 'category', 'tag'];

/** Most changes one page of the feed reports. */
export const MAX_CHANGES_PER_PAGE = 100;

const isKind = (v: unknown): v is ChangeKind => typeof v === 'string' && (CHANGE_KINDS as readonly string[]).includes(v);

/** The arguments of `GET /changes`. */
export const changeFeedArgs = {
  sync_token: arg({ type: 'string', description: 'changes.sync_token' }),
  per_page: arg(
    { type: 'integer', description: 'changes.per_page', default: 50 },
    { check: z.coerce.number().int().min(1).max(MAX_CHANGES_PER_PAGE) },
  ),
  kinds: arg(
    { type: 'array', items: { type: 'string' }, description: 'changes.kinds' },
    {
      check: (value: unknown) => {
        const list = parseList(value);
        return list !== undefined && list.length > 0 && list.every(isKind);
      },
      sanitize: (value: unknown): ChangeKind[] => (parseList(value) ?? []).filter(isKind),
    },
  ),
};
