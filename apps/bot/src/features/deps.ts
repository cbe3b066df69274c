import type { LanguagePreferences, LowStockAlerts, Reports, Shop } from "@orderbot/core";

/** The services and settings the features are built from; each feature takes the part it uses. */
export interface FeatureDeps {
  shop: Pick<
    Shop,
    | "catalog"
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
    | "orderMessages"
  >;
  /** SHOP_TIME_ZONE: absolute times are shown in it, with its name (UTC when unset). */
  shopTimeZone?: string;
  languages: LanguagePreferences;
  lowStock: LowStockAlerts;
  reports: Reports;
  payments: {
    /** Invoices are sent in the order's currency; this is the one the provider token is for. */
    currency: string;
    /** Empty for Telegram Stars. */
    providerToken: string;
  };
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
