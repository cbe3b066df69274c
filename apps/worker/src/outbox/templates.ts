import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { FluentBundle, FluentResource, type FluentVariable } from "@fluent/bundle";
import { formatMoney } from "@orderbot/core";
import { LOCALES, LOCALES_DIR, type Locale } from "@orderbot/locales";

/**
 * The texts of `notify` outbox messages, rendered when they are sent: the outbox stores a template
 * name and its parameters, so the words can change without touching queued rows. A parameter may
 * be text rendered when queued: confirm-payment stores the items in both languages (`itemsEn`,
 * `itemsZh`), and the group's language picks one when sent. The words are the bot's own: the same Fluent files of @orderbot/locales, where each
 * template is the message of the same name, so a state has one name in the bot and the worker.
 * Users get the language stored with them (the payload's `locale`), else the configured one.
 */
export type { Locale };
export type Params = Record<string, string | number | undefined>;

function loadBundle(locale: Locale): FluentBundle {
  // No Unicode isolation marks around values: they show up as stray characters in some clients.
  const bundle = new FluentBundle(locale, { useIsolating: false });
  const dir = path.join(LOCALES_DIR, locale);
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".ftl"))
    .sort()) {
    const errors = bundle.addResource(
      new FluentResource(readFileSync(path.join(dir, file), "utf8")),
    );
    if (errors.length > 0) throw new Error(`${locale}/${file}: ${errors[0]!.message}`);
  }
  return bundle;
}

let bundles: Map<Locale, FluentBundle> | undefined;
/** Read once, at the first message: the files ship with the code. */
function bundleOf(locale: Locale): FluentBundle {
  bundles ??= new Map(LOCALES.map((l) => [l, loadBundle(l)]));
  return bundles.get(locale)!;
}

/** A message of the bundle; throws for a missing one so that no half-rendered text is sent. */
function format(locale: Locale, id: string, args: Record<string, FluentVariable>): string {
  const bundle = bundleOf(locale);
  const pattern = bundle.getMessage(id)?.value;
  if (!pattern) throw new UnknownTemplateError(id);
  const errors: Error[] = [];
  const text = bundle.formatPattern(pattern, args, errors);
  if (errors.length > 0) throw new Error(`${locale}/${id}: ${errors[0]!.message}`);
  return text;
}

/** Looks a word up in the glossary, or shows the raw value when it has none. */
function word(locale: Locale, id: string, fallback: string): string {
  return bundleOf(locale).hasMessage(id) ? format(locale, id, {}) : fallback;
}

const present = (v: string | number | undefined): boolean => v !== undefined && v !== "";
const text = (v: string | number | undefined): string => (present(v) ? String(v) : "");
const yes = (v: boolean): string => (v ? "yes" : "no");

/**
 * The Fluent arguments of a notice: its parameters as text (ids are not numbers to group), plus
 * what the messages select on and the words looked up in the glossary.
 */
function argsOf(p: Params, locale: Locale): Record<string, FluentVariable> {
  const args: Record<string, FluentVariable> = {};
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
    items: text(locale === "zh" ? (p.itemsZh ?? p.items) : (p.itemsEn ?? p.items)),
    hasItems: yes(present(p.items) || present(p.itemsEn)),
    hasCustomer: yes(present(p.customer)),
    orders: text(p.orders) ? recentOrders(locale, text(p.orders)) : none,
    text: text(p.text) || none,
    zone: text(p.zone) || "UTC",
    // payment-received: whether codes were delivered ("no" for a notice queued before codes were).
    hasCodes: yes(text(p.hasCodes) === "yes"),
  };
}

/** Core's "ID STATUS AMOUNT" lines, with each state in the glossary's word: "ID · paid · 50 ⭐". */
function recentOrders(locale: Locale, lines: string): string {
  return lines
    .split("\n")
    .map((line) =>
      line.replace(
        /^(\S+) ([A-Z_]+) (.*)$/,
        (_, id: string, status: string, amount: string) =>
          `${id} · ${word(locale, `status-${status}`, status)} · ${amount}`,
      ),
    )
    .join("\n");
}

export class UnknownTemplateError extends Error {
  override name = "UnknownTemplateError";
  constructor(readonly template: string) {
    super(`unknown notification template: ${template}`);
  }
}

/** Whether `template` has a text in every language (the relay refuses a row that has none). */
export function hasTemplate(template: string): boolean {
  return LOCALES.every((locale) => bundleOf(locale).hasMessage(template));
}

export function renderTemplate(template: string, params: Params, locale: Locale): string {
  if (!/^[a-z][a-z-]*$/.test(template) || !bundleOf(locale).hasMessage(template))
    throw new UnknownTemplateError(template);
  return format(locale, template, argsOf(params, locale));
}
