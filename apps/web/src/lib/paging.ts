/** docs/product.md section 9: lists load ten at a time. */
export const recordsPageSize = 10;

/** The page after `last`, or undefined when it was the last one. */
export function nextPage(last: { page: number; page_size: number; total: number }): number | undefined {
  return last.page * last.page_size < last.total ? last.page + 1 : undefined;
}
