/** What the parts of an import share: the kinds it copies, how authors map, what WordPress' collections told. */
import type { PostKindName } from '../kinds.js';

/** The post kinds an import copies. */
export type ImportedPostKind = PostKindName;

/** How source authors become users here. */
export type AuthorMapping = (sourceAuthor: number) => number | undefined;

/** What a collection says of one item. */
export interface ListedItem {
  /** Its password (`''` for none), when the account may see it; `undefined` read anonymously. */
  password?: string;
  /** Whether it is password-protected. */
  protected: boolean;
  /** Its modification date (UTC, `YYYY-MM-DD HH:MM:SS`) when listed. */
  modified?: string;
}

/** What a kind's collection told. */
export interface CollectionFacts {
  kind: ImportedPostKind;
  /** Every item listed (with the statuses asked for), by id. */
  items: Map<number, ListedItem>;
  /** Whether the passwords were shown, so that the v1 API may be asked to unlock items (`context=edit`). */
  passwords: boolean;
}
