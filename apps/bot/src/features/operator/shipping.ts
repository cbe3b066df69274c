// Physical goods for operators: `/kind SKU physical|digital [PRICE]`, a physical order's shipping
// in /order (the buyer's name, address, phone and e-mail masked), and "Show contact", which gives
// them in full to the admin who presses it, in a dialog nobody else sees, recorded with who and when.
import type { InlineKeyboard } from "grammy";
import { Composer, type CallbackQueryContext } from "grammy";
import { parseMoney, type OrderView } from "@orderbot/core";
import type { CatalogService } from "@orderbot/core/catalog";
import { type ShippingOption, type ShippingService } from "@orderbot/core/shipping";
import type { BotContext } from "../../bot/context.ts";
import { callbacks, formatMoney } from "@orderbot/conversation";
import { optionLabel } from "../shipping.ts";
import { alert } from "../support.ts";
import { actorOf, respond } from "./guard.ts";
import { knownSku } from "./sku.ts";
import { refusalText, requireRight } from "./rights.ts";

export const SHIPPING_COMMANDS = ["kind"] as const;

export interface OperatorShippingDeps {
  catalog: Pick<CatalogService, "all">;
  shipping: Pick<ShippingService, "revealPhone" | "setProductKind">;
  options: readonly ShippingOption[];
  /** PROVIDER_CURRENCY; none: physical goods are not sold. */
  providerCurrency: string | null;
  /** Owners: every right of core's rights table (@orderbot/core/rights). */
  ownerIds: readonly bigint[];
}

/** A physical order's shipping lines for /order (none for a digital order). */
export function shippingBlock(
  ctx: BotContext,
  order: OrderView,
  options: readonly ShippingOption[],
): string | null {
  const shipping = order.shipping;
  if (!shipping) return null;
  const to = [shipping.nameMasked, shipping.addressMasked].filter(Boolean).join(", ");
  return [
    ctx.t("order-shipping", {
      option: optionLabel(options, shipping.optionId, shipping.shippingMinor, order.currency),
    }),
    ...(to ? [ctx.t("order-ship-to", { to })] : []),
    ...(shipping.phoneMasked ? [ctx.t("order-ship-phone", { phone: shipping.phoneMasked })] : []),
    ...(shipping.emailMasked ? [ctx.t("order-ship-email", { email: shipping.emailMasked })] : []),
  ].join("\n");
}

/** Adds "Show contact" when the order has contact details. */
export function withShowPhone(ctx: BotContext, keyboard: InlineKeyboard, order: OrderView) {
  return order.shipping?.hasContact
    ? keyboard.text(ctx.t("btn-show-phone"), callbacks.showPhone.encode({ orderId: order.id }))
    : keyboard;
}

export function operatorShippingFeature(deps: OperatorShippingDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.callbackQuery(callbacks.showPhone.pattern, (ctx) => showContact(ctx, deps));
  feature.command("kind", (ctx) => kindCommand(ctx, deps));
  return feature;
}

/** "Show contact": the buyer's details in full, to the admin who pressed, recorded. */
async function showContact(ctx: CallbackQueryContext<BotContext>, deps: OperatorShippingDeps) {
  const data = callbacks.showPhone.decode(ctx.callbackQuery.data);
  if (!data) return ctx.answerCallbackQuery({ text: ctx.t("button-invalid") });
  const from = ctx.from;
  const result = await deps.shipping.revealPhone({
    orderId: data.orderId,
    operatorId: actorOf(ctx),
    operatorName: from.username ? `@${from.username}` : from.first_name,
  });
  if (result.status === "ok") {
    const { name, address, phone, email } = result.contact;
    const contact = [name, address, phone, email].filter(Boolean).join("\n");
    // A dialog holds 200 characters: a long address is cut there (alert() cuts).
    return alert(ctx, ctx.t("op-phone-shown", { id: data.orderId, contact }));
  }
  return respond(
    ctx,
    result.status === "no-contact"
      ? ctx.t("op-phone-none", { id: data.orderId })
      : ctx.t("order-not-found"),
  );
}

/** `/kind SKU physical|digital [PRICE]`. */
async function kindCommand(ctx: BotContext, deps: OperatorShippingDeps) {
  const [typed, kindWord, amount] = (typeof ctx.match === "string" ? ctx.match : "")
    .trim()
    .split(/\s+/);
  const kind =
    kindWord?.toLowerCase() === "physical"
      ? "PHYSICAL"
      : kindWord?.toLowerCase() === "digital"
        ? "DIGITAL"
        : null;
  const usage = () =>
    respond(ctx, ctx.t("op-kind-usage", { currency: deps.providerCurrency ?? "-" }));
  if (!typed || !kind) return usage();
  // A change of kind sets a price: the same right as /price.
  const actor = await requireRight(ctx, "kind", deps.ownerIds);
  if (!actor) return;
  if (kind === "PHYSICAL" && !deps.providerCurrency)
    return respond(ctx, ctx.t("op-kind-no-provider"));
  const currency = kind === "PHYSICAL" ? deps.providerCurrency! : "XTR";
  const sku = await knownSku(ctx, deps.catalog, typed);
  if (sku === null) return;
  const priceMinor = amount === undefined ? undefined : parseMoney(amount, currency);
  if (priceMinor === null) return usage();
  const result = await deps.shipping.setProductKind({
    sku,
    kind,
    currency,
    priceMinor,
    actor,
  });
  switch (result.status) {
    case "ok":
      return respond(
        ctx,
        ctx.t("op-kind-set", {
          sku: result.sku,
          kind: result.kind,
          price: formatMoney(result.priceMinor, result.currency),
        }),
      );
    case "price-required":
      return respond(
        ctx,
        ctx.t("op-kind-price", {
          sku: result.sku,
          priceCurrency: result.priceCurrency,
          currency,
          kind: kindWord!.toLowerCase(),
        }),
      );
    case "not-found":
      return respond(ctx, ctx.t("op-unknown-sku", { sku: typed }));
    case "conflict":
      return respond(ctx, ctx.t("op-busy"));
    case "invalid":
      return usage();
    case "forbidden":
      return respond(ctx, refusalText(ctx, result));
  }
}
