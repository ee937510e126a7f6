import type { Kysely } from 'kysely';
import type { Database, ImportedKind } from '../store/database.js';

/** What a source item became here. */
export interface ImportedItem {
  itemId: number;
  /** The source's modification date when it was imported (`''` for terms). */
  sourceModified: string;
}

/**
 * The record of what imports from one source brought in (`imported_items`): the item each
 * source item became, so that a run again updates what changed, adds what is new and never
 * duplicates, and so that the source's ids can be looked up afterwards.
 */
export class ImportMap {
  constructor(
    private readonly db: Kysely<Database>,
    /** The source's REST root and namespace, as {@link sourceKey} writes it. */
    readonly source: string,
  ) {}

  /** What a source item became, if it was imported. */
  async find(kind: ImportedKind, sourceId: number): Promise<ImportedItem | undefined> {
    const row = await this.db
      .selectFrom('imported_items')
      .select(['item_id', 'source_modified'])
      .where('source', '=', this.source)
      .where('kind', '=', kind)
      .where('source_id', '=', sourceId)
      .executeTakeFirst();
    return row && { itemId: row.item_id, sourceModified: row.source_modified };
  }

  /**
   * Records what a source item became, replacing an earlier record of it. Run it on the
   * transaction that writes the item (`map.in(tx.db)`): an item is recorded if and only if it
   * was written.
   */
  async record(kind: ImportedKind, sourceId: number, item: ImportedItem, now: Date): Promise<void> {
    await this.db.deleteFrom('imported_items').where('source', '=', this.source).where('kind', '=', kind).where('source_id', '=', sourceId).execute();
    await this.db
      .insertInto('imported_items')
      .values({ source: this.source, kind, source_id: sourceId, item_id: item.itemId, source_modified: item.sourceModified, imported_at: now.toISOString() })
      .execute();
  }

  /** Every source id of a kind and the item it became. */
  async lookup(kind: ImportedKind): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('imported_items')
      .select(['source_id', 'item_id'])
      .where('source', '=', this.source)
      .where('kind', '=', kind)
      .execute();
    return new Map(rows.map((r) => [r.source_id, r.item_id]));
  }

  /** The same record, read and written through another connection (a transaction). */
  in(db: Kysely<Database>): ImportMap {
    return new ImportMap(db, this.source);
  }
}

/** The key of a source in the record: its REST root and namespace, without a trailing slash or a query. */
export function sourceKey(root: string, namespace: string): string {
  const url = new URL(root);
  url.hash = '';
  url.search = '';
  return `${url.toString().replace(/\/+$/, '')}/${namespace.replace(/^\/+|\/+$/g, '')}`;
}
