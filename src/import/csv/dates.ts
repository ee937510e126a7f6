/**
 * Dates and times of a CSV file: dates in the file's format (`Y-m-d` unless `--date-format`
 * says `d/m/Y`, `m/d/Y`, `d.m.Y`…, PHP's letters as the original's importer takes them), times
 * as `HH:MM[:SS]` or with `am`/`pm`.
 */

/** A date format's reader: the `YYYY-MM-DD` of a text, or `undefined`. */
export type DateReader = (text: string) => string | undefined;

const PARTS: Record<string, { pattern: string; part: 'year' | 'month' | 'day' }> = {
  Y: { pattern: '(\\d{4})', part: 'year' },
  y: { pattern: '(\\d{2})', part: 'year' },
  m: { pattern: '(\\d{1,2})', part: 'month' },
  n: { pattern: '(\\d{1,2})', part: 'month' },
  d: { pattern: '(\\d{1,2})', part: 'day' },
  j: { pattern: '(\\d{1,2})', part: 'day' },
};

/** The reader of a format such as `Y-m-d` or `d/m/Y` (each of year, month and day once); a message when it is no such format. */
export function dateReader(format: string): DateReader | string {
  const order: ('year' | 'month' | 'day')[] = [];
  let pattern = '';
  let twoDigitYear = false;
  for (const c of format) {
    const p = PARTS[c];
    if (p) {
      order.push(p.part);
      pattern += p.pattern;
      if (c === 'y') twoDigitYear = true;
    } else if (/[A-Za-z]/.test(c)) return `${JSON.stringify(format)}: ${c} is not one of Y, y, m, n, d, j`;
    else pattern += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  if (order.length !== 3 || new Set(order).size !== 3) return `${JSON.stringify(format)} must name a year (Y), a month (m) and a day (d) once each`;
  const re = new RegExp(`^${pattern}$`);
  return (text) => {
    const m = re.exec(text.trim());
    if (!m) return undefined;
    const got = { year: 0, month: 0, day: 0 };
    order.forEach((part, i) => (got[part] = Number(m[i + 1])));
    if (twoDigitYear) got.year += got.year < 70 ? 2000 : 1900;
    const date = new Date(Date.UTC(got.year, got.month - 1, got.day));
    // A day that does not exist (31/02) is no date.
    if (date.getUTCMonth() !== got.month - 1 || date.getUTCDate() !== got.day) return undefined;
    return date.toISOString().slice(0, 10);
  };
}

/** `HH:MM:SS` of a time (`9:30`, `09:30:00`, `9:30 pm`, `9pm`), or `undefined`. */
export function readTime(text: string): string | undefined {
  const m = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([ap]\.?m\.?)?$/i.exec(text.trim());
  if (!m) return undefined;
  let hour = Number(m[1]);
  const [minute, second] = [Number(m[2] ?? 0), Number(m[3] ?? 0)];
  const meridiem = m[4]?.toLowerCase().replace(/\./g, '');
  if (meridiem) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (meridiem === 'pm' ? 12 : 0);
  }
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  return [hour, minute, second].map((n) => String(n).padStart(2, '0')).join(':');
}
