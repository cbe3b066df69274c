import { cutText } from "@orderbot/platform";

/** At most this many products on one page of /products. */
export const PRODUCTS_PER_PAGE = 20;
/**
 * Characters of product lines on one page: Telegram refuses a message over 4,096, and the title,
 * the page line and the line breaks need the rest.
 */
export const PRODUCTS_PAGE_CHARS = 3800;

/**
 * Splits the listing's lines into pages of at most `perPage` lines and `maxChars` characters, in
 * order, so a page never exceeds Telegram's limit whatever the titles' lengths (they are
 * unbounded). A line longer than a whole page is cut with "…". Pages are rebuilt from the start on
 * every press, so a product added meanwhile shifts the pages after it, which is harmless here.
 */
export function productPages(
  lines: readonly string[],
  perPage = PRODUCTS_PER_PAGE,
  maxChars = PRODUCTS_PAGE_CHARS,
): string[][] {
  const pages: string[][] = [];
  let page: string[] = [];
  let chars = 0;
  for (const raw of lines) {
    const line = cutText(raw, maxChars, "…");
    if (page.length > 0 && (page.length === perPage || chars + line.length + 1 > maxChars)) {
      pages.push(page);
      page = [];
      chars = 0;
    }
    page.push(line);
    chars += line.length + 1;
  }
  if (page.length > 0) pages.push(page);
  return pages;
}
