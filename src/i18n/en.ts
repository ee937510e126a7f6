/**
 * English descriptions of every argument: the reference dictionary. Other locales
 * translate these keys; a missing key falls back to English.
 */
export const en = {
  'archive.page': 'The archive page to return',
  'archive.per_page': 'The number of items to return per page',
  'terms.search': 'Limit results to those matching a string',
  'terms.exclude': 'Ensure result set excludes specific IDs',
  'terms.include': 'Limit result set to specific IDs',
  'terms.order': 'Order sort attribute ascending or descending',
  'terms.orderby': 'Sort collection by term attribute',
  'terms.hide_empty': 'Whether to hide terms not assigned to any posts',
  'terms.parent': 'Limit result set to terms assigned to a specific parent',
  'terms.post': 'Limit result set to terms assigned to a specific post',
  'terms.event': 'Limit result set to terms assigned to a specific event (an alias of the "post" parameter)',
  'terms.slug': 'Limit result set to terms with a specific slug',
  'category.id': 'The event category term ID',
  'category.name': 'The event category name',
  'category.description': 'The event category description',
  'category.slug': 'An alphanumeric identifier for the event category that is unique for its type',
  'category.parent': 'The parent event category term ID',
  'tag.id': 'The event tag term ID',
  'tag.name': 'The event tag name',
  'tag.description': 'The event tag description',
  'tag.slug': 'An alphanumeric identifier for the event tag that is unique for its type',
} as const;

/** A key of the description dictionaries. */
export type DescriptionKey = keyof typeof en;

/** A full or partial dictionary of descriptions for one locale. */
export type Dictionary = Partial<Record<DescriptionKey, string>>;
