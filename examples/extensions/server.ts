// The Express example, extended (README "Extending the calendar"): started like it (the same
// environment, roots /wp-json and /fr/wp-json; `npm run start:extensions`), with
// - an integer `capacity` field on events (0–100000, filterable: GET /events?capacity=120),
// - a boolean `wheelchair_access` field on venues,
// - a beforeChange hook refusing an event whose capacity is above 5000 (400 capacity_too_large),
// - an afterChange hook that logs one line per change,
// - GET {namespace}/stats, answering { events: <published events>, venues: <venues> } to anyone.
import express from 'express';
import { z } from 'zod';
import { calendarRouter } from '../../adapters/express.js';
import { calendarRoute, field, HookError, type AfterChangeArgs, type HookKind } from '../../src/index.js';
import { announce, calendarFromEnv, closeOnSignal } from '../shared/env.js';

/** Above this, an event is refused by the beforeChange hook (the field itself takes up to 100000). */
const MOST_SEATS = 5000;

/** Logs one line per committed change, whatever its kind. */
const logChange = ({ kind, operation, id }: AfterChangeArgs<HookKind>) => console.log(`change: ${operation} ${kind} ${id}`);

/** The calendar's totals of published events (of every date) and of venues, as anyone sees them. */
const stats = calendarRoute({
  path: '/stats',
  methods: ['GET'],
  description: { en: 'How many events are published, and how many venues there are.', fr: 'Combien d’évènements sont publiés, et combien de lieux.' },
  handler: async () => {
    const total = async (path: string, params: Record<string, unknown>) => {
      const res = await setup.calendar.call('GET', path, { params: { per_page: 1, ...params } });
      const body = res.body;
      return typeof body === 'object' && body !== null && 'total' in body ? Number(body.total) : 0;
    };
    return { body: { events: await total('/events', { start_date: '1000-01-01', end_date: '9999-12-31' }), venues: await total('/venues', {}) } };
  },
});

const setup = calendarFromEnv(process.env, 8080, {
  fields: {
    events: { capacity: field({ type: z.number().int().min(0).max(100000), filterable: true, description: { en: 'How many people the event can take.' } }) },
    venues: { wheelchair_access: field({ type: z.boolean(), description: { en: 'Whether the venue is accessible by wheelchair.' } }) },
  },
  hooks: {
    events: {
      beforeChange: ({ input }) => {
        if (typeof input.capacity === 'number' && input.capacity > MOST_SEATS) {
          throw new HookError('capacity_too_large', `An event may take at most ${MOST_SEATS} people.`, 400);
        }
      },
      afterChange: logChange,
    },
    venues: { afterChange: logChange },
    organizers: { afterChange: logChange },
    categories: { afterChange: logChange },
    tags: { afterChange: logChange },
  },
  routes: [stats],
});
const { calendar, port } = setup;
await calendar.migrate();

const app = express();
app.use('/wp-json', calendarRouter(calendar));
app.use('/fr/wp-json', calendarRouter(calendar, { locale: 'fr' }));

const server = app.listen(port, '127.0.0.1', () => announce(setup));
closeOnSignal(async () => {
  server.close();
  await calendar.close();
});
