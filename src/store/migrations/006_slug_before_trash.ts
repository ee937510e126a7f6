import type { MigrationContext } from './001_init.js';

/**
 * The slug a trashed post had (`posts.slug_before_trash`), as WordPress keeps it in
 * `_wp_desired_post_slug`: trashing cuts it to 191 characters before `__trashed`, so the
 * trashed slug alone cannot give a 200-character one back. Posts trashed before this
 * migration have none and come back by their trashed slug without its suffix.
 */
export async function up({ db, prefix }: MigrationContext): Promise<void> {
  await db.schema.alterTable(`${prefix}posts`).addColumn('slug_before_trash', 'varchar(200)').execute();
}

/** Drops the kept slugs. */
export async function down({ db, prefix }: MigrationContext): Promise<void> {
  await db.schema.alterTable(`${prefix}posts`).dropColumn('slug_before_trash').execute();
}
