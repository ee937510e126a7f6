// calendar.on('change') (issue 32): fed by the change log, so that every instance sharing a
// database hears every change, including those another instance made; the writing instance
// hears its own at once. On SQLite the two calendars share a file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalendar, type Calendar, type ChangeEvent } from '../../src/index.js';
import { DIALECTS, requester, type TestCalendar } from '../helpers/harness.js';

/** A listener's changes, and a way to wait for the one that matches. */
function recorder() {
  const heard: ChangeEvent[] = [];
  const waiting: { match: (e: ChangeEvent) => boolean; resolve: (e: ChangeEvent) => void }[] = [];
  const listener = (event: ChangeEvent) => {
    heard.push(event);
    for (const w of [...waiting]) {
      if (!w.match(event)) continue;
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve(event);
    }
  };
  const next = (match: (e: ChangeEvent) => boolean) =>
    new Promise<ChangeEvent>((resolve) => {
      const found = heard.find(match);
      if (found) resolve(found);
      else waiting.push({ match, resolve });
    });
  return { heard, listener, next };
}

describe.each(DIALECTS)('change events on $name', ({ name, url }) => {
  let dir: string | undefined;
  let a: Calendar;
  let b: Calendar;
  let writeOnB: TestCalendar['request'];
  const errors: unknown[] = [];

  beforeAll(async () => {
    dir = name === 'sqlite' ? mkdtempSync(join(tmpdir(), 'calendar-changes-')) : undefined;
    const db = dir ? join(dir, 'shared.sqlite') : url;
    const tablePrefix = `t${randomBytes(4).toString('hex')}_`;
    const options = { db, tablePrefix, baseUrl: 'http://example.org', changes: { pollMs: 20 }, onError: (e: unknown) => errors.push(e) };
    a = createCalendar(options);
    b = createCalendar(options);
    await a.migrate();
    writeOnB = requester(b);
  }, 120_000);
  afterAll(async () => {
    if (!dir) await a?.uninstall().catch(() => undefined);
    await a?.close();
    await b?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('hears a change another instance made, and the writing instance hears its own; from when it subscribed', async () => {
    // A change made before anyone listens is not heard.
    const early = await writeOnB('POST', '/tags', { json: { name: 'before-listening' }, as: 'admin' });
    expect(early.status).toBe(201);
    const onA = recorder();
    const onB = recorder();
    const offA = a.on('change', onA.listener);
    const offB = b.on('change', onB.listener);
    await Promise.all([offA.ready, offB.ready]);
    const created = await writeOnB('POST', '/events', {
      json: { title: 'Heard', start_date: '2027-05-01 20:00:00', end_date: '2027-05-01 22:00:00', status: 'publish' },
      as: 'admin',
    });
    expect(created.status).toBe(201);
    const heardOnA = await onA.next((e) => e.kind === 'event' && e.id === created.body.id);
    expect(heardOnA).toMatchObject({ kind: 'event', id: created.body.id, change: 'created' });
    expect(heardOnA.at).toBeInstanceOf(Date);
    expect(typeof heardOnA.seq).toBe('number');
    // The writing instance was kicked by its own commit.
    await onB.next((e) => e.id === created.body.id);
    const trashed = await writeOnB('DELETE', `/events/${created.body.id}`, { as: 'admin' });
    expect(trashed.status).toBe(200);
    await onA.next((e) => e.id === created.body.id && e.change === 'updated');
    // In log order, each once; nothing from before the listener subscribed.
    expect(onA.heard.map((e) => [e.kind, e.id, e.change])).toEqual([
      ['event', created.body.id, 'created'],
      ['event', created.body.id, 'updated'],
    ]);
    expect(onA.heard.some((e) => e.id === early.body.id && e.kind === 'tag')).toBe(false);
    offA();
    offB();
    expect(errors).toEqual([]);
  });

  it("reports a listener's failure to onError and goes on with the next change", async () => {
    const listening = recorder();
    const failing = a.on('change', () => {
      throw new Error('listener failed');
    });
    const off = a.on('change', listening.listener);
    await Promise.all([failing.ready, off.ready]);
    const tag = await writeOnB('POST', '/tags', { json: { name: 'after-failure' }, as: 'admin' });
    await listening.next((e) => e.kind === 'tag' && e.id === tag.body.id);
    expect(errors.map(String)).toContain('Error: listener failed');
    failing();
    off();
  });

  it('takes only a function, and only the change event', () => {
    expect(() => a.on('change', 'nope' as unknown as () => void)).toThrow(/takes a function/);
    expect(() => a.on('update' as 'change', () => undefined)).toThrow(/takes 'change'/);
  });
});
