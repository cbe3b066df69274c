import type { OrderView } from "@orderbot/core";
import type { TimelineEntryView } from "@orderbot/core/fulfilment";
import { formatClock, formatDay } from "./time.ts";
import type { Locale, Translate } from "./translate.ts";

/** "2 Dec 2026 14:05 (Europe/Berlin)": when a step of an order happened, in the shop's zone. */
export function formatMoment(date: Date, locale: Locale, zone: string): string {
  return `${formatDay(date, locale, zone)} ${formatClock(date, locale, zone)}`;
}

/** Who made a move, as another operator reads it: the name they had in the group. */
export function whoText(t: Translate, entry: Pick<TimelineEntryView, "actorName">): string {
  return entry.actorName ?? t("op-fulfil-someone");
}

function line(t: Translate, entry: TimelineEntryView, locale: Locale, zone: string): string {
  const args = {
    when: formatMoment(entry.at, locale, zone),
    status: t(`status-${entry.to}`),
    hasNote: entry.note ? "yes" : "no",
    note: entry.note ?? "",
  };
  return t(entry.event === "refund" ? "order-timeline-refund" : "order-timeline-move", args);
}

/**
 * An order's history, for its card, /orders and the group's /order: one line per step once the
 * order is paid (the reservation's own steps are on the card already), or "" when there is none.
 */
export function timelineText(
  t: Translate,
  order: Pick<OrderView, "timeline">,
  locale: Locale,
  zone: string,
): string {
  const steps = (order.timeline ?? []).filter((e) => e.event === "refund" || e.to !== "PAYING");
  if (!steps.some((e) => e.to === "PAID")) return "";
  return [t("order-timeline-title"), ...steps.map((e) => line(t, e, locale, zone))].join("\n");
}
