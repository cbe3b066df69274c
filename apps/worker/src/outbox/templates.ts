import { formatMoney } from "@orderbot/core";

/**
 * The texts of `notify` outbox messages, rendered when they are sent: the outbox stores a template
 * name and its parameters, never a rendered text, so the words can change without touching queued
 * rows. Users get their language when the payload names one (`locale`), else the configured one.
 */
export type Locale = "en" | "zh";
export type Params = Record<string, string | number | undefined>;

const str = (v: string | number | undefined): string =>
  v === undefined || v === "" ? "?" : String(v);
const money = (p: Params): string => formatMoney(Number(p.amountMinor ?? 0), str(p.currency));

const REASONS: Record<Locale, Record<string, string>> = {
  en: {
    "late-out-of-stock": "the order had expired and its items were sold out",
    "already-paid": "the order was already paid",
    "amount-mismatch": "the amount did not match the order",
    "not-yours": "the order belongs to someone else",
    "unknown-order": "the order is unknown",
    operator: "an operator refunded the order",
    duplicate: "the payment was a duplicate",
  },
  zh: {
    "late-out-of-stock": "订单已过期且商品已售罄",
    "already-paid": "订单已支付过",
    "amount-mismatch": "金额与订单不符",
    "not-yours": "订单不属于您",
    "unknown-order": "找不到该订单",
    operator: "运营人员已为订单退款",
    duplicate: "重复支付",
  },
};
const reason = (locale: Locale, p: Params): string =>
  REASONS[locale][str(p.reason)] ?? str(p.reason);

/** What each kind of reconciliation finding means, in the operators' words. */
const LEDGER_FINDINGS: Record<Locale, Record<string, string>> = {
  en: {
    "charge-missing":
      "Telegram took a payment the shop never recorded; it is recorded now and refunded automatically",
    "payment-unknown-to-telegram": "the shop recorded a payment that Telegram does not list",
    "refund-only-in-telegram":
      "Telegram refunded a payment the shop had as paid; recorded as refunded",
    "refund-only-in-shop": "the shop has a refund that Telegram does not list",
    "amount-mismatch": "the amount Telegram took differs from the shop's record",
  },
  zh: {
    "charge-missing": "Telegram 收取了一笔本店未记录的付款；现已记录并将自动退款",
    "payment-unknown-to-telegram": "本店记录的一笔付款在 Telegram 账目中不存在",
    "refund-only-in-telegram": "Telegram 退回了一笔本店记为已支付的付款；已记为已退款",
    "refund-only-in-shop": "本店记录的一笔退款在 Telegram 账目中不存在",
    "amount-mismatch": "Telegram 收取的金额与本店记录不符",
  },
};

type Render = (p: Params, locale: Locale) => string;

