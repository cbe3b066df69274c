// The bot's configuration: read from the environment once, here and nowhere else, validated, and
// passed down explicitly. Invalid configuration stops the process with one line per problem.
import path from "node:path";
import { z } from "zod";
import { INVOICE_LIMITS, shippingOptionsSchema } from "@orderbot/core";
import {
  DEVELOPMENT_ONLY_SETTINGS,
  loadEnvFiles,
  parseConfig,
  port,
  redisTopologyShape,
  sharedConfigShape,
  telegramIds,
  withLockNamespace,
} from "@orderbot/platform";

/** The variables the cross-field checks below compare. */
const CROSS_CHECKED = new Set([
  "BOT_MODE",
  "WEBHOOK_SECRET",
  "PUBLIC_URL",
  "PAYMENT_CURRENCY",
  "PROVIDER_TOKEN",
  "PROVIDER_CURRENCY",
  "SHIPPING_OPTIONS",
  "ORDER_MAX_TOTAL",
]);

/** "true"/"false" (also 1/0, yes/no) as a boolean. */
const flag = z
  .enum(["true", "false", "1", "0", "yes", "no"], { error: "must be true or false" })
  .transform((value) => value === "true" || value === "1" || value === "yes");

const schema = z
  .object({
    ...sharedConfigShape,
    ...redisTopologyShape,
    BOT_TOKEN: z
      .string({ error: "is required: the bot's token from @BotFather" })
      .regex(/^\d+:[A-Za-z0-9_-]{20,}$/, "must look like 123456:ABC-DEF... (from @BotFather)"),
    BOT_MODE: z.enum(["webhook", "polling"]).default("polling"),
    /** Another Bot API server (a local one, or @orderbot/fake-telegram); Telegram's when unset. */
    TELEGRAM_API_ROOT: z.url().optional(),
    /**
     * Whoever holds it can post forged updates, a successful_payment among them, so it must not
     * be guessable: 32 characters of Telegram's set are about 192 bits (`openssl rand -hex 32`).
     */
    WEBHOOK_SECRET: z
      .string()
      .regex(
        /^[A-Za-z0-9_-]{32,256}$/,
        "must be 32-256 characters of A-Z a-z 0-9 _ - (generate one with: openssl rand -hex 32)",
      )
      .optional(),
    /** Public HTTPS base URL Telegram posts webhooks to, e.g. https://shop.example.com */
    PUBLIC_URL: z.url().optional(),
    HOST: z.string().default("127.0.0.1"),
    PORT: port.default(8080),
    /** Serve /metrics on a port of its own (not exposed publicly) ... */
    METRICS_PORT: port.optional(),
    /** ... or on the main port behind `Authorization: Bearer <token>`. */
    METRICS_TOKEN: z.string().min(16).optional(),
    /** Largest webhook body accepted (bytes); Telegram's updates are far smaller. */
    WEBHOOK_BODY_LIMIT: z.coerce.number().int().min(1024).default(1_048_576),
    OPERATOR_GROUP_ID: z
      .string()
      .regex(/^-\d+$/, "must be a group chat id (negative number)")
      .transform(BigInt)
      .optional(),
    /** Users allowed to bind an operator group to the shop. */
    OWNER_IDS: telegramIds,
    /**
     * Replaced by the two kinds of goods (docs/architecture.md): digital goods are always sold for
     * Telegram Stars, physical goods through PROVIDER_TOKEN in PROVIDER_CURRENCY. Still accepted as
     * XTR so that older env files keep working; any other value says what to set instead.
     */
    PAYMENT_CURRENCY: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .default("XTR"),
    /** Payment provider token (@BotFather, Payments) for physical goods; empty: none sold. */
    PROVIDER_TOKEN: z.string().default(""),
    /** The provider's currency (ISO 4217, e.g. USD): physical products are priced in it. */
    PROVIDER_CURRENCY: z
      .string()
      .regex(/^[A-Z]{3}$/, "must be a 3-letter ISO 4217 code, e.g. USD")
      .refine((code) => code !== "XTR", "must be a provider's currency, not XTR (Stars)")
      .optional(),
    /** What a physical order's invoice asks besides the shipping address (always asked). */
    INVOICE_NEED_NAME: flag.default(true),
    INVOICE_NEED_PHONE: flag.default(true),
    INVOICE_NEED_EMAIL: flag.default(false),
    /**
     * Physical goods' shipping options, as JSON: [{"id":"post","title":"Post","price":900,
     * "countries":"*"}, ...]; price in minor units of PROVIDER_CURRENCY, countries ISO 3166-1
     * alpha-2 codes or "*". A shipping_query is answered with those that ship to the address.
     */
    SHIPPING_OPTIONS: z
      .string()
      .default("[]")
      .transform((text, ctx) => {
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
      }),
    RESERVATION_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(15),
    /** Reservation length in seconds; replaces RESERVATION_MINUTES when set (demos, chaos runs). */
    RESERVATION_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 3600)
      .optional(),
    /** Checkout limits: products (lines) per order and cart, units of one product per order. */
    ORDER_MAX_LINES: z.coerce.number().int().min(1).max(50).default(10),
    /** At most 99: a product card's quantity buttons count to two digits. */
    ORDER_MAX_UNITS_PER_LINE: z.coerce.number().int().min(1).max(99).default(10),
    /**
     * The largest order total, in minor units of the order's currency (Stars, or cents of
     * PROVIDER_CURRENCY); unset: what one invoice of that currency may ask. Checked against the
     * Stars invoice range below.
     */
    ORDER_MAX_TOTAL: z.coerce.number().int().min(1).optional(),
    /**
     * Against stock hoarding (docs/business-rules.md): the share of a product's unsold units that
     * unpaid orders may hold together (0-1, 1 = no cap), and how many times pre-checkout may
     * extend a PAYING order's hold.
     */
    ORDER_MAX_UNPAID_SHARE: z.coerce.number().gt(0).max(1).default(0.5),
    ORDER_MAX_PAYING_EXTENSIONS: z.coerce.number().int().min(0).max(100).default(3),
    /** Per-user rate limit: updates allowed per window. */
    RATE_LIMIT_PER_WINDOW: z.coerce.number().int().min(1).default(30),
    RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(100).default(10_000),
    /** Telegram's window for a group's 20 messages, shared with the worker (ms); tests shorten it. */
    GROUP_RATE_WINDOW_MS: z.coerce.number().int().min(1000).default(60_000),
    /**
     * Polling: a failing update runs again after a pause doubling from POLL_RETRY_BASE_MS up to
     * POLL_RETRY_MAX_MS, and is skipped after POLL_RETRY_MAX_ATTEMPTS failures (never one that
     * carries money). The defaults span about three minutes; tests make the window short.
     */
    POLL_RETRY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(1000).default(12),
    POLL_RETRY_BASE_MS: z.coerce.number().int().min(10).default(500),
    POLL_RETRY_MAX_MS: z.coerce.number().int().min(10).default(30_000),
    /**
     * /terms: the shop's terms of sale, as one text (\n for a line break). Empty: the built-in
     * terms, in the user's language. At most 3500 characters (one Telegram message).
     */
    SHOP_TERMS: z
      .string()
      .max(3500)
      .default("")
      .transform((text) => text.replace(/\\n/g, "\n").trim()),
    /** /paysupport: another way to reach the shop (an @username, an e-mail), shown to the buyer. */
    SHOP_SUPPORT_CONTACT: z
      .string()
      .max(200)
      .default("")
      .transform((text) => text.trim()),
  })
  .superRefine(
    (c, ctx) => {
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
    },
    {
      // Also when other variables are invalid, so that every problem is reported in one go; only
      // not when the variables compared here are themselves invalid.
      when: (payload) =>
        !payload.issues.some((issue) => CROSS_CHECKED.has(String(issue.path?.[0]))),
    },
  )
  .transform(withLockNamespace);

