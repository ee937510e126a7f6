/**
 * The page of an archive a request asks for, and the totals every archive answers with:
 * `per_page` clamped to the mount's maximum, `total_pages` = ⌈total / per_page⌉,
 * and the same figures in the `X-TEC-Total` / `X-TEC-TotalPages` headers.
 */

/** The rows one archive request reads. */
export interface ArchivePage {
  page: number;
  /** `per_page` as sent (or the default), clamped to `maxPerPage`: what paging URLs carry. */
  perPage: number;
  offset: number;
  limit: number;
}

/** The page a request asks for. */
export function archivePage(params: { page?: number; per_page?: number }, options: { perPage: number; maxPerPage: number }): ArchivePage {
  const perPage = Math.min(params.per_page ?? options.perPage, options.maxPerPage);
  const page = params.page ?? 1;
  return { page, perPage, offset: (page - 1) * perPage, limit: perPage };
}

/** `total_pages` of an archive with `total` items. */
export function totalPages(total: number, page: ArchivePage): number {
  return Math.ceil(total / page.perPage);
}

/** The headers of every archive answer. */
export function archiveHeaders(total: number, pages: number): Record<string, string> {
  return { 'X-TEC-Total': String(total), 'X-TEC-TotalPages': String(pages) };
}
