/**
 * The columns of a CSV file of events: the original's CSV importer's field keys, a header
 * naming one of them (in any case), or another header mapped to one (`--map 'Header=key'`).
 */

/** The keys of the original's CSV importer that this import reads. */
export const CSV_KEYS = [
  'event_name',
  'event_description',
  'event_excerpt',
  'event_start_date',
  'event_start_time',
  'event_end_date',
  'event_end_time',
  'event_timezone',
  'event_all_day',
  'event_hide',
  'event_sticky',
  'feature_event',
  'event_venue_name',
  'event_organizer_name',
  'event_show_map_link',
  'event_show_map',
  'event_cost',
  'event_currency_code',
  'event_currency_symbol',
  'event_currency_position',
  'event_category',
  'event_tags',
  'event_website',
  'featured_image',
] as const;

/** One of {@link CSV_KEYS}. */
export type CsvKey = (typeof CSV_KEYS)[number];

const KEYS = new Set<string>(CSV_KEYS);

/** Whether a text is one of {@link CSV_KEYS}. */
export const isCsvKey = (key: string): key is CsvKey => KEYS.has(key);

/** One `--map 'Header=key'`, checked. */
export function parseMapping(entry: string): [string, CsvKey] | string {
  const at = entry.lastIndexOf('=');
  const header = entry.slice(0, at).trim();
  const key = entry.slice(at + 1).trim();
  if (at < 1 || !header) return `${JSON.stringify(entry)} is not Header=key`;
  if (!isCsvKey(key)) return `${JSON.stringify(key)} is not a column key (${CSV_KEYS.join(', ')})`;
  return [header, key];
}

/** The key of each column of a header row (`undefined`: a column not read), and the headers not read. */
export function columnKeys(header: readonly string[], mapping: ReadonlyMap<string, CsvKey>): { keys: (CsvKey | undefined)[]; unread: string[] } {
  const lower = new Map([...mapping].map(([h, k]) => [h.trim().toLowerCase(), k]));
  const unread: string[] = [];
  const keys = header.map((raw) => {
    const name = raw.trim();
    const key = mapping.get(name) ?? lower.get(name.toLowerCase()) ?? (isCsvKey(name.toLowerCase()) ? (name.toLowerCase() as CsvKey) : undefined);
    if (!key && name) unread.push(name);
    return key;
  });
  return { keys, unread };
}

/** The delimiter of a CSV text: a semicolon when its first line has more of them than commas (outside quotes), else a comma. */
export function detectDelimiter(text: string): ',' | ';' {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (let i = 0; i < text.length && i < 64 * 1024; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && c === ',') commas++;
    else if (!quoted && c === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}
