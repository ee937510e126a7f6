// Issue 31, trap 2: the plugin checks its options at `register`, not at the first request.
// Registering it without a calendar used to fail every request with "TypeError: Cannot read
// properties of undefined (reading 'options')"; now `register` (awaited, or `ready()`) rejects
// with a message naming the option. Prints what it checked; exits non-zero on a mismatch.
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { createCalendar } from 'calendar-events-rest';
import { calendarPlugin } from 'calendar-events-rest/fastify';

/** The message `register` rejects with, or fails when it resolves. */
async function refusal(options) {
  const app = Fastify();
  try {
    await app.register(calendarPlugin, options);
    await app.ready();
  } catch (error) {
    return error.message;
  } finally {
    await app.close();
  }
  assert.fail(`register(calendarPlugin, ${JSON.stringify(Object.keys(options))}) resolved`);
}

const noCalendar = await refusal({ prefix: '/wp-json' });
assert.equal(
  noCalendar,
  'calendar-events-rest: app.register(calendarPlugin, { calendar }): `calendar` is undefined; it takes the calendar createCalendar() returns.',
);

const calendar = createCalendar({ db: ':memory:' });
try {
  const misspelt = await refusal({ calendar, prefix: '/wp-json', getuser: () => null });
  assert.equal(misspelt, 'calendar-events-rest: calendarPlugin option `getuser` is unknown; did you mean `getUser`?');
} finally {
  await calendar.close();
}
console.log('register refuses a missing calendar and a misspelt option');
