/** The values of the calendar's declared fields that a source item carries (a source running this library). */
import type { Collection } from '../kinds.js';
import type { Store } from '../resources/store.js';
import type { KindReport } from './report.js';
import type { ImportRun } from './run.js';

/**
 * Copies the declared fields a source item shows, checked by their declarations as an API write
 * would check them; a value a field refuses is not stored and is listed in the report's `altered`
 * (once, should the transaction run again).
 */
export async function copyFields(
  run: ImportRun,
  tx: Store,
  collection: Collection,
  id: number,
  item: object,
  sourceId: number,
  report: KindReport,
): Promise<void> {
  const { values, refused } = run.fields.fromSource(collection, item);
  await run.fields.saveValues(tx.fields, collection, id, values);
  for (const { field, from } of refused) {
    if (!report.altered.some((a) => a.sourceId === sourceId && a.field === field)) report.altered.push({ sourceId, field, from, to: '' });
  }
}