export type BotConfig = z.infer<typeof schema> & {
  /**
   * Whether BOT_MODE was set in the environment or `.env`, not only defaulted: polling may take a
   * webhook away (deleteWebhook) only when someone chose it.
   */
  botModeChosen: boolean;
};

/** Polling is `.env.example`'s mode for development: production must choose its mode. */
const DEVELOPMENT_ONLY = [...DEVELOPMENT_ONLY_SETTINGS, "BOT_MODE"];

/**
 * Validates an environment; throws ConfigError listing every problem. `defaulted`: the names whose
 * value came from `.env.example` alone (from `loadEnvFiles`); none when the caller passes a
 * complete environment, as tests do.
 */
export function parseBotConfig(
  env: Record<string, string | undefined>,
  defaulted: ReadonlySet<string> = new Set(),
): BotConfig {
  const chosen = env.BOT_MODE !== undefined && !defaulted.has("BOT_MODE");
  // An unset BOT_MODE is as implicit as a defaulted one.
  const implicit = chosen ? defaulted : new Set([...defaulted, "BOT_MODE"]);
  const config = parseConfig(schema, env, {
    defaulted: implicit,
    developmentOnly: DEVELOPMENT_ONLY,
  });
  return { ...config, botModeChosen: chosen };
}

/** The process's configuration: the environment, then .env, then .env.example. */
export function loadBotConfig(): BotConfig {
  const defaulted = loadEnvFiles(path.resolve(import.meta.dirname, "../../.."), process.env);
  return parseBotConfig(process.env, defaulted);
}
