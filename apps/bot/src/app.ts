import type { I18n } from "@grammyjs/i18n";
import type { Bot } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import { createParkedUpdates, createProcessedUpdates, type Database } from "@orderbot/db";
import { type Shop } from "@orderbot/core";
import type { Reports } from "@orderbot/core/reports";
import type { LockManager } from "@orderbot/lock";
import { maskId, type Logger, type RedisClient, type Registry } from "@orderbot/platform";
import type { LanguagePreferences } from "@orderbot/conversation";
import type { ConversationServices } from "@orderbot/runtime";
import type { BotContext } from "./bot/context.ts";
import { createBot } from "./bot/create-bot.ts";
import { createI18n } from "./bot/i18n.ts";
import { localeFromLanguageCode } from "./format/translate.ts";
import { publishCommands } from "./commands.ts";
import type { BotConfig } from "./config.ts";
import { createBotMetrics, type BotMetrics } from "./metrics.ts";
import { assertPollingMayTakeOver, assertRedisVersion } from "./startup.ts";
import { loggableError } from "./log-safety.ts";
import { createMetricsServer, createServer, WEBHOOK_PATH, type BotServer } from "./server.ts";
import { createUpdatePipeline, type ProcessUpdate } from "./updates/pipeline.ts";
import { longPollSeconds } from "./bot/api-calls.ts";
import { createParking } from "./updates/parking.ts";
import { startPolling } from "./updates/polling.ts";
import { createRateLimiter, type RateLimiter, type RequestLimiter } from "./updates/rate-limit.ts";
import { STOREFRONT_API_PREFIX, storefrontApi, type StorefrontDeps } from "./storefront/api.ts";
import { createOperatorRoster } from "./updates/operator-roster.ts";
import { HANDLED_UPDATE_TYPES } from "./updates/schema.ts";
import { webhookMaxConnections } from "./updates/max-connections.ts";

/** Products per catalog page: a short list of buttons fits a phone screen without scrolling. */
const CATALOG_PAGE_SIZE = 6;

/** What the app is built from: connections are opened (and closed) by the caller. */
export interface BotAppDeps {
  config: BotConfig;
  logger: Logger;
  db: Database;
  redis: RedisClient;
  locks: LockManager;
  shop: Shop;
  /** Built with the shop, on its clock (createRuntime). */
  reports: Reports;
  conversation: ConversationServices;
  registry: Registry;
  /** Known bot identity (skips getMe); otherwise `init()` asks the Bot API. */
  botInfo?: UserFromGetMe;
  /** A group's messages per window; only a harness whose fake Telegram has no group limit sets it. */
  groupRepliesPerWindow?: number;
}

export interface BotApp {
  bot: Bot<BotContext>;
  /** The webhook, /healthz, /readyz and (with METRICS_TOKEN) /metrics. Not listening until `start`. */
  server: BotServer;
  /** Dedupe + lock + features: what the webhook and the poller feed every update to. */
  processUpdate: ProcessUpdate;
  /**
   * getMe (unless botInfo was given), the command menus, listening on HOST:PORT (the address is
   * returned), then receiving: setWebhook (with the secret and allowed_updates) in webhook mode,
   * long polling otherwise.
   */
  start(): Promise<{ address: string }>;
  /**
   * Stops receiving and waits for the updates in flight: the poller finishes its batch, the
   * server stops accepting and answers its open requests. Closes no connection it was given.
   */
  close(): Promise<void>;
}

/**
 * The bot as a library: the same app runs in `main.ts`, in-process tests and the demo.
 *
 * @example
 * const app = createBotApp({ config, logger, registry, ...createRuntime(config, options) });
 * await app.start();
 * // ... on SIGTERM:
 * await app.close();
 */
