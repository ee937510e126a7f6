/** Words of a WordPress search: all `include` words must occur, no `exclude` word may. */
export interface SearchWords {
  include: string[];
  exclude: string[];
}

const STOPWORDS = new Set('about an are as at be by com for from how in is it of on or that the this to was what when where who will with www'.split(' '));

/** WordPress' split of a search into terms: quoted phrases (to the end when unclosed), else runs between tabs, spaces, quotes, commas and `+`. */
const WORD = /".*?(?:"|$)|(?:(?<=[\t ",+])|^)[^\t ",+]+/g;

/** More kept words than this and WordPress searches for the whole text as one phrase. */
const MOST_WORDS = 9;

/**
 * WordPress' search terms (`WP_Query::parse_search`): quoted phrases whole, stop words and
 * lone letters dropped, `-word` excluded; nothing left, or more than nine words, and the
 * whole text is one phrase. So an events search never has more than nine terms, however long.
 */
export function searchWords(search: string): SearchWords {
  const kept: string[] = [];
  for (const [raw] of search.matchAll(WORD)) {
    const word = /^".+"$/.test(raw) ? raw.replace(/^["']+|["']+$/g, '') : raw.replace(/^["' ]+|["' ]+$/g, '');
    if (!word || /^[a-z-]$/i.test(word) || STOPWORDS.has(word.toLowerCase())) continue;
    kept.push(word);
    // A tenth word makes it one phrase: the rest need not be cut.
    if (kept.length > MOST_WORDS) break;
  }
  const list = kept.length && kept.length <= MOST_WORDS ? kept : [search.trim()];
  return {
    include: list.filter((w) => !w.startsWith('-') || w.length === 1),
    exclude: list.filter((w) => w.startsWith('-') && w.length > 1).map((w) => w.slice(1)),
  };
}

/** A fragment of a venue or organizer search: a run of letters, digits and `-`. */
const FRAGMENT = /[\p{L}\p{N}-]+/gu;

/** The fragments every field must contain in a venue or organizer search: the text cut at each character that is not a letter, digit or `-`. */
export function searchFragments(search: string): string[] {
  return search.match(FRAGMENT) ?? [];
}

/** Whether a venue or organizer search has more than `most` fragments, counting no further than that. */
export function moreFragmentsThan(search: string, most: number): boolean {
  let n = 0;
  for (const _ of search.matchAll(FRAGMENT)) if (++n > most) return true;
  return false;
}
