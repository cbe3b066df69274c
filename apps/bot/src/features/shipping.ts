// Physical goods' shipping step. Telegram sends a shipping_query once the buyer has typed an
// address into a flexible invoice's payment form; the answer is the shop's options for that
// country, from configuration alone (no database, no lock), so it is quick. No option: refused
// with a message that says nothing was charged. Also what a physical order's invoice asks for.
import { Composer } from "grammy";
import type { OrderView } from "@orderbot/core";
import type { ShippingOption } from "@orderbot/core/shipping";
import { formatMoney } from "@orderbot/conversation";
import { optionsFor } from "@orderbot/core/shipping";
import type { BotContext } from "../bot/context.ts";

/** The payment provider physical goods are sold through; null: they are shown, not sold. */
export interface ProviderSettings {
  token: string;
  currency: string;
}

/** What a physical order's invoice asks besides the shipping address (always asked). */
export interface InvoiceAsks {
  name: boolean;
  phone: boolean;
  email: boolean;
}

export interface ShippingFeatureDeps {
  options: readonly ShippingOption[];
}

/** Whether an order's goods are shipped (then it is paid through the provider, with shipping). */
export function isPhysical(order: Pick<OrderView, "items">): boolean {
  return order.items.some((item) => item.kind === "PHYSICAL");
}

export type InvoiceTerms =
  | { ok: true; providerToken: string; extra: Record<string, boolean> }
  /** physical-unavailable: no provider is configured; currency: the order's is not the invoice's. */
  | { ok: false; reason: "physical-unavailable" | "currency" };

/**
 * How an order is invoiced: digital goods for Stars (an empty token; Telegram ignores every
 * need_* field for them), physical goods through the provider, asking for an address and a
 * shipping option (is_flexible) and what the shop configured.
 */
export function invoiceTerms(
  order: Pick<OrderView, "items" | "currency">,
  provider: ProviderSettings | null,
  asks: InvoiceAsks,
): InvoiceTerms {
  if (!isPhysical(order))
    return order.currency === "XTR"
      ? { ok: true, providerToken: "", extra: {} }
      : { ok: false, reason: "currency" };
  if (!provider) return { ok: false, reason: "physical-unavailable" };
  if (order.currency !== provider.currency) return { ok: false, reason: "currency" };
  return {
    ok: true,
    providerToken: provider.token,
    extra: {
      need_name: asks.name,
      need_phone_number: asks.phone,
      need_email: asks.email,
      need_shipping_address: true,
      is_flexible: true,
    },
  };
}

export function shippingFeature(deps: ShippingFeatureDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.on("shipping_query", async (ctx) => {
    const query = ctx.shippingQuery;
    const country = query.shipping_address.country_code.toUpperCase();
    const offered = optionsFor(deps.options, country);
    // Only the country: the address is personal data.
    ctx.logger.info({ country, offered: offered.length }, "shipping query answered");
    if (offered.length === 0) {
      await ctx.answerShippingQuery(false, {
        error_message: ctx.t("shipping-not-to-country", { country }),
      });
      return;
    }
    await ctx.answerShippingQuery(true, {
      shipping_options: offered.map((option) => ({
        id: option.id,
        title: option.title,
        prices: [{ label: option.title, amount: option.price }],
      })),
    });
  });
  return feature;
}

/** "Courier (5.00 USD)": an option as an order's card and /order show it. */
export function optionLabel(
  options: readonly ShippingOption[],
  optionId: string,
  priceMinor: number,
  currency: string,
): string {
  const title = options.find((o) => o.id === optionId)?.title ?? optionId;
  return `${title} (${formatMoney(priceMinor, currency)})`;
}
