import { expect, it } from 'vitest';
import { testCalendar } from '../../helpers/harness.js';
it('a query id does not stand in for a missing path item', async () => {
  const t = await testCalendar(':memory:');
  const v = await t.request('POST', '/venues', { json: { venue: 'Hall' }, as: 'admin' });
  const r = await t.request('DELETE', `/venues/999`, { query: { id: String(v.body.id) }, as: 'admin' });
  expect(r.status).toBe(400);
  const u = await t.request('POST', `/venues/999`, { query: { id: String(v.body.id) }, json: { city: 'x' }, as: 'admin' });
  expect(u.status).toBe(400);
  expect((await t.request('GET', `/venues/${v.body.id}`)).body.status).toBe('publish');
  await t.close();
});
