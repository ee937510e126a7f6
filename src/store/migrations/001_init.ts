import type { Kysely } from 'kysely';
import { dialectOf } from '../dialects/index.js';

/** Everything a migration needs: the raw Kysely instance and the table prefix. */
export interface MigrationContext {
  db: Kysely<unknown>;
  prefix: string;
}

/** The initial schema: posts with per-type details, links, attachments and terms. */
export async function up({ db, prefix }: MigrationContext): Promise<void> {
  const dialect = dialectOf(db);
  const t = (name: string) => prefix + name;
  const date = 'varchar(19)';

  await dialect
    .tableOptions(
      dialect
        .autoIncrementId(db.schema.createTable(t('posts')))
        .addColumn('type', 'varchar(20)', (c) => c.notNull())
        .addColumn('author', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'varchar(20)', (c) => c.notNull())
        .addColumn('status_before_trash', 'varchar(20)')
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('excerpt', 'text', (c) => c.notNull())
        .addColumn('slug', 'varchar(200)')
        .addColumn('password', 'varchar(255)')
        .addColumn('date', date, (c) => c.notNull())
        .addColumn('date_utc', date, (c) => c.notNull())
        .addColumn('modified', date, (c) => c.notNull())
        .addColumn('modified_utc', date, (c) => c.notNull())
        .addColumn('menu_order', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('parent', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('image_id', 'integer'),
    )
    .execute();
  await db.schema.createIndex(t('posts_type_slug')).on(t('posts')).columns(['type', 'slug']).unique().execute();
  await db.schema.createIndex(t('posts_type_status_date')).on(t('posts')).columns(['type', 'status', 'date', 'id']).execute();
  await db.schema.createIndex(t('posts_parent')).on(t('posts')).columns(['parent']).execute();

  await dialect
    .tableOptions(
      db.schema
        .createTable(t('events'))
        .addColumn('post_id', 'integer', (c) => c.primaryKey())
        .addColumn('start_local', date, (c) => c.notNull())
        .addColumn('end_local', date, (c) => c.notNull())
        .addColumn('start_utc', date, (c) => c.notNull())
        .addColumn('end_utc', date, (c) => c.notNull())
        .addColumn('timezone', 'varchar(64)', (c) => c.notNull())
        .addColumn('timezone_abbr', 'varchar(64)', (c) => c.notNull())
        .addColumn('all_day', 'smallint', (c) => c.notNull().defaultTo(0))
        .addColumn('hidden', 'smallint', (c) => c.notNull().defaultTo(0))
        .addColumn('featured', 'smallint', (c) => c.notNull().defaultTo(0))
        .addColumn('show_map', 'smallint', (c) => c.notNull().defaultTo(0))
        .addColumn('show_map_link', 'smallint', (c) => c.notNull().defaultTo(0))
        .addColumn('website', 'text')
        .addColumn('cost', 'text')
        .addColumn('currency_symbol', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('currency_position', 'varchar(16)', (c) => c.notNull().defaultTo(''))
        .addColumn('currency_code', 'varchar(16)', (c) => c.notNull().defaultTo(''))
        .addColumn('venue_id', 'integer'),
    )
    .execute();
  // The archive walks events by local start within a window, visible ones only.
  await db.schema.createIndex(t('events_listing')).on(t('events')).columns(['hidden', 'start_local', 'post_id']).execute();
  await db.schema.createIndex(t('events_end')).on(t('events')).columns(['end_local']).execute();
  await db.schema.createIndex(t('events_start_utc')).on(t('events')).columns(['start_utc']).execute();
  await db.schema.createIndex(t('events_venue')).on(t('events')).columns(['venue_id']).execute();

  await dialect
    .tableOptions(
      db.schema
        .createTable(t('venues'))
        .addColumn('post_id', 'integer', (c) => c.primaryKey())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('city', 'text', (c) => c.notNull())
        .addColumn('country', 'text', (c) => c.notNull())
        .addColumn('province', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('zip', 'text', (c) => c.notNull())
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('stateprovince', 'text', (c) => c.notNull())
        .addColumn('website', 'text', (c) => c.notNull())
        .addColumn('show_map', 'smallint', (c) => c.notNull().defaultTo(1))
        .addColumn('show_map_link', 'smallint', (c) => c.notNull().defaultTo(1))
        .addColumn('geo_lat', 'double precision')
        .addColumn('geo_lng', 'double precision'),
    )
    .execute();

  await dialect
    .tableOptions(
      db.schema
        .createTable(t('organizers'))
        .addColumn('post_id', 'integer', (c) => c.primaryKey())
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('website', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull()),
    )
    .execute();

  await dialect
    .tableOptions(
      db.schema
        .createTable(t('event_organizers'))
        .addColumn('event_id', 'integer', (c) => c.notNull())
        .addColumn('organizer_id', 'integer', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint(t('event_organizers_pk'), ['event_id', 'organizer_id']),
    )
    .execute();
  await db.schema.createIndex(t('event_organizers_organizer')).on(t('event_organizers')).columns(['organizer_id', 'event_id']).execute();

  await dialect
    .tableOptions(
      db.schema
        .createTable(t('attachments'))
        .addColumn('post_id', 'integer', (c) => c.primaryKey())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('mime_type', 'varchar(100)', (c) => c.notNull())
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .addColumn('filesize', 'integer')
        .addColumn('sizes', 'text', (c) => c.notNull()),
    )
    .execute();

  await dialect
    .tableOptions(
      dialect
        .autoIncrementId(db.schema.createTable(t('terms')))
        .addColumn('taxonomy', 'varchar(32)', (c) => c.notNull())
        .addColumn('name', 'varchar(200)', (c) => c.notNull())
        .addColumn('slug', 'varchar(200)', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('parent', 'integer', (c) => c.notNull().defaultTo(0)),
    )
    .execute();
  await db.schema.createIndex(t('terms_taxonomy_slug')).on(t('terms')).columns(['taxonomy', 'slug']).unique().execute();
  await db.schema.createIndex(t('terms_taxonomy_parent')).on(t('terms')).columns(['taxonomy', 'parent']).execute();

  await dialect
    .tableOptions(
      db.schema
        .createTable(t('term_relationships'))
        .addColumn('post_id', 'integer', (c) => c.notNull())
        .addColumn('term_id', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint(t('term_relationships_pk'), ['post_id', 'term_id']),
    )
    .execute();
  await db.schema.createIndex(t('term_relationships_term')).on(t('term_relationships')).columns(['term_id', 'post_id']).execute();
}

/** Drops the initial schema. */
export async function down({ db, prefix }: MigrationContext): Promise<void> {
  for (const name of ['term_relationships', 'terms', 'attachments', 'event_organizers', 'organizers', 'venues', 'events', 'posts']) {
    await db.schema
      .dropTable(prefix + name)
      .ifExists()
      .execute();
  }
}
