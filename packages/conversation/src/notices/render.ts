// The texts of the outbox's `notify` rows, rendered when they are sent: a row stores what happened
// (a template named after the event, and its ids and facts), never words, so a notice is in its
// recipient's language as it is when sent, and the words can change under queued rows. Facts that
// live with the order (a paid order's items and shipping) are read from it when sent.
import type { OrderView } from "@orderbot/core";
import { formatMoney } from "../money/format-money.ts";
import type { ShippingOption } from "@orderbot/core/shipping";
import { LOCALES, type Locale } from "../languages.ts";
import { CARD_WAY_BACK, fulfilmentButtons, showPhoneButton, type NoticeButton } from "./buttons.ts";
import { format, hasMessage, UnknownTemplateError, word, type Args } from "./fluent.ts";
import { paidOrderLines } from "./paid-order.ts";

export { UnknownTemplateError };
export type Params = Record<string, string | number | undefined>;

/** What a notice is rendered from besides its row: read by the relay when it sends it. */
export interface NoticeFacts {
  /** The order an `operator-order-paid` alert announces, or an `order-card` shows (ORDER_TEMPLATES). */
  order?: OrderView | null;
  /** SHIPPING_OPTIONS: the titles of a paid order's shipping option. */
  shippingOptions?: readonly ShippingOption[];
}

/** The notice that edits the order's card in place, when a card shows the order. */
export const CARD_TEMPLATE = "order-card";

/** Templates whose text reads the order (by `params.orderId`): the relay loads it first. */
export const ORDER_TEMPLATES: ReadonlySet<string> = new Set(["operator-order-paid", CARD_TEMPLATE]);

export interface RenderedNotice {
  text: string;
  /** One row of buttons, labelled in the recipient's language; none: no keyboard. */
  buttons?: { text: string; callback_data: string }[];
}

const present = (v: string | number | undefined): boolean => v !== undefined && v !== "";
const text = (v: string | number | undefined): string => (present(v) ? String(v) : "");
const yes = (v: boolean): string => (v ? "yes" : "no");

/**
 * The Fluent arguments of a notice: its parameters as text (ids are not numbers to group), plus
 * what the messages select on and the words looked up in the glossary.
 */
function argsOf(p: Params, locale: Locale, facts: NoticeFacts): Args {
  const args: Args = {};
  for (const [key, value] of Object.entries(p)) if (value !== undefined) args[key] = String(value);
  const none = word(locale, "operator-none", "-");
  const amount = (minor: string | number | undefined) =>
    formatMoney(Number(minor ?? 0), text(p.currency) || "XTR");
  return {
    ...args,
    // An order's id; a dead letter's own number when there is no order.
    id: text(p.orderId ?? p.id),
    hasOrder: yes(present(p.orderId)),
    hasAmount: yes(present(p.amountMinor)),
    amount: amount(p.amountMinor),
    reason: word(locale, `refund-reason-${text(p.reason)}`, text(p.reason)),
    automatic: yes(Number(p.automatic) === 1),
    charge: text(p.telegramChargeId),
    finding: word(locale, `finding-${text(p.kind)}`, text(p.kind)),
    telegramAmount: present(p.telegramAmount)
      ? format(locale, "operator-ledger-telegram", { amount: amount(p.telegramAmount) })
      : "",
    shopAmount: present(p.shopAmount)
      ? format(locale, "operator-ledger-shop", { amount: amount(p.shopAmount) })
      : "",
    outcome: !present(p.orderId) ? "no-order" : p.orderStatus === "REFUNDED" ? "refunded" : "kept",
    // An order state in the glossary's one word for it (status-* in orders.ftl).
    status: word(
      locale,
      `status-${text(p.orderStatus ?? p.status)}`,
      text(p.orderStatus ?? p.status),
    ),
    out: yes(Number(p.stock) === 0),
    title: text(locale === "zh" ? p.titleZh : p.titleEn),
    items: paidItems(p, locale, facts),
    hasItems: yes(Boolean(facts.order)),
    hasCustomer: yes(present(p.customer)),
    orders: text(p.orders) ? recentOrders(locale, text(p.orders)) : none,
    text: text(p.text) || none,
    zone: text(p.zone) || "UTC",
    // payment-received: whether codes were delivered ("no" for a notice queued before codes were).
    hasCodes: yes(text(p.hasCodes) === "yes"),
  };
}

/**
 * Core's "ID STATUS MINOR CURRENCY" lines in the group's words: "ID · paid · 50 ⭐". A row queued
 * before amounts came as data carries the amount as text ("50 ⭐"): shown as it is.
 */
function recentOrders(locale: Locale, lines: string): string {
  return lines
    .split("\n")
    .map((line) =>
      line.replace(/^(\S+) ([A-Z_]+) (.*)$/, (_, id: string, status: string, amount: string) => {
        const money = /^(\d+) ([A-Z]{3})$/.exec(amount);
        const shown = money ? formatMoney(Number(money[1]), money[2]!) : amount;
        return `${id} · ${word(locale, `status-${status}`, status)} · ${shown}`;
      }),
    )
    .join("\n");
}

/** A paid order's lines (items, shipping, the masked tails of its codes), when it was read. */
function paidItems(p: Params, locale: Locale, facts: NoticeFacts): string {
  if (!facts.order) return "";
  const tails = text(p.codeTails);
  return paidOrderLines(
    facts.order,
    facts.shippingOptions ?? [],
    tails ? tails.split(", ") : [],
    locale,
  );
}

/** The buttons a notice carries: a paid order's next steps, a card's way back. */
function buttonsOf(template: string, p: Params, facts: NoticeFacts): readonly NoticeButton[] {
  const orderId = text(p.orderId);
  if (template === CARD_TEMPLATE) return CARD_WAY_BACK;
  if (template !== "operator-order-paid" || !orderId) return [];
  const contact = facts.order?.shipping?.hasContact ? [showPhoneButton(orderId)] : [];
  return [...fulfilmentButtons(orderId, "PAID"), ...contact];
}

/** Whether `template` has a text in every language (the relay refuses a row that has none). */
export function hasTemplate(template: string): boolean {
  return LOCALES.every((locale) => hasMessage(locale, template));
}

export function renderNotice(
  template: string,
  params: Params,
  locale: Locale,
  facts: NoticeFacts = {},
): RenderedNotice {
  if (!/^[a-z][a-z-]*$/.test(template) || !hasMessage(locale, template))
    throw new UnknownTemplateError(template);
  // A card shows the order as it is now: it may have moved on since the event was queued.
  const current =
    template === CARD_TEMPLATE && facts.order ? { ...params, status: facts.order.status } : params;
  const text = format(locale, template, argsOf(current, locale, facts));
  const buttons = buttonsOf(template, params, facts).map((b) => ({
    text: format(locale, b.label, {}),
    callback_data: b.data,
  }));
  return buttons.length > 0 ? { text, buttons } : { text };
}
