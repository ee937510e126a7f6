// Every entry point of the package shares one copy of the core in CommonJS as well: the main and
// tRPC entries load the same chunk file for it, and an API error made inside
// `calendar-events-rest/trpc` is an instance of the main entry's `ApiError`. Prints what it
// checked; exits non-zero on the first mismatch.
'use strict';
const assert = require('node:assert/strict');
const path = require('node:path');
const { createCalendar, ApiError } = require('calendar-events-rest');
const { calendarRouter } = require('calendar-events-rest/express');
const { createCalendarRouter, createCalendarContext, apiErrorOf } = require('calendar-events-rest/trpc');
const { TRPCError } = require('@trpc/server');

async function main() {
  assert.equal(typeof calendarRouter, 'function');
  const dist = path.dirname(require.resolve('calendar-events-rest'));
  const module = (file) => require.cache[path.join(dist, file)];
  // The package's chunk that defines ApiError (the main entry only re-exports it).
  const chunks = Object.values(require.cache).filter((m) => m.filename.startsWith(dist + path.sep) && path.basename(m.filename).startsWith('chunk-'));
  const core = chunks.filter((m) => Object.values(m.exports).includes(ApiError));
  assert.equal(core.length, 1, `chunks exporting the main entry's ApiError: ${core.map((m) => m.filename).join(', ') || 'none'}`);
  for (const entry of ['index.cjs', 'trpc.cjs']) {
    assert.ok(module(entry), `${entry} was not loaded from ${dist}`);
    assert.ok(module(entry).children.includes(core[0]), `${entry} does not require ${path.basename(core[0].filename)}`);
  }

  const calendar = createCalendar({ db: process.env.CALENDAR_DB_URL ?? process.env.CALENDAR_DB ?? 'data/calendar.sqlite' });
  try {
    await calendar.migrate();
    const caller = createCalendarRouter(calendar).createCaller(createCalendarContext());
    const error = await caller.events.get({ id: 987654321 }).then(
      () => assert.fail('events.get of a missing id resolved'),
      (e) => e,
    );
    assert.ok(error instanceof TRPCError, `not a TRPCError: ${error}`);
    assert.equal(error.code, 'NOT_FOUND');
    assert.ok(error.cause instanceof ApiError, `the cause (${error.cause && error.cause.constructor.name}) is not an instance of the main entry's ApiError`);
    assert.equal(apiErrorOf(error).data.status, 404);
    console.log(
      `one core: index.cjs and trpc.cjs share ${path.basename(core[0].filename)}; a tRPC error's cause (${error.cause.code}) is the main entry's ApiError`,
    );
  } finally {
    await calendar.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
