// Issue 31, traps 2 and 3: `getUser: { id: 1 }` passed createCalendar and every request then
// answered 500; misspelt option names passed silently in JavaScript; the Node handler took
// anything. createCalendar and calendarNodeHandler now refuse them where the host wrote them,
// with a "did you mean" hint for an unknown name. Prints what it checked; exits non-zero on a
// mismatch.
import assert from 'node:assert/strict';
import { createCalendar } from 'calendar-events-rest';
import { calendarNodeHandler } from 'calendar-events-rest/node';

assert.throws(() => createCalendar({ db: ':memory:', getUser: { id: 1 } }), {
  name: 'TypeError',
  message: 'calendar-events-rest: option `getUser` is an object; it takes a function (request) => user or null (or a promise of one).',
});
assert.throws(() => createCalendar({ db: ':memory:', tablePrefx: 'cal_' }), {
  name: 'TypeError',
  message: 'calendar-events-rest: option `tablePrefx` is unknown; did you mean `tablePrefix`?',
});
assert.throws(() => createCalendar({ db: ':memory:', cors: { origin: 'https://example.org' } }), {
  name: 'TypeError',
  message: 'calendar-events-rest: option `cors.origin` is unknown; did you mean `cors.origins`?',
});
assert.throws(() => calendarNodeHandler(), {
  name: 'TypeError',
  message: 'calendar-events-rest: calendarNodeHandler(calendar, options): `calendar` is undefined; it takes the calendar createCalendar() returns.',
});
console.log('createCalendar refuses getUser: { id: 1 }, tablePrefx and cors.origin (did you mean); calendarNodeHandler() refuses no calendar');