export function createBotApp(deps: BotAppDeps): BotApp {
  const { config, logger } = deps;
  const mask = (id: bigint | number) => maskId(id, config.LOCK_HASH_KEY);
  const metrics = createBotMetrics(deps.registry);
  const i18n = createI18n();
  // One cache of customers' languages for both ways in: a known customer costs one Redis GET.
  const languages = deps.conversation.languages;
  const bot = botFor(deps, i18n, mask);
  // A bot token starts with the bot's id: known before getMe, and the same on every replica.
  const botId = BigInt(config.BOT_TOKEN.split(":")[0]!);
  const rateLimiter = rateLimiterFor(deps, mask, metrics);
  const processUpdate = pipelineFor(deps, { bot, i18n, mask, metrics, botId, rateLimiter });

  const server = createServer({
    processUpdate,
    checks: { database: () => deps.db.$queryRaw`SELECT 1`, redis: () => deps.redis.ping() },
    registry: deps.registry,
    logger,
    webhookSecret: config.BOT_MODE === "webhook" ? (config.WEBHOOK_SECRET ?? null) : null,
    bodyLimit: config.WEBHOOK_BODY_LIMIT,
    metricsToken: config.METRICS_PORT === undefined ? (config.METRICS_TOKEN ?? null) : null,
  });
  void server.register(storefrontApi(storefrontDeps(deps, { bot, i18n, rateLimiter, languages })), {
    prefix: STOREFRONT_API_PREFIX,
  });
  const metricsServer =
    config.METRICS_PORT === undefined ? null : createMetricsServer(deps.registry, logger);
  let poller: Poller | null = null;

  return {
    bot,
    server,
    processUpdate,

    async start() {
      await bot.init();
      await assertRedisVersion(deps.redis, logger);
      await publishCommands(bot.api, logger);
      const address = await server.listen({ host: config.HOST, port: config.PORT });
      if (metricsServer)
        await metricsServer.listen({ host: config.HOST, port: config.METRICS_PORT });
      if (config.BOT_MODE === "webhook") await setWebhook(bot, config);
      else poller = await startPoller(deps, { bot, processUpdate, metrics, botId });
      logger.info({ mode: config.BOT_MODE, bot: bot.botInfo.username, address }, "bot started");
      return { address };
    },

    async close() {
      await poller?.stop();
      await server.close();
      await metricsServer?.close();
    },
  };
}

type Poller = ReturnType<typeof startPolling>;
type Mask = (id: bigint | number) => string;

/** The grammY bot, its features given what they need from the config and the shop. */
function botFor(deps: BotAppDeps, i18n: I18n<BotContext>, mask: Mask): Bot<BotContext> {
  const { config, logger, shop } = deps;
  return createBot({
    token: config.BOT_TOKEN,
    apiRoot: config.TELEGRAM_API_ROOT,
    callTimeoutMs: config.TELEGRAM_CALL_TIMEOUT_MS,
    ...(deps.botInfo ? { botInfo: deps.botInfo } : {}),
    logger,
    i18n,
    shop,
    ...deps.conversation,
    reports: deps.reports,
    payments: {
      provider:
        config.PROVIDER_TOKEN && config.PROVIDER_CURRENCY
          ? { token: config.PROVIDER_TOKEN, currency: config.PROVIDER_CURRENCY }
          : null,
      asks: {
        name: config.INVOICE_NEED_NAME,
        phone: config.INVOICE_NEED_PHONE,
        email: config.INVOICE_NEED_EMAIL,
      },
      nonce: config.INVOICE_NONCE,
      paymentGraceMs: shop.deps.config.paymentGraceMs,
    },
    shippingOptions: config.SHIPPING_OPTIONS,
    operators: { ownerIds: config.OWNER_IDS, groupId: config.OPERATOR_GROUP_ID, mask },
    shopInfo: { terms: config.SHOP_TERMS, contact: config.SHOP_SUPPORT_CONTACT },
    shopTimeZone: config.SHOP_TIME_ZONE,
    groupReplies: {
      db: deps.db,
      windowMs: config.GROUP_RATE_WINDOW_MS,
      perWindow: deps.groupRepliesPerWindow,
    },
    catalogPageSize: CATALOG_PAGE_SIZE,
    maxUnitsPerLine: shop.deps.config.maxUnitsPerLine,
  });
}

/** Rate limit, dedupe and lock around the bot's features: what every update is fed to. */
function pipelineFor(
  deps: BotAppDeps,
  parts: {
    bot: Bot<BotContext>;
    i18n: I18n<BotContext>;
    mask: Mask;
    metrics: BotMetrics;
    botId: bigint;
    rateLimiter: RateLimiter;
  },
): ProcessUpdate {
  const { logger } = deps;
  const { bot, i18n } = parts;
  return createUpdatePipeline({
    botId: parts.botId,
    processed: createProcessedUpdates(deps.db),
    locks: deps.locks,
    rateLimiter: parts.rateLimiter,
    // A limited button press is still answered, so no spinner is left; limited messages get
    // nothing, since replying to a flood would only feed it. The language is the one Telegram
    // reports: reading the user's choice from Redis would cost the flood a second round trip.
    refuse: async (update) => {
      const query = update.callback_query;
      if (!query) return;
      const text = i18n.t(localeFromLanguageCode(query.from.language_code), "rate-limited");
      await bot.api.answerCallbackQuery(query.id, { text }).catch((error: unknown) => {
        logger.debug({ err: loggableError(error) }, "could not answer a limited button press");
      });
    },
    handle: (update) => bot.handleUpdate(update),
    metrics: parts.metrics,
    logger,
  });
}

