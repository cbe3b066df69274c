// Every button the bot sends, in one place: what its data carries and how that is validated.
// Prefixes are one letter because Telegram allows 64 bytes of callback data.
import { LOCALES } from "../format/translate.ts";
import {
  chatIdField,
  countField,
  defineCallback,
  enumField,
  idField,
  pageField,
  publicIdField,
  quantityField,
  settingValueField,
} from "./codec.ts";

export { CALLBACK_DATA_MAX_BYTES, type CallbackCodec } from "./codec.ts";

/** Group settings an operator can change from /settings (see features/operator/settings.ts). */
export const SETTING_KEYS = ["notifyPaidOrders", "lowStockThreshold", "language"] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export const callbacks = {
  /** A page of the catalog. */
  catalogPage: defineCallback("c", { page: pageField }),
  /** A page of the operators' /products listing. */
  productsPage: defineCallback("pp", { page: pageField }),
  /** A product card showing `qty` units; +/− re-render it with another qty. */
  product: defineCallback("p", { productId: idField, qty: quantityField, page: pageField }),
  /**
   * Reserve `qty` units. The order's idempotency key is derived from the pressed message and this
   * data, so a double tap (or a re-delivered update) finds the order the first tap placed.
   */
  order: defineCallback("o", { productId: idField, qty: quantityField, page: pageField }),
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
  /** /unbind's confirmation (owners only); carries the group so a copy elsewhere does nothing. */
  unbind: defineCallback("ub", { chatId: chatIdField }),
} as const;
