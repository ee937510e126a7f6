import type { Kysely } from 'kysely';
import { MAX_ID } from '../args/checks.js';
import type { Database, PostType } from './database.js';

/** Look-ups shared by every post type. */
export class PostStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** The type of the post with this id, if there is one. */
  async typeOf(id: number): Promise<PostType | undefined> {
    if (!Number.isInteger(id) || id <= 0 || id > MAX_ID) return undefined;
    const row = await this.db.selectFrom('posts').select('type').where('id', '=', id).executeTakeFirst();
    return row?.type;
  }
}
