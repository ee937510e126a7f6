// Host fields in webhook deliveries (issue 32): a delivery shows the item as the public sees it,
// its declared fields included, on every database; a password-protected event's values never go out.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { field } from '../../src/fields/declare.js';
import type { WebhookOptions } from '../../src/index.js';
import { DIALECTS, USERS } from '../helpers/harness.js';
import { storeCalendar } from '../helpers/store.js';
import { receiver, until } from '../webhooks/fixtures/receiver.js';

const SECRET = 'whsec_' + Buffer.from('a test secret of enough bytes').toString('base64');
const FIELDS = {
  events: { capacity: field({ type: z.number().int().min(0), filterable: true }) },
  venues: { wheelchair_access: field({ type: z.boolean() }) },
};

const dir = mkdtempSync(join(tmpdir(), 'calendar-field-hooks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const STORES = DIALECTS.map((d) => (d.name === 'sqlite' ? { ...d, url: () => join(dir, 'fields.sqlite') } : { ...d, url: () => d.url }));

const hooks = (url: string, host: string): WebhookOptions => ({
  endpoints: [{ url, secret: SECRET }],
  allowHosts: [host],
  pollMs: 25,
  retryMs: 40,
  timeoutMs: 500,
  leaseMs: 1600,
});

describe.each(STORES)('host fields in webhooks on $name', ({ url }) => {
  it('delivers an event and a venue with their field values, and none of a password-protected event', async () => {
    const r = await receiver();
    const t = await storeCalendar(url(), { webhooks: hooks(r.url, r.host), fields: FIELDS });
    try {
      await until(async () => (await t.rows('webhook_cursors')) > 0);
      const venue = await t.calendar.call('POST', '/venues', { params: { venue: 'Field hall', wheelchair_access: true }, user: USERS.admin });
      expect(venue.status).toBe(201);
      const event = await t.calendar.call('POST', '/events', {
        params: { title: 'Field night', start_date: '2031-05-01 20:00:00', end_date: '2031-05-01 22:00:00', status: 'publish', capacity: 120 },
        user: USERS.admin,
      });
      expect(event.status).toBe(201);
      const locked = await t.calendar.call('POST', '/events', {
        params: { title: 'Locked night', start_date: '2031-05-02 20:00:00', end_date: '2031-05-02 22:00:00', status: 'publish', capacity: 7 },
        user: USERS.admin,
      });
      expect(locked.status).toBe(201);
      await until(() => r.accepted().length === 3);
      const [v, e] = r.accepted();
      expect(v).toMatchObject({ kind: 'venue', change: 'created', item: { venue: 'Field hall', wheelchair_access: true } });
      expect(e).toMatchObject({ kind: 'event', change: 'created', item: { title: 'Field night', capacity: 120 } });
      // The API takes no password on writes (upstream's neither): set as WordPress' editor would, then changed through the API.
      const id = (locked.body as { id: number }).id;
      await (await t.calendar.services()).posts.update(id, { password: 'open sesame' });
      expect((await t.calendar.call('POST', `/events/${id}`, { params: { capacity: 8 }, user: USERS.admin })).status).toBe(200);
      await until(() => r.accepted().length === 4);
      // A public endpoint is told the item left what it may read (as the change feed does), and sees none of its values.
      expect(r.accepted()[3]).toMatchObject({ kind: 'event', change: 'deleted', item_id: id, item: null });
      expect(JSON.stringify(r.accepted()[3])).not.toContain('capacity');
    } finally {
      await r.close();
      await t.close();
    }
  });
});
