// The bot's settings that depend on each other: config.ts's schema runs these after each variable
// is valid on its own.
import { z } from "zod";
import { INVOICE_LIMITS } from "@orderbot/core/payments";

/** The variables the cross-field checks compare. */
export const CROSS_CHECKED = new Set([
  "BOT_MODE",
  "WEBHOOK_SECRET",
  "PUBLIC_URL",
  "PAYMENT_CURRENCY",
  "PROVIDER_TOKEN",
  "PROVIDER_CURRENCY",
  "SHIPPING_OPTIONS",
  "ORDER_MAX_TOTAL",
]);

/** The fields checkCrossFields reads, as the schema has parsed them. */
export interface CrossFields {
  BOT_MODE: "webhook" | "polling";
  WEBHOOK_SECRET?: string;
  PUBLIC_URL?: string;
  PAYMENT_CURRENCY: string;
  PROVIDER_TOKEN: string;
  PROVIDER_CURRENCY?: string;
  SHIPPING_OPTIONS: readonly unknown[];
  ORDER_MAX_TOTAL?: number;
}

/** One issue per rule broken: webhook needs, the retired currency, the provider's trio, the cap. */
export function checkCrossFields(c: CrossFields, ctx: z.RefinementCtx): void {
  if (c.BOT_MODE === "webhook") {
    if (!c.WEBHOOK_SECRET)
      ctx.addIssue({
        code: "custom",
        path: ["WEBHOOK_SECRET"],
        message: "is required when BOT_MODE=webhook",
      });
    if (!c.PUBLIC_URL)
      ctx.addIssue({
        code: "custom",
        path: ["PUBLIC_URL"],
        message: "is required when BOT_MODE=webhook",
      });
  }
  if (c.PAYMENT_CURRENCY !== "XTR") {
    ctx.addIssue({
      code: "custom",
      path: ["PAYMENT_CURRENCY"],
      message: `is replaced: digital goods are sold for Stars (XTR), physical goods through the provider; set PROVIDER_CURRENCY=${c.PAYMENT_CURRENCY} (with PROVIDER_TOKEN and SHIPPING_OPTIONS) and remove PAYMENT_CURRENCY`,
    });
  }
  if (c.PROVIDER_TOKEN !== "" && c.PROVIDER_CURRENCY === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["PROVIDER_CURRENCY"],
      message: "is required with PROVIDER_TOKEN: the currency physical goods are priced in",
    });
  }
  if (c.PROVIDER_TOKEN === "" && c.PROVIDER_CURRENCY !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["PROVIDER_TOKEN"],
      message: `is required with PROVIDER_CURRENCY=${c.PROVIDER_CURRENCY} (the token @BotFather gives for the provider)`,
    });
  }
  if (c.PROVIDER_TOKEN !== "" && c.SHIPPING_OPTIONS.length === 0) {
    ctx.addIssue({
      code: "custom",
      path: ["SHIPPING_OPTIONS"],
      message: "must list at least one option when physical goods are sold (PROVIDER_TOKEN)",
    });
  }
  // In Stars: the cap applies to every order, and Stars have the narrower invoice range.
  const invoice = INVOICE_LIMITS["XTR"];
  if (
    c.ORDER_MAX_TOTAL !== undefined &&
    invoice &&
    (c.ORDER_MAX_TOTAL < invoice.minMinor || c.ORDER_MAX_TOTAL > invoice.maxMinor)
  ) {
    ctx.addIssue({
      code: "custom",
      path: ["ORDER_MAX_TOTAL"],
      message: `must be ${invoice.minMinor}-${invoice.maxMinor}: what one XTR invoice may ask, in minor units`,
    });
  }
}
