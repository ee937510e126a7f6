/**
 * The PHP string functions whose exact behaviour the WordPress ports depend on, where
 * JavaScript's closest built-in differs.
 */

const PHP_TRIMMED: ReadonlySet<string> = new Set([' ', '\t', '\n', '\r', '\0', '\x0B']);

/** PHP's `trim()`: strips only ` \t\n\r\0\x0B` (`String.prototype.trim` also strips NBSP and other Unicode spaces). */
export function phpTrim(text: string): string {
  // A loop rather than `/^\s+|\s+$/`, whose second branch is quadratic on long inner runs of spaces.
  let start = 0;
  let end = text.length;
  while (start < end && PHP_TRIMMED.has(text.charAt(start))) start++;
  while (end > start && PHP_TRIMMED.has(text.charAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** PHP's `stripslashes()`: `\x` → `x`, `\\` → `\`, `\0` → NUL, a trailing lone `\` dropped. */
export function phpStripslashes(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\([\s\S]?)/g, (_m, c: string) => (c === '0' ? '\0' : c));
}

/** PHP's `addslashes()`: backslash before `'`, `"`, `\` and NUL. */
export function phpAddslashes(text: string): string {
  return text.replace(/['"\\\0]/g, (c) => (c === '\0' ? '\\0' : `\\${c}`));
}
