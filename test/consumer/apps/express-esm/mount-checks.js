// Issue 31, trap 2: `calendarRouter()` and `calendarRouter({ db })` used to mount fine, and every
// request then got Express' HTML 500. The router now checks what it is given where the host
// mounts it, with the messages `createCalendar` gives. Prints what it checked; exits non-zero on a
// mismatch.
import assert from 'node:assert/strict';
import { createCalendar } from 'calendar-events-rest';
import { calendarRouter } from 'calendar-events-rest/express';

assert.throws(() => calendarRouter(), {
  name: 'TypeError',
  message: 'calendar-events-rest: calendarRouter(calendar, options): `calendar` is undefined; it takes the calendar createCalendar() returns.',
});
// createCalendar's options in place of the calendar: the commonest slip.
assert.throws(() => calendarRouter({ db: 'data/calendar.sqlite' }), {
  name: 'TypeError',
  message:
    "calendar-events-rest: calendarRouter(calendar, options): `calendar` is an object; it takes the calendar createCalendar(options) returns, not createCalendar's options.",
});

const calendar = createCalendar({ db: ':memory:' });
try {
  assert.throws(() => calendarRouter(calendar, { getuser: () => null }), {
    name: 'TypeError',
    message: 'calendar-events-rest: calendarRouter option `getuser` is unknown; did you mean `getUser`?',
  });
} finally {
  await calendar.close();
}
console.log('calendarRouter refuses no calendar, createCalendar options and a misspelt option');
