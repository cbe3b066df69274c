// Every button the bot sends, in one place: what its data carries and how that is validated.
// Prefixes are one letter because Telegram allows 64 bytes of callback data.
import { SEARCH_MAX_PAGE } from "@orderbot/core/catalog";
import { FULFILMENT_STEPS } from "@orderbot/core/fulfilment";
import { LOCALES } from "../languages.ts";
import {
  chatIdField,
  countField,
  defineCallback,
  enumField,
  idField,
  pageField,
  pageFieldUpTo,
  publicIdField,
  quantityField,
  searchQueryField,
  settingValueField,
} from "./codec.ts";

export { CALLBACK_DATA_MAX_BYTES, type CallbackCodec } from "./codec.ts";
export { fitSearchQuery, SEARCH_QUERY_MAX_BYTES } from "./search-query.ts";

/** Group settings an operator can change from /settings (see features/operator/settings.ts). */
export const SETTING_KEYS = ["notifyPaidOrders", "lowStockThreshold", "language"] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

/** The main menu's buttons (keyboards/menu.ts) that no other codec covers. */
export const MENU_ACTIONS = ["cart", "orders", "help", "contact", "ask"] as const;

export const callbacks = {
  /**
   * A main-menu button: cart, my orders, help, "contact the shop" (asks for a question) and "ask
   * the shop" on the fallback reply (passes on the message it answers).
   */
  menu: defineCallback("m", { action: enumField(MENU_ACTIONS) }),
  /** Open one of the presser's orders: its card, with items, state and what happens next. */
  orderView: defineCallback("v", { orderId: publicIdField }),
  /** The catalog's first screen: its categories (or, in a shop without any, a page of products). */
  catalogPage: defineCallback("c", { page: pageField }),
  /** A page of one category: its subcategories, then its products (0: products in no category). */
  category: defineCallback("k", { categoryId: countField, page: pageField }),
  /** A page of search results; the query's words ride along (fitSearchQuery keeps them short). */
  searchPage: defineCallback("f", {
    page: pageFieldUpTo(SEARCH_MAX_PAGE),
    query: searchQueryField,
  }),
  /** A page of the operators' /products listing. */
  productsPage: defineCallback("pp", { page: pageField }),
  /**
   * A product card showing `qty` units; +/− re-render it with another qty. `categoryId` and `page`
   * are the listing it was opened from, for the way back (category 0: products in no category).
   */
  product: defineCallback("p", {
    productId: idField,
    qty: quantityField,
    categoryId: countField,
    page: pageField,
  }),
  /**
   * Reserve `qty` units. The order's idempotency key is derived from the pressed message and this
   * data, so a double tap (or a re-delivered update) finds the order the first tap placed.
   */
  order: defineCallback("o", {
    productId: idField,
    qty: quantityField,
    categoryId: countField,
    page: pageField,
  }),
  /**
   * Put the card's product in the cart: its line becomes `qty` units (what was in the cart plus
   * what the card picked), an absolute number, so a double tap adds nothing twice.
   */
  cartAdd: defineCallback("a", {
    productId: idField,
    qty: quantityField,
    categoryId: countField,
    page: pageField,
  }),
  /** On the cart: set a line to `quantity` units (−, +), 0 removes it. Absolute, as above. */
  cartSet: defineCallback("q", { productId: idField, quantity: countField }),
  /** Empty the cart drawn at `revision`. */
  cartEmpty: defineCallback("e", { revision: countField }),
  /**
   * Check out the cart as drawn at `revision`: one order of all its lines. The order's idempotency
   * key is the press (message and data); a cart changed since gets "here is your cart now".
   */
  checkout: defineCallback("b", { revision: countField }),
  /** Send the invoice for an order (the order must be the presser's own). */
  pay: defineCallback("y", { orderId: publicIdField }),
  /** Cancel an order (the order must be the presser's own). */
  cancel: defineCallback("x", { orderId: publicIdField }),
  /** Switch the interface language. */
  language: defineCallback("l", { locale: enumField(LOCALES) }),
  /**
   * Set a group setting to `value` (checked by the group service). `version` is the settings
   * version the button was drawn from: two admins pressing at once both send the same version,
   * and only the first one wins.
   */
  setting: defineCallback("s", {
    key: enumField(SETTING_KEYS),
    value: settingValueField,
    version: countField,
  }),
  /** /refunds: send a Stars refund Telegram refused again (the payment's row id). */
  refundRetry: defineCallback("rr", { paymentId: idField }),
  /** /refunds: mark a refund done by hand; the bot then asks for an optional note. */
  refundMark: defineCallback("rm", { paymentId: idField }),
  /** /refunds: an operator has checked a Stars ledger finding and resolves it (its row id). */
  findingResolve: defineCallback("fr", { findingId: idField }),
  /** /order: show the order's customer id to the admin who presses (a dialog only they see). */
  customerId: defineCallback("ci", { orderId: publicIdField }),
  /**
   * "Show phone" under a physical order's paid alert (notices/buttons.ts) and /order: the buyer's
   * full number to the admin who presses, recorded.
   */
  showPhone: defineCallback("ph", { orderId: publicIdField }),
  /**
   * Move a paid order to its next step (the paid alert's buttons: notices/buttons.ts, and
   * /order's). Shipping asks for a tracking note first.
   */
  fulfil: defineCallback("fm", {
    orderId: publicIdField,
    step: enumField(FULFILMENT_STEPS),
  }),
  /** /unbind's confirmation (owners only); carries the group so a copy elsewhere does nothing. */
  unbind: defineCallback("ub", { chatId: chatIdField }),
  /** /import's confirmation: the catalog file's message, which the dry run's reply answers. */
  catalogImport: defineCallback("im", { messageId: idField }),
} as const;
