/**
 * The calendar with host fields that `BENCH_FIELDS` benches against the plain one (issue 32):
 * two fields declared on events, one of them filterable, and values for them in its working copy.
 */
import { z } from 'zod';
import { field } from '../src/index.js';
import { connectDatabase } from '../src/store/connect.js';
import { Connection } from '../src/store/connection.js';
import { FieldStore } from '../src/fields/store.js';

/** The `fields` option of the bench's fields servers (bench/fields-express.ts, bench/fields-fastify.ts). */
export const BENCH_FIELDS = {
  events: {
    capacity: field({ type: z.number().int().min(0), filterable: true }),
    dress_code: field({ type: z.string().max(40), default: 'none' }),
  },
};

/** The dress codes stored: a third of the events keep the default (no stored value). */
const DRESS_CODES = ['smart', 'black tie', undefined] as const;

/**
 * Gives every event of a seeded SQLite file a capacity and most of them a dress code, through the
 * library's own field store, so that reads load and render stored values, as a host's would.
 */
export async function addFieldValues(file: string, prefix = 'tec_'): Promise<number> {
  const raw = await connectDatabase(file);
  try {
    const store = Connection.open(raw, prefix);
    const ids = (await store.db.selectFrom('events').select('post_id').execute()).map((r) => r.post_id);
    await store.transaction(async (tx) => {
      const fields = new FieldStore(tx.db);
      for (const id of ids) {
        const values = new Map<string, unknown>([['capacity', (id * 37) % 500]]);
        const dress = DRESS_CODES[id % DRESS_CODES.length];
        if (dress) values.set('dress_code', dress);
        await fields.save('post', id, values);
      }
    });
    return ids.length;
  } finally {
    await raw.destroy();
  }
}
