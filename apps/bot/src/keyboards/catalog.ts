import { InlineKeyboard } from "grammy";
import { callbacks } from "@orderbot/conversation";
import type { Translate } from "../format/translate.ts";

export interface CatalogEntry {
  productId: number;
  label: string;
}

export interface CategoryEntry {
  categoryId: number;
  label: string;
}

/** Where a listing's product buttons come from, for their cards' way back. */
export type ListingOrigin =
  { kind: "category"; categoryId: number } | { kind: "search"; query: string };

/**
 * A listing: one button per category (first page only), one per product (its card with 1 unit),
 * ◀ ▶ when there are other pages (pages from 1), then the way back when there is one.
 */
export function listingKeyboard(
  t: Translate,
  listing: {
    origin: ListingOrigin;
    categories?: readonly CategoryEntry[];
    products: readonly (CatalogEntry & { categoryId: number })[];
    page: number;
    pages: number;
    back?: { label: string; data: string } | undefined;
  },
): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  const { origin, page } = listing;
  for (const entry of listing.categories ?? [])
    keyboard
      .text(entry.label, callbacks.category.encode({ categoryId: entry.categoryId, page: 1 }))
      .row();
  for (const entry of listing.products) {
    // From a search, the card's way back is the product's own category.
    const from =
      origin.kind === "category"
        ? { categoryId: origin.categoryId, page }
        : { categoryId: entry.categoryId, page: 1 };
    keyboard
      .text(entry.label, callbacks.product.encode({ productId: entry.productId, qty: 1, ...from }))
      .row();
  }
  const pageData = (p: number) =>
    origin.kind === "category"
      ? callbacks.category.encode({ categoryId: origin.categoryId, page: p })
      : callbacks.searchPage.encode({ page: p, query: origin.query });
  if (page > 1) keyboard.text(t("btn-previous"), pageData(page - 1));
  if (page < listing.pages) keyboard.text(t("btn-next"), pageData(page + 1));
  if (page > 1 || page < listing.pages) keyboard.row();
  if (listing.back) keyboard.text(listing.back.label, listing.back.data);
  return keyboard;
}

/** The catalog's first screen: a button per top-level category, "Other products", the cart. */
export function categoriesKeyboard(
  t: Translate,
  entries: readonly CategoryEntry[],
  cartUnits: number,
): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const entry of entries)
    keyboard
      .text(entry.label, callbacks.category.encode({ categoryId: entry.categoryId, page: 1 }))
      .row();
  if (cartUnits > 0)
    keyboard.text(t("btn-cart", { units: cartUnits }), callbacks.menu.encode({ action: "cart" }));
  return keyboard;
}
