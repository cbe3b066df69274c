// Physical goods' shipping step. Telegram sends a shipping_query once the buyer has typed an
// address into a flexible invoice's payment form; the answer is the shop's options for that
// country, from configuration alone (no database, no lock), so it is quick. No option: refused
// with a message that says nothing was charged.
import { Composer } from "grammy";
import type { InvoiceSettings } from "@orderbot/core/payments";
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
export type InvoiceAsks = InvoiceSettings["asks"];

export interface ShippingFeatureDeps {
  options: readonly ShippingOption[];
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
