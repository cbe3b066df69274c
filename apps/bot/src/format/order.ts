import type { OrderView } from "@orderbot/core";
import { formatMoney } from "@orderbot/conversation";
import { formatClock, formatDay, formatDuration, UTC_SHOP_TIME, type ShopTime } from "./time.ts";
import { orderPromoLines } from "./promo.ts";
import { timelineText } from "./timeline.ts";
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

/** "14:05 (Europe/Berlin)": users' time zones are unknown, so the shop's zone is always named. */
export function formatTime(date: Date, locale: Locale, zone = UTC_SHOP_TIME.zone): string {
  return formatClock(date, locale, zone);
}

export function formatDate(date: Date, locale: Locale, zone = UTC_SHOP_TIME.zone): string {
  return formatDay(date, locale, zone);
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

/**
 * The order message: number, items, total, state and what happens next: while it is open, how
 * long it is held and until when (in the shop's named zone).
 */
export function orderText(
  t: Translate,
  order: OrderView,
  locale: Locale,
  time: ShopTime = UTC_SHOP_TIME,
): string {
  const summary = t("order-summary", {
    id: order.id,
    // With its promo code's discount under the items: the total is already after it.
    items: [itemLines(t, order, locale), ...orderPromoLines(t, order)].join("\n"),
    total: formatMoney(order.totalMinor, order.currency),
    status: t(`status-${order.status}`),
  });
  const history = timelineText(t, order, locale, time.zone);
  return [summary, nextStep(t, order, locale, time), ...(history ? [history] : [])].join("\n\n");
}

function nextStep(t: Translate, order: OrderView, locale: Locale, time: ShopTime): string {
  if (isOpen(order))
    return t("order-reserved-until", {
      left: formatDuration(t, order.expiresAt.getTime() - time.now().getTime()),
      expires: formatTime(order.expiresAt, locale, time.zone),
    });
  return FINAL_STATES.has(order.status) ? t("order-next-closed") : t("order-next-paid");
}

/** States after which nothing more happens to an order; any other paid state is on its way. */
const FINAL_STATES: ReadonlySet<string> = new Set([
  "CANCELLED",
  "EXPIRED",
  "REFUNDED",
  "DELIVERED",
]);
