/**
 * The element/attribute allow-lists of the KSES filters: a conservative subset of
 * WordPress' `$allowedposttags` for post content, and WordPress' `$allowedtags` for
 * titles.
 */

/** Lower-case element name → the lower-case attribute names it may keep. */
export type AllowedHtml = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * Attributes WordPress adds to every post element (`_wp_add_global_attributes`), minus
 * `style` (would need a CSS sanitiser) and `data-*` (scripts read them).
 */
const GLOBAL_ATTRIBUTES = [
  'aria-controls',
  'aria-current',
  'aria-describedby',
  'aria-details',
  'aria-expanded',
  'aria-hidden',
  'aria-label',
  'aria-labelledby',
  'aria-live',
  'class',
  'dir',
  'hidden',
  'id',
  'lang',
  'role',
  'title',
  'xml:lang',
];

const CELL = ['abbr', 'align', 'axis', 'bgcolor', 'char', 'charoff', 'colspan', 'headers', 'height', 'nowrap', 'rowspan', 'scope', 'valign', 'width'];
const ROW_GROUP = ['align', 'char', 'charoff', 'valign'];
const COLUMN = ['align', 'char', 'charoff', 'span', 'dir', 'valign', 'width'];

/**
 * Post-content elements. Left out of WordPress' list on purpose: form controls (`button`,
 * `textarea`, `fieldset`, `label`, `legend`), embedded media and objects (`audio`,
 * `video`, `track`, `object`), image maps (`map`, `area`), `font`, `menu` and `title`,
 * and the URL-list attributes `srcset`/`sizes`/`usemap`/`longdesc`.
 */
const POST_ELEMENTS: Record<string, readonly string[]> = {
  a: ['href', 'rel', 'rev', 'name', 'target'],
  abbr: [],
  acronym: [],
  address: [],
  article: [],
  aside: [],
  b: [],
  bdo: [],
  big: [],
  blockquote: ['cite'],
  br: [],
  caption: ['align'],
  cite: [],
  code: [],
  col: COLUMN,
  colgroup: COLUMN,
  dd: [],
  del: ['datetime'],
  details: ['align', 'open'],
  dfn: [],
  div: ['align'],
  dl: [],
  dt: [],
  em: [],
  figure: ['align'],
  figcaption: ['align'],
  footer: [],
  h1: ['align'],
  h2: ['align'],
  h3: ['align'],
  h4: ['align'],
  h5: ['align'],
  h6: ['align'],
  header: [],
  hgroup: [],
  hr: ['align', 'noshade', 'size', 'width'],
  i: [],
  img: ['alt', 'align', 'border', 'height', 'hspace', 'loading', 'vspace', 'src', 'width', 'decoding'],
  ins: ['datetime', 'cite'],
  kbd: [],
  li: ['align', 'value'],
  main: [],
  mark: [],
  nav: [],
  ol: ['start', 'type', 'reversed'],
  p: ['align'],
  pre: ['width'],
  q: ['cite'],
  rb: [],
  rp: [],
  rt: [],
  rtc: [],
  ruby: [],
  s: [],
  samp: [],
  section: [],
  small: [],
  span: [],
  strike: [],
  strong: [],
  sub: [],
  summary: [],
  sup: [],
  table: ['align', 'bgcolor', 'border', 'cellpadding', 'cellspacing', 'rules', 'summary', 'width'],
  tbody: ROW_GROUP,
  td: CELL,
  tfoot: ROW_GROUP,
  th: CELL,
  thead: ROW_GROUP,
  tr: ['align', 'bgcolor', 'char', 'charoff', 'valign'],
  tt: [],
  u: [],
  ul: ['type'],
  var: [],
};

/** WordPress' `$allowedtags`: what `wp_filter_kses` leaves in titles (no global attributes). */
const TITLE_ELEMENTS: Record<string, readonly string[]> = {
  a: ['href', 'title'],
  abbr: ['title'],
  acronym: ['title'],
  b: [],
  blockquote: ['cite'],
  cite: [],
  code: [],
  del: ['datetime'],
  em: [],
  i: [],
  q: ['cite'],
  s: [],
  strike: [],
  strong: [],
};

function toAllowedHtml(elements: Record<string, readonly string[]>, global: readonly string[]): AllowedHtml {
  return new Map(Object.entries(elements).map(([name, attrs]) => [name, new Set([...attrs, ...global])]));
}

/** Elements and attributes kept in post content/excerpts for callers without `unfiltered_html`. */
export const POST_ALLOWED_HTML: AllowedHtml = toAllowedHtml(POST_ELEMENTS, GLOBAL_ATTRIBUTES);

/** Elements and attributes kept in titles for callers without `unfiltered_html`. */
export const TITLE_ALLOWED_HTML: AllowedHtml = toAllowedHtml(TITLE_ELEMENTS, []);

/** Attributes holding a URL, whose scheme must be an allowed protocol (`wp_kses_uri_attributes`). */
export const URL_ATTRIBUTES: ReadonlySet<string> = new Set([
  'action',
  'archive',
  'background',
  'cite',
  'classid',
  'codebase',
  'data',
  'formaction',
  'href',
  'icon',
  'longdesc',
  'manifest',
  'poster',
  'profile',
  'src',
  'usemap',
  'xmlns',
]);