/** The per-user rate limit, one count per user for the chat's updates and the storefront's calls. */
function rateLimiterFor(deps: BotAppDeps, mask: Mask, metrics: BotMetrics) {
  const { config, logger, shop } = deps;
  return createRateLimiter({
    redis: deps.redis,
    prefix: `${config.LOCK_NAMESPACE}:ratelimit:`,
    mask,
    limit: config.RATE_LIMIT_PER_WINDOW,
    windowMs: config.RATE_LIMIT_WINDOW_MS,
    failedOpen: metrics.rateLimitFailOpen,
    logger,
    isOperator: createOperatorRoster({
      load: () => shop.groups.list(),
      maxAgeMs: 30_000,
      missRefreshMs: 1_000,
      logger,
    }).isOperator,
  });
}

/** The storefront's API: the same shop, the bot's token to check initData and make invoice links. */
function storefrontDeps(
  deps: BotAppDeps,
  parts: {
    bot: Bot<BotContext>;
    i18n: I18n<BotContext>;
    rateLimiter: RequestLimiter;
    languages: LanguagePreferences;
  },
): StorefrontDeps {
  const { config } = deps;
  return {
    shop: deps.shop,
    auth: {
      botToken: config.BOT_TOKEN,
      maxAgeSeconds: config.STOREFRONT_INIT_DATA_MAX_AGE_S,
      limiter: parts.rateLimiter,
      languages: parts.languages,
      retryAfterSeconds: Math.ceil(config.RATE_LIMIT_WINDOW_MS / 1000),
      logger: deps.logger.child({ component: "storefront" }),
    },
    invoices: {
      api: parts.bot.api,
      settings: {
        provider:
          config.PROVIDER_TOKEN && config.PROVIDER_CURRENCY
            ? { currency: config.PROVIDER_CURRENCY }
            : null,
        asks: {
          name: config.INVOICE_NEED_NAME,
          phone: config.INVOICE_NEED_PHONE,
          email: config.INVOICE_NEED_EMAIL,
        },
        paymentGraceMs: deps.shop.deps.config.paymentGraceMs,
      },
      providerToken: config.PROVIDER_TOKEN,
      nonce: config.INVOICE_NONCE,
      claims: deps.conversation.orderMessages,
      translate: (locale) => (key, variables) => parts.i18n.t(locale, key, variables),
    },
  };
}

/** Webhook mode: Telegram is told where to send updates, with the secret it must send back. */
async function setWebhook(bot: Bot<BotContext>, config: BotConfig): Promise<void> {
  // Appended, not resolved: a PUBLIC_URL with a path prefix (behind a proxy) keeps it.
  const url = `${(config.PUBLIC_URL ?? "").replace(/\/+$/, "")}${WEBHOOK_PATH}`;
  await bot.api.setWebhook(url, {
    secret_token: config.WEBHOOK_SECRET,
    max_connections: webhookMaxConnections(config),
    allowed_updates: [...HANDLED_UPDATE_TYPES],
  });
}

/** Polling mode: no webhook (unless another process may still be using it), then the poller. */
async function startPoller(
  deps: BotAppDeps,
  parts: { bot: Bot<BotContext>; processUpdate: ProcessUpdate; metrics: BotMetrics; botId: bigint },
): Promise<Poller> {
  const { config, logger } = deps;
  const { api } = parts.bot;
  await assertPollingMayTakeOver(api, config.botModeChosen);
  await api.deleteWebhook();
  return startPolling({
    api,
    processUpdate: parts.processUpdate,
    logger,
    allowedUpdates: HANDLED_UPDATE_TYPES,
    timeoutSeconds: longPollSeconds(config.TELEGRAM_CALL_TIMEOUT_MS),
    maxAttempts: config.POLL_RETRY_MAX_ATTEMPTS,
    retryBaseMs: config.POLL_RETRY_BASE_MS,
    retryMaxMs: config.POLL_RETRY_MAX_MS,
    skipped: parts.metrics.updatesSkipped,
    parking: createParking({
      store: createParkedUpdates(deps.db),
      botId: parts.botId,
      logger,
      gauge: parts.metrics.updatesParked,
    }),
  });
}
