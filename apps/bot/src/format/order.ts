import { formatMoney, type OrderView } from "@orderbot/core";
import type { Locale, Translate } from "./translate.ts";

/** Orders that can still be paid or cancelled. */
export function isOpen(order: Pick<OrderView, "status">): boolean {
  return order.status === "RESERVED" || order.status === "PAYING";
}

/**
 * A customer as the operator group sees them: the last four digits of the Telegram id, enough to
 * tell two customers of one listing apart, too little to find or message them.
 */
export function maskedCustomer(userId: bigint): string {
  return `••••${String(userId).slice(-4)}`;
}

/** "14:05 UTC" / "14:05 UTC": users' time zones are unknown, so the zone is always named. */
export function formatTime(date: Date, locale: Locale): string {
  return new Intl.DateTimeFormat(locale === "zh" ? "zh-CN" : "en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
    timeZoneName: "short",
  }).format(date);
}

export function formatDate(date: Date, locale: Locale): string {
  return new Intl.DateTimeFormat(locale === "zh" ? "zh-CN" : "en-GB", {
    dateStyle: "medium",
    timeZone: "UTC",
  }).format(date);
}

export function itemLines(
  t: Translate,
  order: Pick<OrderView, "items" | "currency">,
  locale: Locale,
): string {
  return order.items
    .map((item) =>
      t("order-item", {
        title: item.title[locale],
        qty: item.quantity,
        amount: formatMoney(item.unitPriceMinor * item.quantity, order.currency),
      }),
    )
    .join("\n");
}

/** The order message: number, items, total, state and, while it is open, until when it is held. */
export function orderText(t: Translate, order: OrderView, locale: Locale): string {
  const summary = t("order-summary", {
    id: order.id,
    items: itemLines(t, order, locale),
    total: formatMoney(order.totalMinor, order.currency),
    status: t(`status-${order.status}`),
  });
  return isOpen(order)
    ? `${summary}\n\n${t("order-reserved-until", { expires: formatTime(order.expiresAt, locale) })}`
    : summary;
}
