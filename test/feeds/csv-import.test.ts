import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importUser } from '../../src/feeds/apply.js';
import { importCsv, type CsvImportOptions } from '../../src/import/csv/import-csv.js';
import { DIALECTS } from '../helpers/harness.js';
import { feedTarget, type FeedTarget } from './helpers.js';

// CSV files of events with the original CSV importer's column keys (and other headers mapped to
// them), a BOM, semicolons and day-first dates, imported on each database; again, unchanged;
// edited, updated, a row gone trashed.

/** A file as a spreadsheet exports it: a BOM, semicolons, CRLF. */
const file = (rows: string[][]) => `\uFEFF${rows.map((r) => r.map((c) => (/[;"\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(';')).join('\r\n')}\r\n`;

const HEADER = [
  'Event Name',
  'event_start_date',
  'event_start_time',
  'event_end_date',
  'event_end_time',
  'event_timezone',
  'event_all_day',
  'event_venue_name',
  'event_organizer_name',
  'event_cost',
  'event_currency_symbol',
  'event_currency_position',
  'event_category',
  'event_tags',
  'event_website',
  'event_description',
  'Notes',
];

const V1 = [
  HEADER,
  [
    'Concert; open air',
    '05/06/2031',
    '8:00 pm',
    '05/06/2031',
    '10:30 pm',
    'Europe/Paris',
    '',
    'Parc',
    'Ville de Lyon',
    '15',
    '€',
    'suffix',
    'Music, Outdoor',
    'summer',
    'https://example.org/concert',
    'Bring a <b>chair</b>.<script>x()</script>',
    'internal',
  ],
  ['Flea market', '14/06/2031', '', '15/06/2031', '', '', 'yes', 'Parc', '', '', '', '', 'Market', '', '', '', ''],
];

describe.each(DIALECTS)('CSV import on $name', ({ url }) => {
  let t: FeedTarget;
  beforeAll(async () => {
    t = await feedTarget(url);
  });
  afterAll(() => t?.close());

  const run = (rows: string[][], o: Partial<CsvImportOptions> = {}) =>
    importCsv({
      file: '/data/events.csv',
      text: file(rows),
      store: t.store,
      call: t.calendar.call,
      user: importUser(0),
      siteZone: 'UTC',
      mapping: new Map([['Event Name', 'event_name']]),
      dateFormat: 'd/m/Y',
      ...o,
    });
  const events = async () =>
    (await t.request('GET', '/events', { query: { start_date: '2031-01-01', end_date: '2031-12-31' } })).body.events as Record<string, unknown>[];

  it('imports rows as events, again changes nothing, and follows an edited file', async () => {
    const first = await run(V1);
    expect(first).toMatchObject({ created: 2, skipped: [] });
    expect(first.warnings).toContain('columns not read: "Notes"');
    const [concert, market] = await events();
    expect(concert).toMatchObject({
      title: 'Concert; open air',
      start_date: '2031-06-05 20:00:00',
      end_date: '2031-06-05 22:30:00',
      timezone: 'Europe/Paris',
      utc_start_date: '2031-06-05 18:00:00',
      all_day: false,
      website: 'https://example.org/concert',
      cost: '15€',
    });
    expect(concert?.description).toContain('<b>chair</b>');
    expect(concert?.description).not.toContain('<script>');
    expect((concert?.categories as { name: string }[]).map((c) => c.name).sort()).toEqual(['Music', 'Outdoor']);
    expect((concert?.tags as { name: string }[]).map((c) => c.name)).toEqual(['summer']);
    expect(concert?.organizer).toMatchObject([{ organizer: 'Ville de Lyon' }]);
    expect(market).toMatchObject({ title: 'Flea market', all_day: true, start_date: '2031-06-14 00:00:00', end_date: '2031-06-15 23:59:59' });
    expect((market?.venue as { id: number }).id).toBe((concert?.venue as { id: number }).id);

    expect(await run(V1)).toMatchObject({ created: 0, updated: 0, unchanged: 2, trashed: 0 });

    const v2 = [HEADER, V1[1]?.map((c) => (c === '10:30 pm' ? '11:00 pm' : c)) ?? []];
    expect(await run(v2)).toMatchObject({ created: 0, updated: 1, trashed: 1 });
    expect((await events()).map((e) => `${e.title} ${String(e.end_date)}`)).toEqual(['Concert; open air 2031-06-05 23:00:00']);
  });

  it('reports rows it cannot read, and refuses a file without the needed columns', async () => {
    const report = await run([HEADER, ['No date', '31/02/2031', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '']], { file: '/data/bad.csv' });
    expect(report.skipped).toEqual([{ uid: 'line 2', reason: 'event_start_date "31/02/2031" is not a date in the file\'s format (--date-format)' }]);
    await expect(
      run(
        [
          ['Title', 'When'],
          ['x', 'y'],
        ],
        { file: '/data/other.csv', mapping: new Map() },
      ),
    ).rejects.toThrow(/no event_name or event_start_date column/);
    await expect(run(V1, { dateFormat: 'd/m' })).rejects.toThrow(/--date-format/);
    // An image the policy refuses: the event without it.
    const image = await run(
      [
        ['event_name', 'event_start_date', 'featured_image'],
        ['Poster talk', '01/07/2031', 'http://127.0.0.1:9/poster.png'],
      ],
      { file: '/data/image.csv', mapping: new Map() },
    );
    expect(image).toMatchObject({ created: 1, skipped: [] });
    expect(image.warnings).toContain('Poster talk: image "http://127.0.0.1:9/poster.png" could not be side-loaded: left out');
  });
});
