/** Removes `<script>`/`<style>` elements with their content, in one pass (no backtracking blow-up). */
function dropScriptAndStyle(text: string): string {
  const lower = text.toLowerCase();
  const noCloser = new Set<string>();
  let out = '';
  let from = 0;
  const opener = /<(script|style)\b[^>]*>/gi;
  for (let m = opener.exec(text); m; m = opener.exec(text)) {
    const [, tag = ''] = m;
    const name = tag.toLowerCase();
    if (noCloser.has(name)) continue;
    const close = lower.indexOf(`</${name}`, opener.lastIndex);
    if (close < 0) {
      // Without a closing tag the element stays; strip_tags removes the bare tag later.
      noCloser.add(name);
      continue;
    }
    const end = lower.indexOf('>', close);
    out += text.slice(from, m.index);
    from = end < 0 ? text.length : end + 1;
    opener.lastIndex = from;
  }
  return out + text.slice(from);
}

/** Removes `<!-- … -->` comments; an unclosed one runs to the end, as in PHP's `strip_tags`. */
function dropComments(text: string): string {
  let out = '';
  let from = 0;
  for (let open = text.indexOf('<!--'); open >= 0; open = text.indexOf('<!--', from)) {
    out += text.slice(from, open);
    const close = text.indexOf('-->', open + 4);
    if (close < 0) return out;
    from = close + 3;
  }
  return out + text.slice(from);
}

/** Removes HTML tags (and the content of `script`/`style` elements), as PHP's `wp_strip_all_tags`. */
export function stripTags(text: string): string {
  return dropComments(dropScriptAndStyle(text)).replace(/<\/?[a-z!?][^<>]*>?/gi, '');
}

/** Escapes `&`, `<`, `>` without double-encoding entities (WordPress' `_wp_specialchars`). */
export function escapeSpecialChars(text: string): string {
  return text
    .replace(/&(?!(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/**
 * One line of plain text, as WordPress' `sanitize_text_field`: tags stripped, line
 * breaks and runs of white space folded, percent-encoded octets removed, trimmed.
 */
export function sanitizeTextField(text: string): string {
  let s = text.includes('<') ? stripTags(text) : text;
  s = s.replace(/[\r\n\t ]+/g, ' ');
  s = s.replace(/%[a-f0-9]{2}/gi, '');
  return s.replace(/ +/g, ' ').trim();
}

/** A term name as WordPress stores it (`A & B <b>x</b>` → `A &amp; B x`). */
export function sanitizeTermName(name: string): string {
  return escapeSpecialChars(sanitizeTextField(name));
}
