import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { ImageFetchError } from '../../src/images/errors.js';
import { guardedLookup, type Resolver } from '../../src/images/guarded-lookup.js';

// A fake resolver stands in for DNS; nothing is resolved or connected for real.
type Outcome = { err: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number };

function call(lookup: LookupFunction, options: { all?: boolean; family?: number | 'IPv4' | 'IPv6' }): Promise<Outcome> {
  return new Promise((resolve) => {
    lookup('images.example', options, (err, address, family) => resolve({ err, address, family }));
  });
}

const fixed =
  (...addresses: LookupAddress[]): Resolver =>
  async () =>
    addresses;

const PUBLIC_V4 = { address: '93.184.216.34', family: 4 };
const PUBLIC_V6 = { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 };

describe('guardedLookup', () => {
  it('hands a public address to the socket (single-address form)', async () => {
    const out = await call(guardedLookup({ enforce: true, resolve: fixed(PUBLIC_V4, PUBLIC_V6) }), {});
    expect(out).toEqual({ err: null, address: '93.184.216.34', family: 4 });
  });

  it('hands all addresses to the socket when asked for all (happy eyeballs)', async () => {
    const out = await call(guardedLookup({ enforce: true, resolve: fixed(PUBLIC_V4, PUBLIC_V6) }), { all: true });
    expect(out.err).toBeNull();
    expect(out.address).toEqual([PUBLIC_V4, PUBLIC_V6]);
  });

  it.each([
    ['loopback', { address: '127.0.0.1', family: 4 }],
    ['metadata', { address: '169.254.169.254', family: 4 }],
    ['private', { address: '10.0.0.5', family: 4 }],
    ['IPv6 loopback', { address: '::1', family: 6 }],
    ['mapped loopback', { address: '::ffff:127.0.0.1', family: 6 }],
    ['unique local', { address: 'fd00::1', family: 6 }],
    ['unspecified', { address: '0.0.0.0', family: 4 }],
  ])('refuses a name resolving to a %s address', async (_name, bad) => {
    const out = await call(guardedLookup({ enforce: true, resolve: fixed(bad) }), { all: true });
    expect(out.err).toBeInstanceOf(ImageFetchError);
    expect((out.err as ImageFetchError).code).toBe('not-allowed');
  });

  it('refuses when any one of several addresses is not public', async () => {
    const resolve = fixed(PUBLIC_V4, { address: '127.0.0.1', family: 4 });
    for (const all of [true, false]) {
      const out = await call(guardedLookup({ enforce: true, resolve }), { all });
      expect((out.err as ImageFetchError).code).toBe('not-allowed');
    }
  });

  it('judges each resolution on its own, so a rebinding answer is caught at connect time', async () => {
    const answers = [[PUBLIC_V4], [{ address: '127.0.0.1', family: 4 }]];
    const resolve = vi.fn<Resolver>(async () => answers.shift() ?? []);
    const lookup = guardedLookup({ enforce: true, resolve });
    expect((await call(lookup, {})).address).toBe('93.184.216.34');
    expect((await call(lookup, {})).err).toBeInstanceOf(ImageFetchError);
    // One resolution per connection: the address checked is the address used.
    expect(resolve).toHaveBeenCalledTimes(2);
  });

  it('lets allow-listed hosts resolve to anything', async () => {
    const out = await call(guardedLookup({ enforce: false, resolve: fixed({ address: '127.0.0.1', family: 4 }) }), {});
    expect(out).toEqual({ err: null, address: '127.0.0.1', family: 4 });
  });

  it('passes the requested family to the resolver', async () => {
    const resolve = vi.fn<Resolver>(async () => [PUBLIC_V6]);
    const lookup = guardedLookup({ enforce: true, resolve });
    await call(lookup, { family: 6 });
    await call(lookup, { family: 'IPv4' });
    await call(lookup, {});
    expect(resolve.mock.calls.map((c) => c[1])).toEqual([6, 4, 0]);
  });

  it('reports an empty answer as ENOTFOUND', async () => {
    const out = await call(guardedLookup({ enforce: true, resolve: fixed() }), {});
    expect(out.err?.code).toBe('ENOTFOUND');
  });

  it('passes resolver failures through', async () => {
    const failure = Object.assign(new Error('nope'), { code: 'EAI_AGAIN' });
    const out = await call(
      guardedLookup({
        enforce: true,
        resolve: async () => {
          throw failure;
        },
      }),
      {},
    );
    expect(out.err).toBe(failure);
  });
});
