/**
 * The store's reliability helpers (issue 7): conflict retries, the "database unavailable"
 * classification and its JSON 503 through the pipeline (on SQLite, with a driver failure
 * injected; faults.test.ts does the same with a real PostgreSQL server going away).
 */
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/store/connect.js';
import { isRetryable, isUniqueViolation, withRetry } from '../../src/store/retry.js';
import { isDatabaseUnavailable } from '../../src/store/unavailable.js';
import { testCalendar, type TestCalendar } from '../helpers/harness.js';

const error = (fields: Record<string, unknown>, message = 'driver error') => Object.assign(new Error(message), fields);

describe('withRetry', () => {
  it('runs the work again after retryable conflicts, and returns its result', async () => {
    let calls = 0;
    const result = await withRetry(async () => {
      calls++;
      if (calls < 8) throw error({ code: calls % 2 ? '23505' : '40001' });
      return 'done';
    });
    expect([result, calls]).toEqual(['done', 8]);
  });

  it('gives up after its attempts, with the last error', async () => {
    let calls = 0;
    await expect(
      withRetry(async () => {
        calls++;
        throw error({ code: 'SQLITE_BUSY' }, `busy ${calls}`);
      }, 4),
    ).rejects.toThrow('busy 4');
    expect(calls).toBe(4);
  });

  it('does not retry other errors', async () => {
    let calls = 0;
    await expect(
      withRetry(async () => {
        calls++;
        throw error({ code: '42601' }, 'syntax');
      }),
    ).rejects.toThrow('syntax');
    expect(calls).toBe(1);
  });

  it('knows the conflicts of the three dialects', () => {
    for (const e of [
      { code: '23505' },
      { code: 'ER_DUP_ENTRY', errno: 1062 },
      { code: 'SQLITE_CONSTRAINT_UNIQUE' },
      { code: 'SQLITE_CONSTRAINT_PRIMARYKEY' },
    ]) {
      expect(isUniqueViolation(error(e))).toBe(true);
    }
    for (const e of [
      { code: '40001' },
      { code: '40P01' },
      { errno: 1213 },
      { errno: 1205 },
      { code: 'SQLITE_BUSY' },
      { code: 'SQLITE_BUSY_SNAPSHOT' },
      { code: 'SQLITE_LOCKED' },
    ])
      expect(isRetryable(error(e))).toBe(true);
    for (const e of [{ code: '23503' }, { code: 'SQLITE_CONSTRAINT_NOTNULL' }, {}, null, 'text'])
      expect(isRetryable(e === null || typeof e === 'string' ? e : error(e))).toBe(false);
  });
});

describe('isDatabaseUnavailable', () => {
  it('recognises lost and refused connections of every driver', () => {
    const down = [
      error({ code: 'ECONNREFUSED' }),
      error({}, 'Connection terminated unexpectedly'),
      error({}, 'timeout exceeded when trying to connect'),
      error({ code: '57P01' }, 'terminating connection due to administrator command'),
      error({ code: '57P03' }, 'the database system is starting up'),
      error({ code: 'PROTOCOL_CONNECTION_LOST' }),
      error({ code: 'ER_CON_COUNT_ERROR' }),
      error({ code: 'SQLITE_BUSY_SNAPSHOT' }, 'database is locked'),
      Object.assign(new AggregateError([error({ code: 'ECONNREFUSED' })], 'connect failed'), {}),
    ];
    for (const e of down) expect(isDatabaseUnavailable(e), String(e)).toBe(true);
  });

  it('does not mistake query errors for an outage', () => {
    for (const e of [
      error({ code: '23505' }, 'duplicate key value violates unique constraint'),
      error({ code: '42P01' }, 'relation "x" does not exist'),
      new TypeError('x is undefined'),
      null,
      'ECONNREFUSED',
    ]) {
      expect(isDatabaseUnavailable(e)).toBe(false);
    }
  });
});

/** Makes every query fail like a driver whose server is gone, while `down` is set. */
class Outage implements KyselyPlugin {
  down = false;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.#fail();
    return args.node;
  }
  // Queries run already compiled (the store version) reach only this hook.
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.#fail();
    return args.result;
  }
  #fail(): void {
    if (this.down) throw error({ code: 'ECONNREFUSED', errno: -111, address: '10.0.0.5', port: 5432 }, 'connect ECONNREFUSED 10.0.0.5:5432');
  }
}

describe('an unreachable store through the pipeline', () => {
  let t: TestCalendar;
  const outage = new Outage();
  const unexpected: unknown[] = [];
  beforeAll(async () => {
    const raw = await connectDatabase(':memory:');
    t = await testCalendar(':memory:', { db: raw.withPlugin(outage), onError: (e) => unexpected.push(e) });
  });
  afterAll(() => t.close());

  it('answers a JSON 503 without details on reads and writes, and recovers when the store does', async () => {
    outage.down = true;
    for (const [method, path, init] of [
      ['GET', '/events', {}],
      ['GET', '/venues/1', {}],
      ['POST', '/venues', { json: { venue: 'Down hall' }, as: 'admin' }],
      ['DELETE', '/categories/1', { as: 'admin' }],
    ] as const) {
      const r = await t.request(method, path, init);
      expect(r.status, `${method} ${path}`).toBe(503);
      expect(r.body).toEqual({ code: 'rest_service_unavailable', message: 'The calendar store is unavailable; try again shortly.', data: { status: 503 } });
      expect(r.text).not.toMatch(/ECONNREFUSED|10\.0\.0\.5|5432/);
      expect(r.headers['Content-Type']).toBe('application/json; charset=UTF-8');
    }
    outage.down = false;
    expect((await t.request('POST', '/venues', { json: { venue: 'Back hall' }, as: 'admin' })).status).toBe(201);
    expect((await t.request('GET', '/venues')).status).toBe(200);
    // An outage is expected trouble, not a bug to report.
    expect(unexpected).toEqual([]);
  });
});
