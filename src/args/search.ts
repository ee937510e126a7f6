/**
 * The checks of `search` parameters: bounded in pieces before any query, since every piece adds
 * conditions to it (docs/security.md, "Limits"). What a piece is comes from the search itself
 * (`text/search-terms.ts`).
 */
import { moreFragmentsThan, searchWords } from '../text/search-terms.js';
import { nonEmptyString } from './checks.js';
import type { ParamFailure } from './failure.js';

/**
 * The first-pass check of a `search` parameter: a non-empty string that `tooMany` does not
 * find cut into more than `limits.searchTerms` pieces, since every piece adds conditions to
 * the query (docs/security.md, "Limits").
 */
function searchCheck(tooMany: (search: string, most: number) => boolean) {
  return (value: unknown, ctx: { options: { limits: { searchTerms: number } } }): boolean | ParamFailure => {
    const parsed = nonEmptyString.safeParse(value);
    if (!parsed.success) return false;
    const most = ctx.options.limits.searchTerms;
    if (!tooMany(parsed.data, most)) return true;
    const message = `search has more than ${most} words.`;
    return { message, detail: { code: 'rest_param_too_large', message, data: { param: 'search' } } };
  };
}

/** The check of the events archive's `search`: its terms as WordPress searches them (never more than nine). */
export const eventSearchCheck = searchCheck((search, most) => {
  const { include, exclude } = searchWords(search);
  return include.length + exclude.length > most;
});

/** The check of the venue and organizer archives' `search`: its fragments. */
export const linkedSearchCheck = searchCheck(moreFragmentsThan);
