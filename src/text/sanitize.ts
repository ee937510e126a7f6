/** Removes HTML tags (and the content of `script`/`style` elements), as PHP's `wp_strip_all_tags`. */
export function stripTags(text: string): string {
  return text
    .replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, '')
    .replace(/<\/?[a-z!?][^>]*>?/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '');
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
