/** What an import did with one kind of item. */
export interface KindReport {
  created: number;
  updated: number;
  /** Imported before and unchanged since. */
  unchanged: number;
  /** Left as they are: the source modified them before `since`. */
  older: number;
  /** Items left out, with the reason (bad or partial source data). */
  skipped: { sourceId: number | undefined; reason: string }[];
  /** Imported, but not quite as the source has it. */
  warnings: string[];
  /** Values an API write's rules changed (HTML filtered, a slug made one, a URL cleaned…), item by item; shown up to 200 characters. */
  altered: { sourceId: number; field: string; from: string; to: string }[];
  /** Pages of the source's archive that could not be read, with why: their items are left for the next run. */
  unreadPages: string[];
}

/** A report with nothing in it yet. */
export function emptyReport(): KindReport {
  return { created: 0, updated: 0, unchanged: 0, older: 0, skipped: [], warnings: [], altered: [], unreadPages: [] };
}
