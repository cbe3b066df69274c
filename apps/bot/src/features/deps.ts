import type { Shop } from "@orderbot/core";
import type { LanguagePreferences, OrderMessages, ReplyPrompts } from "@orderbot/conversation";
import type { Reports } from "@orderbot/core/reports";
import type { ShippingOption } from "@orderbot/core/shipping";
import type { InvoiceAsks, ProviderSettings } from "./shipping.ts";

/** The services and settings the features are built from; each feature takes the part it uses. */
export interface FeatureDeps {
  shop: Pick<
    Shop,
    | "catalog"
    | "importCatalog"
    | "categories"
    | "cart"
    | "photos"
    | "orders"
    | "fulfilment"
    | "payments"
    | "ledger"
    | "stock"
    | "groups"
    | "outbox"
    | "support"
    | "promotions"
    | "delivery"
    | "shipping"
  >;
  /** SHOP_TIME_ZONE: absolute times are shown in it, with its name (UTC when unset). */
  shopTimeZone?: string;
  languages: LanguagePreferences;
  /** The replies operators were asked for by force_reply: a plain message instead gets a hint. */
  replyPrompts: ReplyPrompts;
  /** The messages showing each order in its chat: the card and the one live invoice. */
  orderMessages: OrderMessages;
  reports: Reports;
  /** Digital goods are paid in Stars; physical goods through `provider` (null: not sold). */
  payments: {
    provider: ProviderSettings | null;
    /** What a physical order's invoice asks besides the address. */
    asks: InvoiceAsks;
    /** INVOICE_NONCE: each invoice's payload carries a nonce (invoice-payload.ts in core). */
    nonce: boolean;
    /** PAYMENT_GRACE_MS: how long a payment in flight holds an order past its reservation. */
    paymentGraceMs: number;
  };
  /** Physical goods' shipping options (SHIPPING_OPTIONS). */
  shippingOptions: readonly ShippingOption[];
  operators: {
    /** Who may bind a group with /bind, unbind it, and refund without an admin right. */
    ownerIds: readonly bigint[];
    /** When set, the only group that may be bound. */
    groupId: bigint | undefined;
    /** The log's stand-in for a Telegram id (who revealed a customer id). */
    mask: (id: bigint | number) => string;
  };
  /** /terms and /paysupport: SHOP_TERMS and SHOP_SUPPORT_CONTACT (empty: the defaults). */
  shopInfo: { terms: string; contact: string };
  catalogPageSize: number;
  /** Units per order line the order service accepts (the card's + stops there). */
  maxUnitsPerLine: number;
}
