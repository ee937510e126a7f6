// A new venue inside an event write is parsed once (issue 30): the entries the argument check
// parsed are the ones the write reads. The value counts how often its fields are read.
import { describe, expect, it } from 'vitest';
import { RequestMemo, type RequestContext } from '../../../src/http/context.js';
import { linkedEntryCheck, parseLinkedEntries, requestEntryParser } from '../../../src/resources/linked/entries.js';

/** A venue given as data whose name counts its reads. */
function countedVenue() {
  const value = {
    reads: 0,
    get venue() {
      value.reads++;
      return 'Hall';
    },
  };
  return value;
}

/** The part of a request's context the check reads for a venue given as data (no author: no user to look up). */
const requestOf = (): RequestContext => ({ memo: new RequestMemo() }) as Partial<RequestContext> as RequestContext;

describe('linked entries of an event write', () => {
  it('are parsed once per request: the write reads what the check parsed', async () => {
    const venue = countedVenue();
    const ctx = requestOf();
    expect(await linkedEntryCheck('venue')(venue, ctx)).toBe(true);
    const checked = venue.reads;
    expect(checked).toBeGreaterThan(0);
    const entries = requestEntryParser(ctx)('venue', venue);
    expect(entries).toEqual([{ data: venue }]);
    // Before: the write parsed the value again (EventService.linkedEntries → parseLinkedEntries).
    expect(venue.reads).toBe(checked);
    expect(requestEntryParser(ctx)('venue', venue)).toBe(entries);
  });

  it('are parsed again by another request, and apart by kind and value', () => {
    const venue = countedVenue();
    const first = requestEntryParser(requestOf())('venue', venue);
    const reads = venue.reads;
    const ctx = requestOf();
    expect(requestEntryParser(ctx)('venue', venue)).not.toBe(first);
    expect(venue.reads).toBe(2 * reads);
    expect(requestEntryParser(ctx)('venue', '12')).toEqual([{ id: 12 }]);
    expect(requestEntryParser(ctx)('organizer', venue)).toEqual(parseLinkedEntries('organizer', venue));
  });
});
