/** The stored values of declared fields (`field_values`), and the archive's tests of them. */
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database, FieldValuesTable } from '../store/database.js';
import type { DeclaredField, FilterColumn } from './registry.js';
import { PreparedQuery } from '../store/prepared.js';

/** Longest text the `text` column keeps for equality filters (longer texts are not found by them). */
const TEXT_COLUMN = 191;

/** One test of an archive filter: the field's value equals one of `values`, or lies on one side of a bound. */
export interface FieldFilter {
  readonly family: 'post' | 'term';
  readonly name: string;
  readonly column: FilterColumn;
  readonly test: { in: readonly (string | number)[] } | { min: string | number } | { max: string | number };
}

/** The comparable forms of a value: a number, or a short text or flag. */
function comparable(value: unknown): Pick<FieldValuesTable, 'number' | 'text'> {
  if (typeof value === 'number' && Number.isFinite(value)) return { number: value, text: null };
  if (typeof value === 'boolean') return { number: null, text: String(value) };
  if (typeof value === 'string' && value.length <= TEXT_COLUMN) return { number: null, text: value };
  return { number: null, text: null };
}

/** The comparable form of a filter's value in its column. */
export const filterValue = (column: FilterColumn, value: unknown): string | number => (column === 'number' ? Number(value) : String(value));

/** One value stored: a write most often sends one field. */
const INSERT_ONE = new PreparedQuery((db, v: FieldValuesTable) =>
  db.insertInto('field_values').values({ family: v.family, item_id: v.item_id, name: v.name, value: v.value, number: v.number, text: v.text }),
);

/** Reads and writes field values over one connection (a transaction's inside a write). */
export class FieldStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** The values of `fields` of the items `ids`, by item id then field name. */
  async load(family: 'post' | 'term', ids: readonly number[], fields: readonly DeclaredField[]): Promise<Map<number, Map<string, unknown>>> {
    const out = new Map<number, Map<string, unknown>>();
    if (!ids.length || !fields.length) return out;
    const rows = await this.db
      .selectFrom('field_values')
      .select(['item_id', 'name', 'value'])
      .where('family', '=', family)
      .where('item_id', 'in', [...new Set(ids)])
      .where(
        'name',
        'in',
        fields.map((f) => f.name),
      )
      .execute();
    for (const row of rows) {
      let values = out.get(row.item_id);
      if (!values) out.set(row.item_id, (values = new Map()));
      values.set(row.name, JSON.parse(row.value));
    }
    return out;
  }

  /**
   * Stores the values given (a `null` removes one); inside the write's transaction. `created`:
   * the item is new in this transaction, so it has no values to replace (one statement fewer).
   */
  async save(family: 'post' | 'term', id: number, values: ReadonlyMap<string, unknown>, { created = false } = {}): Promise<void> {
    if (!values.size) return;
    if (!created) {
      await this.db
        .deleteFrom('field_values')
        .where('family', '=', family)
        .where('item_id', '=', id)
        .where('name', 'in', [...values.keys()])
        .execute();
    }
    const rows = [...values]
      .filter(([, value]) => value !== null && value !== undefined)
      .map(([name, value]): FieldValuesTable => ({ family, item_id: id, name, value: JSON.stringify(value), ...comparable(value) }));
    const [only] = rows;
    if (only && rows.length === 1) await INSERT_ONE.execute(this.db, only);
    else if (rows.length) await this.db.insertInto('field_values').values(rows).execute();
  }

  /** Removes every value of an item (deleted for good). */
  async remove(family: 'post' | 'term', id: number): Promise<void> {
    await this.db.deleteFrom('field_values').where('family', '=', family).where('item_id', '=', id).execute();
  }

  /** A condition on the item whose id is `idColumn` (`posts.id`, `terms.id`): it passes `filter`. */
  matches(idColumn: string, filter: FieldFilter): Expression<SqlBool> {
    let values = this.db
      .selectFrom('field_values')
      .select(sql.lit(1).as('found'))
      .where('field_values.family', '=', filter.family)
      .where('field_values.name', '=', filter.name)
      .where('field_values.item_id', '=', sql.ref<number>(idColumn));
    const column = `field_values.${filter.column}` as const;
    const { test } = filter;
    if ('in' in test) values = values.where(column, 'in', [...test.in]);
    else if ('min' in test) values = values.where(column, '>=', test.min);
    else values = values.where(column, '<=', test.max);
    // A subquery inside raw SQL is written in parentheses by Kysely itself.
    return sql<SqlBool>`exists ${values}`;
  }
}
