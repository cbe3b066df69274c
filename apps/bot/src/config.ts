// The bot's configuration: read from the environment once, here and nowhere else, validated, and
// passed down explicitly. Invalid configuration stops the process with one line per problem.
import path from "node:path";
import { z } from "zod";
import { INVOICE_LIMITS } from "@orderbot/core";
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
  "ORDER_MAX_TOTAL",
]);

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
    PAYMENT_CURRENCY: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .default("XTR"),
    /** Payment provider token; must be empty for Telegram Stars (XTR). */
    PROVIDER_TOKEN: z.string().default(""),
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
     * The largest order total, in minor units of PAYMENT_CURRENCY (Stars for XTR, cents for USD);
     * unset: what one invoice of that currency may ask. Checked against that limit below.
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
    RATE_LIMIT_PER_WINDOW: z.coerce.number().int().min(1).default(20),
    RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(100).default(10_000),
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
      if (c.PAYMENT_CURRENCY === "XTR" && c.PROVIDER_TOKEN !== "") {
        ctx.addIssue({
          code: "custom",
          path: ["PROVIDER_TOKEN"],
          message: "must be empty when PAYMENT_CURRENCY=XTR (Telegram Stars)",
        });
      }
      const invoice = INVOICE_LIMITS[c.PAYMENT_CURRENCY];
      if (
        c.ORDER_MAX_TOTAL !== undefined &&
        invoice &&
        (c.ORDER_MAX_TOTAL < invoice.minMinor || c.ORDER_MAX_TOTAL > invoice.maxMinor)
      ) {
        ctx.addIssue({
          code: "custom",
          path: ["ORDER_MAX_TOTAL"],
          message: `must be ${invoice.minMinor}-${invoice.maxMinor}: what one ${c.PAYMENT_CURRENCY} invoice may ask, in minor units`,
        });
      }
      if (c.PAYMENT_CURRENCY !== "XTR" && c.PROVIDER_TOKEN === "") {
        ctx.addIssue({
          code: "custom",
          path: ["PROVIDER_TOKEN"],
          message: `is required for PAYMENT_CURRENCY=${c.PAYMENT_CURRENCY}`,
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