const TEMPLATES: Record<string, Record<Locale, Render>> = {
  "order-expired": {
    en: (p) =>
      `Your reservation ${str(p.orderId)} has expired and its items are back on sale. Order again from /catalog.`,
    zh: (p) => `您的订单 ${str(p.orderId)} 预留已过期，商品已重新上架。可在 /catalog 重新下单。`,
  },
  "payment-received": {
    en: (p) => `Payment received: order ${str(p.orderId)} is paid. Thank you!`,
    zh: (p) => `已收到付款：订单 ${str(p.orderId)} 已支付。谢谢！`,
  },
  "order-refunded": {
    en: (p) => `Order ${str(p.orderId)} was refunded: ${money(p)}.`,
    zh: (p) => `订单 ${str(p.orderId)} 已退款：${money(p)}。`,
  },
  "payment-refunded": {
    en: (p, l) =>
      `Your payment of ${money(p)}${p.orderId ? ` for order ${str(p.orderId)}` : ""} could not be applied (${reason(l, p)}). It is refunded in full.`,
    zh: (p, l) =>
      `您${p.orderId ? `为订单 ${str(p.orderId)} ` : ""}支付的 ${money(p)} 无法入账（${reason(l, p)}），将全额退款。`,
  },
  "operator-order-paid": {
    en: (p) =>
      `Order ${str(p.orderId)} was paid${p.amountMinor !== undefined ? `: ${money(p)}` : ""}.`,
    zh: (p) =>
      `订单 ${str(p.orderId)} 已支付${p.amountMinor !== undefined ? `：${money(p)}` : ""}。`,
  },
  "operator-refund-needed": {
    en: (p, l) =>
      `Refund needed: ${money(p)}${p.orderId ? `, order ${str(p.orderId)}` : ""} (${reason(l, p)}). ` +
      (Number(p.automatic) === 1
        ? "Stars: the worker refunds it automatically."
        : "Refund it by hand with the payment provider."),
    zh: (p, l) =>
      `需要退款：${money(p)}${p.orderId ? `，订单 ${str(p.orderId)}` : ""}（${reason(l, p)}）。` +
      (Number(p.automatic) === 1 ? "Stars 付款：系统将自动退款。" : "请在支付服务商处手动退款。"),
  },
  "operator-ledger-finding": {
    en: (p) =>
      `Stars ledger check: ${LEDGER_FINDINGS.en[str(p.kind)] ?? str(p.kind)}. Charge ${str(p.telegramChargeId)}` +
      `${p.telegramAmount !== "" && p.telegramAmount !== undefined ? `, Telegram: ${str(p.telegramAmount)} XTR` : ""}` +
      `${p.shopAmount !== "" && p.shopAmount !== undefined ? `, shop: ${str(p.shopAmount)} XTR` : ""}. ` +
      "See /refunds.",
    zh: (p) =>
      `Stars 账目核对：${LEDGER_FINDINGS.zh[str(p.kind)] ?? str(p.kind)}。交易 ${str(p.telegramChargeId)}` +
      `${p.telegramAmount !== "" && p.telegramAmount !== undefined ? `，Telegram：${str(p.telegramAmount)} XTR` : ""}` +
      `${p.shopAmount !== "" && p.shopAmount !== undefined ? `，本店：${str(p.shopAmount)} XTR` : ""}。` +
      "详见 /refunds。",
  },
  "operator-refunded-outside": {
    en: (p) =>
      `Telegram reports a refund the shop did not make: ${money(p)}, charge ${str(p.telegramChargeId)}. ` +
      (!p.orderId
        ? "The shop had no record of this charge; it is recorded as refunded."
        : p.orderStatus === "REFUNDED"
          ? `Order ${str(p.orderId)} is now refunded and its items are back on sale.`
          : `Order ${str(p.orderId)} stays ${p.orderStatus === "FULFILLED" ? "fulfilled (it was delivered)" : str(p.orderStatus)}.`),
    zh: (p) =>
      `Telegram 通知了一笔非本店发起的退款：${money(p)}，交易 ${str(p.telegramChargeId)}。` +
      (!p.orderId
        ? "本店没有这笔交易的记录，已记为已退款。"
        : p.orderStatus === "REFUNDED"
          ? `订单 ${str(p.orderId)} 已改为已退款，商品已重新上架。`
          : `订单 ${str(p.orderId)} 保持${p.orderStatus === "FULFILLED" ? "已完成（已发货）" : str(p.orderStatus)}。`),
  },
  "operator-low-stock": {
    en: (p) =>
      Number(p.stock) === 0
        ? `Out of stock: ${str(p.titleEn)} (${str(p.sku)}).`
        : `Low stock: ${str(p.titleEn)} (${str(p.sku)}), ${str(p.stock)} left (threshold ${str(p.threshold)}).`,
    zh: (p) =>
      Number(p.stock) === 0
        ? `已售罄：${str(p.titleZh)}（${str(p.sku)}）。`
        : `库存不足：${str(p.titleZh)}（${str(p.sku)}），剩余 ${str(p.stock)}（阈值 ${str(p.threshold)}）。`,
  },
  "support-answer": {
    en: (p) => `The shop's answer to your request #${str(p.requestId)}:\n${str(p.text)}`,
    zh: (p) => `商店对您的请求 #${str(p.requestId)} 的回复：\n${str(p.text)}`,
  },
  "operator-support-request": {
    // The text last, as the customer wrote it; "(none)" for a bare /paysupport.
    en: (p) =>
      [
        `Support request #${str(p.requestId)} (/${str(p.topic)}) from ${str(p.customer)}`,
        `Recent orders:\n${p.orders ? str(p.orders) : "(none)"}`,
        `Message: ${p.text ? str(p.text) : "(none)"}`,
      ].join("\n"),
    zh: (p) =>
      [
        `客服请求 #${str(p.requestId)}（/${str(p.topic)}），来自 ${str(p.customer)}`,
        `最近的订单：\n${p.orders ? str(p.orders) : "（无）"}`,
        `留言：${p.text ? str(p.text) : "（无）"}`,
      ].join("\n"),
  },
  "operator-dead-letter": {
    en: (p) =>
      `Delivery failed for good: outbox message #${str(p.id)} (${str(p.method)}, ${str(p.dedupeKey)}) after ${str(p.attempts)} attempt(s): ${str(p.error)}`,
    zh: (p) =>
      `消息投递最终失败：outbox #${str(p.id)}（${str(p.method)}，${str(p.dedupeKey)}），共尝试 ${str(p.attempts)} 次：${str(p.error)}`,
  },
  "operator-daily-report": {
    en: (p) =>
      [
        `Daily report ${str(p.day)} (UTC)`,
        `Orders placed: ${str(p.placed)} · expired: ${str(p.expired)} · cancelled: ${str(p.cancelled)}`,
        `Revenue: ${str(p.revenue)}`,
        `Refunded: ${str(p.refunded)} · refunds pending: ${str(p.refundsPending)} · dead letters: ${str(p.deadLetters)}`,
        `Low stock: ${str(p.lowStock)}`,
      ].join("\n"),
    zh: (p) =>
      [
        `日报 ${str(p.day)}（UTC）`,
        `下单：${str(p.placed)} · 过期：${str(p.expired)} · 取消：${str(p.cancelled)}`,
        `收入：${str(p.revenue)}`,
        `已退款：${str(p.refunded)} · 待退款：${str(p.refundsPending)} · 死信：${str(p.deadLetters)}`,
        `低库存：${str(p.lowStock)}`,
      ].join("\n"),
  },
};

export class UnknownTemplateError extends Error {
  override name = "UnknownTemplateError";
  constructor(readonly template: string) {
    super(`unknown notification template: ${template}`);
  }
}

export function renderTemplate(template: string, params: Params, locale: Locale): string {
  const t = TEMPLATES[template];
  if (!t) throw new UnknownTemplateError(template);
  return t[locale](params, locale);
}
