/**
 * Queries compiled once and run again with new values. Kysely builds a query, compiles it and
 * the table-prefix plugin rewrites it in about 17 µs of CPU, as much as the run of most of the
 * calendar's queries takes on SQLite (a `POST /events` runs 14, a single event's read 8): the
 * hot ones are compiled once per store and shape instead, and run with their new values.
 */
import type { Compilable, CompiledQuery, InsertQueryBuilder, InsertResult, Kysely, QueryResult } from 'kysely';
import type { Database } from './database.js';
import type { StoreDialect } from './dialects/dialect.js';
import { dialectOf } from './dialects/index.js';

/** Stands for a value (or one element of a list) while a prepared query is compiled; found again among the parameters. */
class Slot {
  constructor(
    readonly name: string,
    readonly index?: number,
  ) {}
}

/** A prepared query's SQL, and where each of its values goes among the parameters. */
interface Template<R> {
  compiled: CompiledQuery<R>;
  /** For each parameter, the value (or element) it takes, or `undefined` for a constant kept as compiled. */
  slots: readonly (Slot | undefined)[];
}

/** Most shapes (lengths of its lists) kept per query and store: past it, a shape is compiled for its run alone. */
const SHAPES = 64;

/**
 * The instances whose queries compile alike: a store's connection and the transactions opened
 * on it (same dialect, prefix and plugins). Unregistered instances stand for themselves.
 */
const FAMILIES = new WeakMap<Kysely<Database>, object>();

/** Records that `db` (a transaction) compiles its queries as `of` (the connection it was opened on) does. */
export function compilesLike(db: Kysely<Database>, of: Kysely<Database>): void {
  FAMILIES.set(db, FAMILIES.get(of) ?? of);
}

/** The value a slot stands for. */
function valueOf(values: object, slot: Slot): unknown {
  const value: unknown = Reflect.get(values, slot.name);
  return slot.index === undefined ? value : Array.isArray(value) ? value[slot.index] : undefined;
}

/**
 * What the SQL of a query run with `values` depends on: which values it is given and which of
 * them are `undefined` (an insert names the columns of the others), and the length of each list
 * (`in (?, ?)`).
 */
function shapeOf(values: object): string {
  let shape = '';
  for (const name in values) {
    const value: unknown = Reflect.get(values, name);
    shape += Array.isArray(value) ? `${name}:${value.length};` : value === undefined ? `${name}:-;` : `${name};`;
  }
  return shape;
}

/**
 * A query whose SQL depends on its values only through their names, the lengths of its lists
 * and which of them are `undefined` (no other optional conditions): `build` must pass each value it is given
 * to Kysely as it is (a list as the list), since while compiling it is given stand-ins that are
 * looked for among the parameters.
 */
export class PreparedQuery<V extends object, R> {
  readonly #templates = new WeakMap<object, Map<string, Template<R>>>();

  constructor(private readonly build: (db: Kysely<Database>, values: V) => Compilable<R>) {}

  /** Runs the query on `db` (a store's connection or one of its transactions) with `values`. */
  async execute(db: Kysely<Database>, values: V): Promise<QueryResult<R>> {
    const family = FAMILIES.get(db) ?? db;
    let shapes = this.#templates.get(family);
    if (!shapes) this.#templates.set(family, (shapes = new Map()));
    const shape = shapeOf(values);
    let template = shapes.get(shape);
    if (!template) {
      template = this.#compile(db, values);
      if (shapes.size < SHAPES) shapes.set(shape, template);
    }
    const { compiled, slots } = template;
    const parameters = slots.map((slot, i) => (slot === undefined ? compiled.parameters[i] : valueOf(values, slot)));
    return db.executeQuery<R>({ ...compiled, parameters });
  }

  /** All rows of the query run with `values`. */
  async rows(db: Kysely<Database>, values: V): Promise<R[]> {
    return (await this.execute(db, values)).rows;
  }

  /** The first row of the query run with `values`, if any. */
  async first(db: Kysely<Database>, values: V): Promise<R | undefined> {
    return (await this.execute(db, values)).rows[0];
  }

  #compile(db: Kysely<Database>, values: V): Template<R> {
    const used = new Set<string>();
    const standIns = new Proxy(values, {
      get(target, name) {
        if (typeof name !== 'string') return undefined;
        used.add(name);
        const value: unknown = Reflect.get(target, name);
        if (value === undefined) return undefined;
        return Array.isArray(value) ? value.map((_, i) => new Slot(name, i)) : new Slot(name);
      },
    });
    const compiled = this.build(db, standIns).compile();
    const slots = compiled.parameters.map((p) => (p instanceof Slot ? p : undefined));
    for (const name of used) {
      if (!slots.some((slot) => slot?.name === name) && Reflect.get(values, name) !== undefined && !isEmptyList(Reflect.get(values, name)))
        throw new Error(`calendar: a prepared query lost its value "${name}" (a value must reach Kysely as it is given): ${compiled.sql}`);
    }
    return { compiled, slots };
  }
}

const isEmptyList = (value: unknown) => Array.isArray(value) && value.length === 0;

/** An insert into a table with an `id` key, compiled once like a `PreparedQuery`, that returns the new row's id. */
export class PreparedInsert<V extends object, TB extends keyof Database> {
  readonly #query: PreparedQuery<V, unknown>;

  constructor(build: (db: Kysely<Database>, values: V) => InsertQueryBuilder<Database, TB, InsertResult>) {
    this.#query = new PreparedQuery((db, values: V) => dialectOf(db).returningId(build(db, values)));
  }

  /** Inserts the row of `values` on `db`, whose dialect is `dialect`, and returns its id. */
  async execute(db: Kysely<Database>, dialect: StoreDialect, values: V): Promise<number> {
    return dialect.insertedId(await this.#query.execute(db, values));
  }
}
