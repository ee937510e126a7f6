/**
 * HTML character references the way WordPress handles them: which named entities count
 * as valid, how a text is "normalised" so that every `&` starts a valid reference
 * (`wp_kses_normalize_entities`), and the `_wp_specialchars` escaper built on it.
 */

/** WordPress' `$allowedentitynames` (the HTML 4 set plus `apos`). */
const ALLOWED_ENTITY_NAMES: ReadonlySet<string> = new Set(
  (
    'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg ' +
    'plusmn acute micro para middot cedil ordm raquo iquest Agrave Aacute Acirc Atilde Auml ' +
    'Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve ' +
    'Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave ' +
    'aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc ' +
    'iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml ' +
    'yacute thorn yuml quot amp lt gt apos OElig oelig Scaron scaron Yuml circ tilde ensp ' +
    'emsp thinsp zwnj zwj lrm rlm ndash mdash lsquo rsquo sbquo ldquo rdquo bdquo dagger ' +
    'Dagger permil lsaquo rsaquo euro fnof Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota ' +
    'Kappa Lambda Mu Nu Xi Omicron Pi Rho Sigma Tau Upsilon Phi Chi Psi Omega alpha beta gamma ' +
    'delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigmaf sigma tau ' +
    'upsilon phi chi psi omega thetasym upsih piv bull hellip prime Prime oline frasl weierp ' +
    'image real trade alefsym larr uarr rarr darr harr crarr lArr uArr rArr dArr hArr forall ' +
    'part exist empty nabla isin notin ni prod sum minus lowast radic prop infin ang and or ' +
    'cap cup int sim cong asymp ne equiv le ge sub sup nsub sube supe oplus otimes perp sdot ' +
    'lceil rceil lfloor rfloor lang rang loz spades clubs hearts diams sup1 sup2 sup3 frac14 ' +
    'frac12 frac34 there4'
  ).split(' '),
);

/** WordPress' `valid_unicode`: code points an XML/HTML document may contain. */
function isValidCodePoint(cp: number): boolean {
  return cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

/**
 * Makes every `&` start a valid character reference, as `wp_kses_normalize_entities`:
 * bare `&` → `&amp;`, unknown names (`&foo;`) → `&amp;foo;`, decimal references padded
 * to three digits (`&#58;` → `&#058;`), invalid code points disarmed (`&#0;` → `&amp;#0;`).
 */
export function normalizeEntities(text: string): string {
  if (!text.includes('&')) return text;
  // One pass deciding at each `&`; the same result as upstream's "disarm every `&`, then
  // re-arm the valid references" passes.
  return text.replace(
    /&(?:([A-Za-z]{2,8}[0-9]{0,2});|#(0*[0-9]{1,7});|#[Xx](0*[0-9A-Fa-f]{1,6});)?/g,
    (match, name?: string, digits?: string, hex?: string) => {
      if (name !== undefined) return ALLOWED_ENTITY_NAMES.has(name) ? match : `&amp;${name};`;
      if (digits !== undefined) {
        if (!isValidCodePoint(Number(digits))) return `&amp;#${digits};`;
        return `&#${digits.replace(/^0+/, '').padStart(3, '0')};`;
      }
      if (hex !== undefined) {
        return isValidCodePoint(parseInt(hex, 16)) ? `&#x${hex.replace(/^0+/, '')};` : `&amp;#x${hex};`;
      }
      return '&amp;';
    },
  );
}

/** Which quotes `escapeHtml` turns into references, as PHP's `ENT_NOQUOTES`/`ENT_COMPAT`/`ENT_QUOTES`. */
export type QuoteStyle = 'none' | 'double' | 'both';

/**
 * WordPress' `_wp_specialchars` without double encoding: entities normalised, then `<`,
 * `>` (and quotes per `quotes`: `"` → `&quot;`, `'` → `&#039;`) escaped.
 */
export function escapeHtml(text: string, quotes: QuoteStyle = 'both'): string {
  if (!/[&<>"']/.test(text)) return text;
  let s = normalizeEntities(text).replace(/</g, '&lt;').replace(/>/g, '&gt;');
  if (quotes !== 'none') s = s.replace(/"/g, '&quot;');
  if (quotes === 'both') s = s.replace(/'/g, '&#039;');
  return s;
}

/** The few named references whose value is ASCII; the others only matter as "not ASCII". */
const ASCII_NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * Decodes the references of an entity-normalised attribute value the way a browser would
 * (numeric references exactly; named ones outside `amp lt gt quot apos` become U+FFFD,
 * which is enough to decide what URL scheme a browser would see).
 */
export function decodeNormalizedEntities(text: string): string {
  return text.replace(/&(?:#(\d+)|#[xX]([0-9A-Fa-f]+)|([A-Za-z][A-Za-z0-9]*));/g, (m, dec?: string, hex?: string, name?: string) => {
    if (name !== undefined) return ASCII_NAMED[name] ?? (ALLOWED_ENTITY_NAMES.has(name) ? '\ufffd' : m);
    const cp = dec !== undefined ? Number(dec) : parseInt(hex ?? '', 16);
    return isValidCodePoint(cp) ? String.fromCodePoint(cp) : '\ufffd';
  });
}

/** Windows-1252 code points written as C1 references, and what WordPress maps them to. */
const WINDOWS_1252: Readonly<Record<string, string>> = {
  '&#128;': '&#8364;',
  '&#129;': '',
  '&#130;': '&#8218;',
  '&#131;': '&#402;',
  '&#132;': '&#8222;',
  '&#133;': '&#8230;',
  '&#134;': '&#8224;',
  '&#135;': '&#8225;',
  '&#136;': '&#710;',
  '&#137;': '&#8240;',
  '&#138;': '&#352;',
  '&#139;': '&#8249;',
  '&#140;': '&#338;',
  '&#141;': '',
  '&#142;': '&#381;',
  '&#143;': '',
  '&#144;': '',
  '&#145;': '&#8216;',
  '&#146;': '&#8217;',
  '&#147;': '&#8220;',
  '&#148;': '&#8221;',
  '&#149;': '&#8226;',
  '&#150;': '&#8211;',
  '&#151;': '&#8212;',
  '&#152;': '&#732;',
  '&#153;': '&#8482;',
  '&#154;': '&#353;',
  '&#155;': '&#8250;',
  '&#156;': '&#339;',
  '&#157;': '',
  '&#158;': '&#382;',
  '&#159;': '&#376;',
};

/** WordPress' `convert_invalid_entities` (run on saved content): `&#150;` → `&#8211;` etc. */
export function convertInvalidEntities(text: string): string {
  if (!text.includes('&#1')) return text;
  return text.replace(/&#1(?:2[89]|[3-5][0-9]);/g, (ref) => WINDOWS_1252[ref] ?? ref);
}
