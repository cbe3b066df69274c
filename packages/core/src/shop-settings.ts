// The shop's rules as the environment sets them. The bot and the worker both read this one shape,
// so each setting is parsed in one place and means the same in every process: the grace a payment
// in flight gets is the one the bot's pre-checkout holds for and the one the worker's expiry waits.
import { z } from "zod";
import { telegramIds } from "@orderbot/platform";
import { FIXED_RULES, type CoreConfig } from "./config.ts";
import { shippingOptionsSchema } from "./shipping/options.ts";

/** SHIPPING_OPTIONS' JSON, checked against the shipping options' schema; one issue per problem. */
function parseShippingOptions(text: string, ctx: z.RefinementCtx) {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    ctx.addIssue({ code: "custom", message: "must be JSON: a list of shipping options" });
    return z.NEVER;
  }
  const parsed = shippingOptionsSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues)
    ctx.addIssue({
      code: "custom",
      message: `${issue.path.length ? `[${issue.path.join(".")}] ` : ""}${issue.message}`,
    });
  return z.NEVER;
}

const count = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** The shop's settings; docs/configuration.md lists them under "Bot and worker". */
export const shopSettingsShape = {
  OPERATOR_GROUP_ID: z
    .string()
    .regex(/^-\d+$/, "must be a group chat id (negative number)")
    .transform(BigInt)
    .optional()
    .describe(
      "The operator group's chat id: the only group /bind accepts; alerts, dead letters and manual refunds go there too.",
    ),
  OWNER_IDS: telegramIds.describe(
    "Telegram user ids (comma-separated) allowed to /bind the operator group; told in private when a message to the operators dies.",
  ),
  SHIPPING_OPTIONS: z
    .string()
    .default("[]")
    .transform(parseShippingOptions)
    .describe(
      'Physical goods\' shipping options, JSON: [{"id","title","price","countries"}]; price in minor units, countries ISO codes or "*".',
    ),
  RESERVATION_MINUTES: count(1, 24 * 60)
    .default(15)
    .describe("How long an order holds its stock before the worker expires it (minutes)."),
  RESERVATION_SECONDS: count(1, 24 * 3600)
    .optional()
    .describe("The same in seconds, replacing RESERVATION_MINUTES when set (demos, chaos runs)."),
  ORDER_MAX_LINES: count(1, 50)
    .default(10)
    .describe("Different products (lines) in one order or cart."),
  ORDER_MAX_UNITS_PER_LINE: count(1, 99)
    .default(10)
    .describe("Units of one product per order (two digits: the card's quantity buttons)."),
  ORDER_MAX_TOTAL: count(1, 2_147_483_647)
    .optional()
    .describe(
      "Largest order total in minor units, within one Stars invoice's range; unset: that range.",
    ),
  ORDER_MAX_UNPAID_SHARE: z.coerce
    .number()
    .gt(0)
    .max(1)
    .default(0.5)
    .describe(
      "Against hoarding: the share of a product's unsold units unpaid orders may hold; 1: no cap.",
    ),
  ORDER_MAX_PAYING_EXTENSIONS: count(0, 100)
    .default(3)
    .describe("How many times pre-checkout may extend a PAYING order's hold."),
  PAYMENT_GRACE_MS: count(1000, 3_600_000)
    .default(5 * 60_000)
    .describe(
      "A payment in flight's grace (ms): pre-checkout holds a PAYING order this long; the worker expires it this long after its expiry.",
    ),
  PAYMENT_NOTICE_DELAY_MS: count(1000, 600_000)
    .default(20_000)
    .describe(
      "How long a payment's \"payment received\" waits for the bot's own reply (ms); then the worker sends it.",
    ),
};

export const shopSettingsSchema = z.object(shopSettingsShape);

export type ShopSettings = z.output<typeof shopSettingsSchema>;

/** Core's configuration from the shop's settings and the process's LOCK_HASH_KEY. */
export function shopConfigOf(settings: ShopSettings & { LOCK_HASH_KEY: string }): CoreConfig {
  return {
    ...FIXED_RULES,
    maskKey: settings.LOCK_HASH_KEY,
    reservationTtlMs: (settings.RESERVATION_SECONDS ?? settings.RESERVATION_MINUTES * 60) * 1000,
    paymentGraceMs: settings.PAYMENT_GRACE_MS,
    paymentNoticeDelayMs: settings.PAYMENT_NOTICE_DELAY_MS,
    maxLines: settings.ORDER_MAX_LINES,
    maxUnitsPerLine: settings.ORDER_MAX_UNITS_PER_LINE,
    maxUnpaidShare: settings.ORDER_MAX_UNPAID_SHARE,
    maxPayingExtensions: settings.ORDER_MAX_PAYING_EXTENSIONS,
    shippingOptions: settings.SHIPPING_OPTIONS,
    ...(settings.ORDER_MAX_TOTAL === undefined
      ? {}
      : { maxOrderTotalMinor: settings.ORDER_MAX_TOTAL }),
    ...(settings.OPERATOR_GROUP_ID === undefined
      ? {}
      : { fallbackOperatorChatId: settings.OPERATOR_GROUP_ID }),
  };
}

/**
 * The shop's rules with every setting at the environment's default: what a test or a benchmark
 * builds a shop with, so that it runs the rules production runs (the hoarding cap included).
 */
export function defaultShopConfig(maskKey: string): CoreConfig {
  return shopConfigOf({ ...shopSettingsSchema.parse({}), LOCK_HASH_KEY: maskKey });
}
