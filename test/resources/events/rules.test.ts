import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toPrincipal, type Principal } from '../../../src/auth/capabilities.js';
import { ApiError } from '../../../src/http/errors.js';
import type { EventRow } from '../../../src/resources/events/store.js';
import type { EventInput } from '../../../src/resources/events/args.js';
import type { Services } from '../../../src/resources/services.js';
import { ADMIN, NOW, sentIn, servicesOf, targetOf } from '../../helpers/direct.js';
import { DIALECTS } from '../../helpers/harness.js';
import { storeCalendar, type StoreCalendar } from '../../helpers/store.js';

// EventService.update (src/resources/events/service.ts) called directly: which parameters move
// the stored times, and that trashing through `status` needs the right to delete.

/** The clock of the updates: a day after the events were created. */
const LATER = new Date('2026-01-02T00:00:00Z');

/** A caller who may edit anyone's events, published ones too, but delete none. */
const EDIT_ONLY = toPrincipal({
  id: 40,
  capabilities: ['read', 'edit_tribe_events', 'edit_others_tribe_events', 'edit_published_tribe_events'],
}) as Principal;

/** The stored time columns of an event. */
const timesOf = (row: EventRow) => ({
  start_local: row.start_local,
  end_local: row.end_local,
  start_utc: row.start_utc,
  end_utc: row.end_utc,
  timezone: row.timezone,
  timezone_abbr: row.timezone_abbr,
  all_day: row.all_day,
});

// The event every test starts from: 10:00–12:00 summer time in Paris (UTC+2).
const PARIS_TIMES = {
  start_local: '2026-07-01 10:00:00',
  end_local: '2026-07-01 12:00:00',
  start_utc: '2026-07-01 08:00:00',
  end_utc: '2026-07-01 10:00:00',
  timezone: 'Europe/Paris',
  timezone_abbr: 'CEST',
  all_day: 0,
};

describe.each(DIALECTS)('EventService.update on $name', ({ url }) => {
  let t: StoreCalendar;
  let services: Services;
  let n = 0;

  /** A fresh published Paris event owned by the administrator. */
  const parisEvent = async (): Promise<EventRow> => {
    n++;
    const { row } = await services.events.create(
      { title: `Concert ${n}`, start_date: '2026-07-01 10:00:00', end_date: '2026-07-01 12:00:00', timezone: 'Europe/Paris' },
      ADMIN,
      NOW,
    );
    expect(timesOf(row)).toEqual(PARIS_TIMES);
    return row;
  };

  /** Updates `row` as the route does: the keys of `input` count as sent. */
  const update = (row: EventRow, input: EventInput, p: Principal | null = ADMIN) => services.events.update(targetOf(row), input, sentIn(input), p, LATER);

  /** The event as stored now. */
  const stored = async (row: EventRow) => (await services.events.get(row.id)) as EventRow;

  beforeAll(async () => {
    t = await storeCalendar(url);
    services = await servicesOf(t);
  }, 180_000);
  afterAll(() => t?.close());

  it('ignores a lone start_date or end_date, as upstream', async () => {
    const row = await parisEvent();
    const moved = await update(row, { start_date: '2026-09-01 08:00:00' });
    expect(timesOf(moved)).toEqual(PARIS_TIMES);
    expect(timesOf(await update(row, { end_date: '2026-09-01 20:00:00' }))).toEqual(PARIS_TIMES);
    // The rest of the update still applies.
    const renamed = await update(row, { start_date: '2026-09-01 08:00:00', title: 'Renamed' });
    expect([renamed.title, renamed.start_local]).toEqual(['Renamed', '2026-07-01 10:00:00']);
  });

  it('moves the event when both dates are sent, in its stored zone', async () => {
    const row = await parisEvent();
    const moved = await update(row, { start_date: '2026-12-24 18:00:00', end_date: '2026-12-24 23:30:00' });
    // Winter time: Paris is UTC+1, and the abbreviation follows the new start.
    expect(timesOf(moved)).toEqual({
      start_local: '2026-12-24 18:00:00',
      end_local: '2026-12-24 23:30:00',
      start_utc: '2026-12-24 17:00:00',
      end_utc: '2026-12-24 22:30:00',
      timezone: 'Europe/Paris',
      timezone_abbr: 'CET',
      all_day: 0,
    });
    expect(timesOf(await stored(row))).toEqual(timesOf(moved));
  });

  it('moves both dates into a zone sent with them', async () => {
    const row = await parisEvent();
    const moved = await update(row, { start_date: '2026-07-01 10:00:00', end_date: '2026-07-01 12:00:00', timezone: 'America/New_York' });
    expect(timesOf(moved)).toEqual({
      start_local: '2026-07-01 10:00:00',
      end_local: '2026-07-01 12:00:00',
      start_utc: '2026-07-01 14:00:00',
      end_utc: '2026-07-01 16:00:00',
      timezone: 'America/New_York',
      timezone_abbr: 'EDT',
      all_day: 0,
    });
  });

  it('changes only the zone and its abbreviation for a timezone sent alone', async () => {
    const row = await parisEvent();
    const rezoned = await update(row, { timezone: 'America/New_York' });
    // Local and UTC times are kept as stored, even though they no longer agree in the new zone.
    expect(timesOf(rezoned)).toEqual({ ...PARIS_TIMES, timezone: 'America/New_York', timezone_abbr: 'EDT' });
    expect(timesOf(await stored(row))).toEqual(timesOf(rezoned));
    // An empty zone falls back to the site's (UTC here), still keeping the times.
    expect(timesOf(await update(rezoned, { timezone: '' }))).toEqual({ ...PARIS_TIMES, timezone: 'UTC', timezone_abbr: 'UTC' });
  });

  it('refuses to trash through status for a caller who may only edit (403), changing nothing', async () => {
    const row = await parisEvent();
    // The caller may edit this very event: only the trash needs more.
    const edited = await update(row, { title: 'Edited by an editor-only caller' }, EDIT_ONLY);
    expect(edited.title).toBe('Edited by an editor-only caller');
    const refused = await update(edited, { status: 'trash', title: 'Never stored' }, EDIT_ONLY).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).toJSON()).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } });
    const after = await stored(row);
    expect([after.status, after.status_before_trash, after.slug, after.title]).toEqual(['publish', null, edited.slug, 'Edited by an editor-only caller']);
    // Anonymous callers are told to sign in (401) instead.
    const anonymous = await update(edited, { status: 'trash' }, null).catch((e: unknown) => e);
    expect((anonymous as ApiError).status).toBe(401);
  });

  it('trashes through status for a caller who may delete, keeping the status it had', async () => {
    const row = await parisEvent();
    expect(row.slug).toBe(`concert-${n}`);
    const trashed = await update(row, { status: 'trash' });
    expect([trashed.status, trashed.status_before_trash, trashed.slug]).toEqual(['trash', 'publish', `concert-${n}__trashed`]);
    // Leaving the trash restores status and slug.
    const restored = await update(trashed, { status: 'publish' });
    expect([restored.status, restored.status_before_trash, restored.slug]).toEqual(['publish', null, `concert-${n}`]);
  });
});
