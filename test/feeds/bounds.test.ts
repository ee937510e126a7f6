import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedFetchError, fetchFeed } from '../../src/feeds/fetch-feed.js';
import { parseFeed } from '../../src/feeds/parse.js';
import { FeedTimeout, sliceClock } from '../../src/feeds/slices.js';
import { FeedZones } from '../../src/feeds/tzid.js';
import { feedTarget, type FeedTarget } from './helpers.js';

// What a feed may not make the importer do: fetch from a private address it was not allowed,
// read past its byte limit, run past its time limit, read past maxEvents (and then trash what
// it did not read), or hold the event loop (it yields between slices). And the zones of TZIDs
// that are not IANA names.

/** A feed of `n` events, one a day from 2031-01-01. */
function feedOf(n: number, from = 0): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//Bounds//EN'];
  for (let i = from; i < from + n; i++) {
    const day = new Date(Date.UTC(2031, 0, 1 + i)).toISOString().slice(0, 10).replace(/-/g, '');
    lines.push('BEGIN:VEVENT', `UID:e${i}@bounds.example`, `DTSTART:${day}T100000Z`, `DTEND:${day}T110000Z`, `SUMMARY:Event ${i}`, 'END:VEVENT');
  }
  return [...lines, 'END:VCALENDAR', ''].join('\r\n');
}

describe('feed bounds', () => {
  let port = 0;
  const server = createServer((req, res) => {
    if (req.url === '/big.ics') res.writeHead(200, { 'content-type': 'text/calendar' }).end(feedOf(50));
    else if (req.url === '/redirect') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
    else res.writeHead(200, { 'content-type': 'text/calendar' }).end(feedOf(2));
  });
  let t: FeedTarget;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    t = await feedTarget(':memory:');
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => server.close(resolve));
  });
  const limits = { allowHosts: [], maxBytes: 1_000_000, timeoutMs: 5000 };

  it('fetches only what the outbound policy allows, within the byte limit', async () => {
    await expect(fetchFeed(`http://127.0.0.1:${port}/small.ics`, limits)).rejects.toThrow(/allowHosts/);
    const allowed = { ...limits, allowHosts: [`127.0.0.1:${port}`] };
    await expect(fetchFeed(`http://127.0.0.1:${port}/small.ics`, allowed)).resolves.toMatchObject({ status: 200 });
    await expect(fetchFeed(`http://127.0.0.1:${port}/redirect`, allowed)).rejects.toThrow(FeedFetchError);
    await expect(fetchFeed(`http://127.0.0.1:${port}/big.ics`, { ...allowed, maxBytes: 2000 })).rejects.toThrow(/larger than 2000 bytes/);
    await expect(fetchFeed('file:///etc/passwd', allowed)).rejects.toThrow(FeedFetchError);
  });

  it('gives the event loop a turn between slices, and stops at its time limit', async () => {
    let turns = 0;
    const tick = () => {
      turns++;
      if (turns < 1000) setImmediate(tick);
    };
    setImmediate(tick);
    // A slice that has run its time at once: every component waits for a turn of the loop.
    const late = { sliceStart: Number.NEGATIVE_INFINITY, deadline: Number.POSITIVE_INFINITY };
    const parsing = parseFeed(feedOf(20), { maxEvents: 100, clock: late });
    const turnsBefore = turns;
    await parsing;
    expect(turns).toBeGreaterThan(turnsBefore);
    await expect(
      parseFeed(feedOf(20), { maxEvents: 100, clock: { sliceStart: Number.NEGATIVE_INFINITY, deadline: Number.NEGATIVE_INFINITY } }),
    ).rejects.toThrow(FeedTimeout);
  });

  it('reads at most maxEvents, and then trashes nothing', async () => {
    expect((await t.importText('cut.ics', feedOf(3))).report).toMatchObject({ created: 3 });
    const cut = await t.importText('cut.ics', feedOf(3, 1), { maxEvents: 2 });
    expect(cut.report).toMatchObject({ created: 0, unchanged: 2, trashed: 0 });
    expect(cut.report?.warnings[0]).toBe('1 events past the first 2 (maxEvents) were not read');
    // Read whole, the event gone from it goes to the trash.
    expect((await t.importText('cut.ics', feedOf(3, 1))).report).toMatchObject({ created: 1, trashed: 1 });
  });

  it('maps Windows and path TZIDs to IANA zones, and a VTIMEZONE no zone matches to a fixed offset with a warning', async () => {
    const odd = (
      await parseFeed(
        [
          'BEGIN:VCALENDAR',
          'BEGIN:VTIMEZONE',
          'TZID:Nowhere Standard Time',
          'BEGIN:STANDARD',
          'DTSTART:16010101T030000',
          'TZOFFSETFROM:+0230',
          'TZOFFSETTO:+0130',
          'RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=8',
          'END:STANDARD',
          'BEGIN:DAYLIGHT',
          'DTSTART:16010101T020000',
          'TZOFFSETFROM:+0130',
          'TZOFFSETTO:+0230',
          'RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=2',
          'END:DAYLIGHT',
          'END:VTIMEZONE',
          'END:VCALENDAR',
        ].join('\r\n'),
        { maxEvents: 10, clock: sliceClock(10_000) },
      )
    ).timezones;
    const zones = new FeedZones(odd, sliceClock(10_000), 2031);
    expect(await zones.resolve('W. Europe Standard Time')).toEqual({ zone: 'Europe/Berlin' });
    expect(await zones.resolve('Eastern Standard Time')).toEqual({ zone: 'America/New_York' });
    expect(await zones.resolve('/mozilla.org/20050126_1/Europe/Paris')).toEqual({ zone: 'Europe/Paris' });
    expect(await zones.resolve('Nowhere Standard Time')).toMatchObject({ zone: 'UTC+1:30', warning: expect.stringContaining('matches no IANA zone') });
    expect(await zones.resolve('Atlantis Time')).toMatchObject({ zone: 'UTC', warning: expect.stringContaining('unknown') });
  });
});
