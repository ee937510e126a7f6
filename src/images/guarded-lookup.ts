import { promises as dns, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { classifyAddress } from './address-policy.js';
import { ImageFetchError } from './errors.js';

/** Resolves a host name to all of its addresses (`family` 0 = any). */
export type Resolver = (hostname: string, family: 0 | 4 | 6) => Promise<LookupAddress[]>;

/** The system resolver (getaddrinfo, so /etc/hosts counts), in the order it answers. */
export const systemResolver: Resolver = (hostname, family) => dns.lookup(hostname, { all: true, family, verbatim: true });

/**
 * A socket `lookup` that resolves once and gives the socket only addresses that passed
 * the policy, so what was checked is exactly what gets connected to (no DNS rebinding
 * window between a check and a second resolution).
 */
export function guardedLookup(options: { enforce: boolean; resolve?: Resolver }): LookupFunction {
  const resolve = options.resolve ?? systemResolver;
  return (hostname, lookupOptions, callback) => {
    const f = lookupOptions.family;
    const family = f === 4 || f === 'IPv4' ? 4 : f === 6 || f === 'IPv6' ? 6 : 0;
    // Answer on a fresh tick so an exception inside the socket's callback is not swallowed
    // by the promise chain.
    const fail = (err: NodeJS.ErrnoException): void => process.nextTick(() => callback(err, ''));
    resolve(hostname, family).then(
      (addresses) => {
        const [first] = addresses;
        if (!first) {
          fail(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }));
          return;
        }
        if (options.enforce) {
          // Every address, not just the first: the socket may try any of them (happy eyeballs).
          for (const { address } of addresses) {
            const cls = classifyAddress(address);
            if (cls !== 'public') {
              fail(new ImageFetchError('not-allowed', `${hostname} resolves to a ${cls} address`));
              return;
            }
          }
        }
        process.nextTick(() => {
          if (lookupOptions.all) callback(null, addresses);
          else callback(null, first.address, first.family);
        });
      },
      (err: NodeJS.ErrnoException) => fail(err),
    );
  };
}
