// The bot's configuration: read from the environment once, here and nowhere else, validated, and
// passed down explicitly. Invalid configuration stops the process with one line per problem.
import path from "node:path";
import { z } from "zod";
import { shopSettingsShape } from "@orderbot/core";
import {
  DEVELOPMENT_ONLY_SETTINGS,
  loadEnvFiles,
  parseConfig,
  port,
  redisTopologyShape,
  sharedConfigShape,
  withLockNamespace,
} from "@orderbot/platform";
import { CROSS_CHECKED, checkCrossFields } from "./config-checks.ts";

/** "true"/"false" (also 1/0, yes/no) as a boolean; the default is written as the env would. */
const flag = (fallback: "true" | "false") =>
  z
    .enum(["true", "false", "1", "0", "yes", "no"], { error: "must be true or false" })
    .default(fallback)
    .transform((value) => value === "true" || value === "1" || value === "yes");

/** The bot's settings; docs/configuration.md is generated from it (`npm run docs:config`). */
export const botConfigSchema = z
  .object({
    ...sharedConfigShape,
    ...redisTopologyShape,
    ...shopSettingsShape,
    BOT_TOKEN: z
      .string({ error: "is required: the bot's token from @BotFather" })
      .regex(/^\d+:[A-Za-z0-9_-]{20,}$/, "must look like 123456:ABC-DEF... (from @BotFather)")
      .describe("The bot's token from @BotFather (123456:ABC...); never logged."),
    BOT_MODE: z
      .enum(["webhook", "polling"])
      .default("polling")
      .describe(
        "webhook: Telegram POSTs to PUBLIC_URL (production); polling: getUpdates (one replica).",
      ),
    TELEGRAM_API_ROOT: z
      .url()
      .optional()
      .describe(
        "Another Bot API server (a local one, or @orderbot/fake-telegram); unset: Telegram's.",
      ),
    TELEGRAM_CALL_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .min(1000)
      .max(50_000)
      .default(20_000)
      .describe(
        "Every Bot API call of the bot settles within this, retries included (ms); under Telegram's 60 s webhook wait.",
      ),
    // Whoever holds it can post forged updates, payments among them: 32 characters of Telegram's
    // set are about 192 bits.
    WEBHOOK_SECRET: z
      .string()
      .regex(
        /^[A-Za-z0-9_-]{32,256}$/,
        "must be 32-256 characters of A-Z a-z 0-9 _ - (generate one with: openssl rand -hex 32)",
      )
      .optional()
      .describe(
        "Webhook mode: the secret Telegram sends with each update (`openssl rand -hex 32`).",
      ),
    PUBLIC_URL: z
      .url()
      .optional()
      .describe(
        "Webhook mode: the public HTTPS base URL; the webhook is PUBLIC_URL/telegram/webhook.",
      ),
    BOT_REPLICAS: z.coerce
      .number()
      .int()
      .min(1)
      .max(100)
      .default(1)
      .describe("Webhook mode: how many bot replicas share the webhook (for max_connections)."),
    WEBHOOK_MAX_CONNECTIONS: z.coerce
      .number()
      .int()
      .min(1, "must be 1-100, Telegram's range")
      .max(100, "must be 1-100, Telegram's range")
      .optional()
      .describe(
        "Webhook mode: updates Telegram sends at once; unset: BOT_REPLICAS × DATABASE_POOL_MAX, at most 100.",
      ),
    HOST: z
      .string()
      .default("127.0.0.1")
      .describe("Where the process listens: webhook (bot), /healthz, /readyz, /metrics."),
    PORT: port.default(8080).describe("The bot's port: the webhook, /healthz, /readyz."),
    METRICS_PORT: port
      .optional()
      .describe("Serve /metrics on a port of its own (keep it private)."),
    METRICS_TOKEN: z
      .string()
      .min(16)
      .optional()
      .describe("/metrics needs `Authorization: Bearer <token>`; the bot serves it on PORT then."),
    WEBHOOK_BODY_LIMIT: z.coerce
      .number()
      .int()
      .min(1024)
      .default(1_048_576)
      .describe("Largest webhook body accepted (bytes, 413 above); Telegram's are far smaller."),
    PAYMENT_CURRENCY: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .default("XTR")
      .describe("Retired: only XTR is accepted; another value says to set PROVIDER_CURRENCY."),
    PROVIDER_TOKEN: z
      .string()
      .default("")
      .describe(
        "Payment provider token (@BotFather, Payments) for physical goods; empty: none sold.",
      ),
    PROVIDER_CURRENCY: z
      .string()
      .regex(/^[A-Z]{3}$/, "must be a 3-letter ISO 4217 code, e.g. USD")
      .refine((code) => code !== "XTR", "must be a provider's currency, not XTR (Stars)")
      .optional()
      .describe(
        "The provider's currency (ISO 4217) physical goods are priced in; needs PROVIDER_TOKEN.",
      ),
    INVOICE_NEED_NAME: flag("true").describe("A physical order's invoice asks for the name."),
    INVOICE_NEED_PHONE: flag("true").describe("... and the phone number."),
    INVOICE_NEED_EMAIL: flag("false").describe("... and the e-mail address."),
    INVOICE_NONCE: flag("false").describe(
      "Invoices carry a nonce, so only an order's latest is paid; on once no previous-release bot runs.",
    ),
    RATE_LIMIT_PER_WINDOW: z.coerce
      .number()
      .int()
      .min(1)
      .default(30)
      .describe(
        "Per-user rate limit: updates a window, counted in Redis before any database work; payments never.",
      ),
    RATE_LIMIT_WINDOW_MS: z.coerce
      .number()
      .int()
      .min(100)
      .default(10_000)
      .describe("The rate limit's window (ms)."),
    STOREFRONT_INIT_DATA_MAX_AGE_S: z.coerce
      .number()
      .int()
      .min(60)
      .max(604_800)
      .default(86_400)
      .describe(
        "The storefront API accepts a Mini App's initData signed at most this long ago (s).",
      ),
    GROUP_RATE_WINDOW_MS: z.coerce
      .number()
      .int()
      .min(1000)
      .default(60_000)
      .describe(
        "Telegram's window for a group's 20 messages (ms); only fake-Telegram runs shorten it.",
      ),
    POLL_RETRY_MAX_ATTEMPTS: z.coerce
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(12)
      .describe("Polling: failures before an update is skipped (never one that carries money)."),
    POLL_RETRY_BASE_MS: z.coerce
      .number()
      .int()
      .min(10)
      .default(500)
      .describe("Polling: first pause before a failed update runs again, doubled each time (ms)."),
    POLL_RETRY_MAX_MS: z.coerce
      .number()
      .int()
      .min(10)
      .default(30_000)
      .describe("Polling: longest such pause (ms)."),
    SHOP_TERMS: z
      .string()
      .max(3500)
      .default("")
      .transform((text) => text.replace(/\\n/g, "\n").trim())
      .describe(
        "/terms: the shop's terms of sale, one line (\\n for a break); empty: built-in terms.",
      ),
    SHOP_SUPPORT_CONTACT: z
      .string()
      .max(200)
      .default("")
      .transform((text) => text.trim())
      .describe("/paysupport: another way to reach the shop (an @username, an e-mail)."),
  })
  .superRefine(checkCrossFields, {
    // Also when other variables are invalid, so that every problem is reported in one go; only
    // not when the variables compared here are themselves invalid.
    when: (payload) => !payload.issues.some((issue) => CROSS_CHECKED.has(String(issue.path?.[0]))),
  })
  .transform(withLockNamespace);

export type BotConfig = z.infer<typeof botConfigSchema> & {
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
  const config = parseConfig(botConfigSchema, env, {
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
