import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, send, startExample, TOKENS, type RunningServer } from '../../adapters/servers.js';
import { testCalendar } from '../../helpers/harness.js';

const run = promisify(execFile);
const NS = 'calendar/events/v1';

/**
 * A client program written against the types openapi-typescript generates from `/doc/complete`
 * (`./schema.js`), with openapi-fetch: it creates, updates, lists, reads and deletes an event, a
 * venue, an organizer, a category and a tag, and prints what it got. The `@ts-expect-error`
 * lines are calls the generated types must refuse.
 */
const CLIENT = `
import createClient from 'openapi-fetch';
import type { components, paths } from './schema.js';

type Event = components['schemas']['Event'];

const client = createClient<paths>({
  baseUrl: process.env.CALENDAR_API ?? '',
  headers: { Authorization: 'Bearer ' + (process.env.CALENDAR_TOKEN ?? '') },
});

/** The body of a successful answer; the API error otherwise. */
function ok<T>(answer: { data?: T; error?: { code: string; message: string }; response: Response }): T {
  if (answer.data === undefined) throw new Error(answer.response.status + ' ' + answer.error?.code + ': ' + answer.error?.message);
  return answer.data;
}

const venueOf = (event: Event) => (Array.isArray(event.venue) ? event.venue[0] : event.venue);

// Create
const category = ok(await client.POST('/categories', { body: { name: 'Client music' } }));
const tag = ok(await client.POST('/tags', { body: { name: 'Client jazz' } }));
const venue = ok(await client.POST('/venues', { body: { venue: 'Client hall', city: 'Lyon' } }));
const organizer = ok(await client.POST('/organizers', { body: { organizer: 'Client org', email: 'org@example.org' } }));
const event = ok(
  await client.POST('/events', {
    body: {
      title: 'Client concert',
      start_date: '2031-05-01 20:00:00',
      end_date: '2031-05-01 22:00:00',
      venue: venue.id,
      organizer: [organizer.id, { organizer: 'Client guest org' }],
      categories: [category.id],
      tags: 'Client jazz, Client swing',
      cost: 15,
    },
  }),
);

// Update: POST, PUT and PATCH, by id and by slug
const category2 = ok(await client.POST('/categories/{id}', { params: { path: { id: category.id } }, body: { description: 'Live music' } }));
const tag2 = ok(await client.PATCH('/tags/{id}', { params: { path: { id: tag.id } }, body: { name: 'Client jazz club' } }));
const venue2 = ok(await client.PUT('/venues/{id}', { params: { path: { id: venue.id } }, body: { city: 'Paris' } }));
const organizer2 = ok(await client.PATCH('/organizers/by-slug/{slug}', { params: { path: { slug: organizer.slug ?? '' } }, body: { phone: '555-0100' } }));
const event2 = ok(
  await client.POST('/events/{id}', { params: { path: { id: event.id } }, body: { title: 'Client concert, late', venue: { venue: 'Client club', city: 'Lille' } } }),
);
const event3 = ok(await client.PATCH('/events/by-slug/{slug}', { params: { path: { slug: event2.slug } }, body: { excerpt: 'Doors at 7' } }));

// List and get
const events = ok(await client.GET('/events', { params: { query: { start_date: '2031-01-01', end_date: '2031-12-31', per_page: 5, search: 'Client' } } }));
const read = ok(await client.GET('/events/{id}', { params: { path: { id: event.id } } }));
const bySlug = ok(await client.GET('/events/by-slug/{slug}', { params: { path: { slug: event3.slug } } }));
const venues = ok(await client.GET('/venues', { params: { query: { search: 'Client' } } }));
const venueRead = ok(await client.GET('/venues/{id}', { params: { path: { id: venue.id } } }));
const organizers = ok(await client.GET('/organizers', { params: { query: { search: 'Client' } } }));
const organizerRead = ok(await client.GET('/organizers/by-slug/{slug}', { params: { path: { slug: organizer2.slug ?? '' } } }));
const categories = ok(await client.GET('/categories', { params: { query: { hide_empty: false, search: 'Client' } } }));
const categoryRead = ok(await client.GET('/categories/{id}', { params: { path: { id: category.id } } }));
const tags = ok(await client.GET('/tags', { params: { query: { hide_empty: false } } }));
const tagRead = ok(await client.GET('/tags/{id}', { params: { path: { id: tag.id } } }));

// Errors have the API's shape
const missing = await client.GET('/events/{id}', { params: { path: { id: 999999 } } });
const anonymous = await createClient<paths>({ baseUrl: process.env.CALENDAR_API ?? '' }).POST('/tags', { body: { name: 'Nobody' } });

// Delete
const eventGone = ok(await client.DELETE('/events/{id}', { params: { path: { id: event.id } } }));
const venueGone = ok(await client.DELETE('/venues/by-slug/{slug}', { params: { path: { slug: venue2.slug ?? '' } } }));
const organizerGone = ok(await client.DELETE('/organizers/{id}', { params: { path: { id: organizer.id } } }));
const categoryGone = ok(await client.DELETE('/categories/{id}', { params: { path: { id: category.id } } }));
const tagGone = ok(await client.DELETE('/tags/{id}', { params: { path: { id: tag.id } } }));
const again = await client.DELETE('/events/{id}', { params: { path: { id: event.id } } });

// Calls the generated types refuse (never made).
if (process.env.NEVER) {
  // @ts-expect-error -- an event needs a title
  await client.POST('/events', { body: { start_date: '2031-01-01', end_date: '2031-01-01' } });
  // @ts-expect-error -- a new venue needs its name
  await client.POST('/events', { body: { title: 'x', start_date: '2031-01-01', end_date: '2031-01-01', venue: { city: 'Lyon' } } });
  // @ts-expect-error -- a name is a string
  await client.POST('/tags', { body: { name: 1 } });
  // @ts-expect-error -- ids are numbers
  await client.GET('/events/{id}', { params: { path: { id: 'one' } } });
  // @ts-expect-error -- no such path
  await client.GET('/event/{id}', { params: { path: { id: 1 } } });
  // @ts-expect-error -- the author of an answer is a string
  const author: number = read.author;
  console.log(author);
}

console.log(
  JSON.stringify({
    created: {
      event: { id: event.id, title: event.title, cost: event.cost, venue: venueOf(event)?.id, organizers: event.organizer.map((o) => o.organizer), tags: event.tags.map((t) => t.name) },
      venue: venue.venue,
      organizer: organizer.organizer,
      category: category.name,
      tag: tag.name,
    },
    updated: {
      event: { title: event2.title, venue: venueOf(event2)?.venue, excerpt: event3.excerpt },
      venue: venue2.city,
      organizer: organizer2.phone,
      category: category2.description,
      tag: tag2.name,
    },
    listed: {
      events: events.events.map((e) => e.id),
      total: events.total,
      venues: venues.venues.map((v) => v.venue),
      organizers: organizers.organizers.map((o) => o.organizer),
      categories: categories.categories.map((c) => c.name),
      tags: tags.tags.map((t) => t.name),
    },
    read: {
      event: read.title,
      bySlug: bySlug.id,
      jsonLd: read.json_ld?.['@type'],
      venue: venueRead.city,
      organizer: organizerRead.email,
      category: categoryRead.description,
      tag: tagRead.name,
    },
    errors: {
      missing: [missing.response.status, missing.error?.code],
      anonymous: [anonymous.response.status, anonymous.error?.code],
      again: [again.response.status, again.error?.code],
    },
    deleted: { event: eventGone.status, venue: venueGone.status, organizer: organizerGone.status, category: categoryGone.id, tag: tagGone.name },
  }),
);
`;

