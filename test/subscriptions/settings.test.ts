import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createCalendar } from '../../src/index.js';
import { intervalMinutes } from '../../src/subscriptions/settings.js';

// The subscriptions option is checked when the calendar is created, naming what is wrong; a
// feed that fails is recorded as failed, counted, and told to onError.

describe('the subscriptions option', () => {
  const create = (subscriptions: unknown) => () => createCalendar({ db: ':memory:', subscriptions: subscriptions as never });

  it('refuses what it cannot run, naming the option', () => {
    expect(create({ feeds: [{ url: 'ftp://example.org/x.ics' }] })).toThrow(/subscriptions\.feeds\[0\]\.url/);
    expect(create({ feeds: [{ url: 'https://example.org/x.ics', every: '5 weeks' }] })).toThrow(/subscriptions\.feeds\[0\]\.every/);
    expect(create({ feeds: [{ url: 'https://example.org/a.ics' }, { url: 'https://example.org/a.ics' }] })).toThrow(/subscriptions\.feeds\[1\]\.name/);
    expect(create({ feeds: [{ url: 'https://example.org/x.ics', status: 'trash' }] })).toThrow(/subscriptions\.feeds\[0\]\.status/);
    expect(create({ allowHosts: ['not a host'] })).toThrow(/subscriptions\.allowHosts\[0\]/);
    expect(create({ leaseMs: 1000 })).toThrow(/subscriptions\.leaseMs/);
    expect(create({ feeds: [{ url: 'https://example.org/x.ics', evrey: '1h' }] })).toThrow(/did you mean `subscriptions\.feeds\[0\]\.every`/);
    expect(create({ feeds: [{ url: 'webcal://example.org/x.ics', every: '6h', categories: ['A'] }] })).not.toThrow();
  });

  it('reads intervals as minutes, hours or days', () => {
    expect([60, '90m', '6h', '1d', ' 2 H '].map(intervalMinutes)).toEqual([60, 90, 360, 1440, 120]);
    expect([0, -1, 1.5, '0m', 'soon', '1w'].map(intervalMinutes)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it('records a run that failed, counts it, and tells onError', async () => {
    const server = createServer((_req, res) => res.writeHead(500).end('down'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const errors: string[] = [];
    const calendar = createCalendar({
      db: ':memory:',
      autoMigrate: true,
      onError: (e) => errors.push(String(e)),
      subscriptions: { feeds: [{ name: 'down', url: `http://127.0.0.1:${port}/x.ics` }], allowHosts: [`127.0.0.1:${port}`], run: false },
    });
    try {
      const [status] = await calendar.subscriptions.run('down');
      expect(status).toMatchObject({ name: 'down', lastOutcome: 'failed', failures: 1, runs: 1, running: false });
      expect(status?.lastError).toContain('answered HTTP 500');
      expect(errors).toEqual([expect.stringContaining('subscription "down" failed')]);
      await expect(calendar.subscriptions.run('nothing')).rejects.toThrow(/no subscription named "nothing"/);
    } finally {
      await calendar.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