/** A folder inside the repository (so that the program finds openapi-fetch), removed afterwards. */
const WORK = join(REPO, '.tmp', `openapi-client-${process.pid}-${Date.now()}`);

/** Writes the client program beside the types generated from `doc`; returns the program's path. */
async function generate(dir: string, doc: unknown): Promise<string> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'schema.d.ts'), astToString(await openapiTS(structuredClone(doc) as never)));
  writeFileSync(join(dir, 'client.ts'), CLIENT);
  return join(dir, 'client.ts');
}

/** The errors TypeScript (the repository's) finds in a program, strict, as `tsc --noEmit` would. */
function typeErrors(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    noUncheckedIndexedAccess: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: ['node'],
    skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

let server: RunningServer;
let doc: unknown;

beforeAll(async () => {
  // The example with its default options: the complete document has a path of its own (issue 31).
  server = await startExample('express');
  const res = await send(server.base, 'GET', `/wp-json/${NS}/doc/complete`);
  expect(res.status).toBe(200);
  doc = JSON.parse(res.text);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(WORK, { recursive: true, force: true });
});

describe('a client generated from /doc/complete (openapi-typescript + openapi-fetch)', () => {
  it('is generated from a valid OpenAPI 3.0 document', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('type-checks a program that writes and reads every resource, and refuses wrong calls', async () => {
    const file = await generate(join(WORK, 'complete'), doc);
    expect(typeErrors(file)).toEqual([]);
  }, 120_000);

  it('could not be written against upstream’s document (which lacks the writes and the real shapes)', async () => {
    const upstream = await testCalendar(':memory:');
    try {
      const original = (await upstream.request('GET', '/doc')).body;
      const errors = typeErrors(await generate(join(WORK, 'original'), original));
      // No create operation to call.
      expect(errors.join('\n')).toContain(`Argument of type '"/events"' is not assignable to parameter of type 'PathsWithMethod<paths, "post">'`);
    } finally {
      await upstream.close();
    }
  }, 120_000);

  it('runs against the example server and gets the answers the API gives', async () => {
    const file = await generate(join(WORK, 'complete'), doc);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', file], {
      cwd: REPO,
      env: { ...process.env, CALENDAR_API: `${server.base}/wp-json/${NS}`, CALENDAR_TOKEN: TOKENS.admin },
      timeout: 60_000,
    });
    const out = JSON.parse(stdout);
    expect(out.created).toEqual({
      event: {
        id: expect.any(Number),
        title: 'Client concert',
        cost: '$15',
        venue: expect.any(Number),
        organizers: ['Client org', 'Client guest org'],
        tags: ['Client jazz', 'Client swing'],
      },
      venue: 'Client hall',
      organizer: 'Client org',
      category: 'Client music',
      tag: 'Client jazz',
    });
    expect(out.updated).toEqual({
      event: { title: 'Client concert, late', venue: 'Client club', excerpt: '<p>Doors at 7</p>' },
      venue: 'Paris',
      organizer: '555-0100',
      category: 'Live music',
      tag: 'Client jazz club',
    });
    expect(out.listed).toEqual({
      events: [out.created.event.id],
      total: 1,
      venues: ['Client club', 'Client hall'],
      organizers: ['Client guest org', 'Client org'],
      categories: ['Client music'],
      tags: ['Client jazz club', 'Client swing'],
    });
    expect(out.read).toEqual({
      event: 'Client concert, late',
      bySlug: out.created.event.id,
      jsonLd: 'Event',
      venue: 'Paris',
      organizer: 'org@example.org',
      category: 'Live music',
      tag: 'Client jazz club',
    });
    expect(out.errors).toEqual({ missing: [404, 'rest-event-not-found'], anonymous: [401, 'rest_forbidden'], again: [410, 'event-is-in-trash'] });
    expect(out.deleted).toEqual({ event: 'trash', venue: 'trash', organizer: 'trash', category: expect.any(Number), tag: 'Client jazz club' });
  }, 120_000);
});
