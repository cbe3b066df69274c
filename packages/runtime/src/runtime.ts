// The composition root: one call builds a process's connections and every service over them (the
// shop, the reports, the conversation's), on one clock, the same way in the bot's and the worker's
// mains (apps/worker/src/runtime.ts), the test harnesses of both, the e2e suite's in-process worker
// and the webhook benchmark. Every setting comes from the process's validated config, parsed once:
// the connections from platform's shared settings, the shop's rules from core's.
import {
  createLanguagePreferences,
  createOrderMessages,
  createReplyPrompts,
  type LanguagePreferences,
  type OrderMessages,
  type ReplyPrompts,
} from "@orderbot/conversation";
import {
  createShop,
  LOCK_KINDS,
  shopConfigOf,
  systemClock,
  type Clock,
  type Shop,
  type ShopSettings,
} from "@orderbot/core";
import { createReports, type Reports } from "@orderbot/core/reports";
import { createDatabase, type Database } from "@orderbot/db";
import {
  connectRedis,
  maskId,
  type ConnectRedisOptions,
  type Logger,
  type RedisConnections,
  type RedisConnectionsConfig,
  type Registry,
} from "@orderbot/platform";
import { withSessionSettings } from "./db-url.ts";

/** What it reads: the bot's and the worker's configs both have it. */
export interface RuntimeConfig extends RedisConnectionsConfig, ShopSettings {
  DATABASE_URL: string;
  DATABASE_POOL_MAX: number;
  DATABASE_CONNECT_TIMEOUT_MS: number;
  /** The shop's day, for the reports. */
  SHOP_TIME_ZONE: string;
}

export interface RuntimeOptions {
  /** The process, for connection names and logs: "bot", "worker:2". */
  name: string;
  logger: Logger;
  registry: Registry;
  /** The id core's log lines carry: the update or the job run being served. */
  requestId?: () => string | undefined;
  /** PostgreSQL settings for every session (libpq `options`), e.g. idle_in_transaction_session_timeout. */
  sessionSettings?: Record<string, string | number>;
  /** Other lock kinds than the shop's (a test's shorter leases), and another breaker. */
  locks?: Pick<ConnectRedisOptions, "kinds" | "breaker">;
  /** Where "now" comes from for every service: the system clock unless a test sets one. */
  clock?: Clock;
}

/** What people read is kept here: languages, pending reply prompts, the messages showing orders. */
export interface ConversationServices {
  languages: LanguagePreferences;
  replyPrompts: ReplyPrompts;
  orderMessages: OrderMessages;
}

export interface Runtime extends Pick<RedisConnections, "redis" | "locks"> {
  db: Database;
  clock: Clock;
  shop: Shop;
  reports: Reports;
  conversation: ConversationServices;
  /** Closes the lock manager and Redis first, then the database pool. */
  close(): Promise<void>;
}

/**
 * @example
 * const runtime = createRuntime(config, { name: "bot", logger, registry });
 * const app = createBotApp({ config, logger, registry, ...runtime });
 * // on shutdown: await app.close(); await runtime.close();
 */
export function createRuntime(config: RuntimeConfig, options: RuntimeOptions): Runtime {
  const { logger, registry } = options;
  const db = createDatabase({
    url: withSessionSettings(config.DATABASE_URL, options.sessionSettings ?? {}),
    poolMax: config.DATABASE_POOL_MAX,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
  });
  const connections = connectRedis(config, {
    name: options.name,
    logger,
    registry,
    kinds: LOCK_KINDS,
    ...options.locks,
  });
  const clock = options.clock ?? systemClock;
  const shop = createShop({
    db,
    locks: connections.locks,
    clock,
    logger,
    registry,
    ...(options.requestId ? { requestId: options.requestId } : {}),
    config: shopConfigOf(config),
  });
  return {
    db,
    redis: connections.redis,
    locks: connections.locks,
    clock,
    shop,
    reports: createReports({ db, clock, timeZone: config.SHOP_TIME_ZONE }),
    conversation: conversationServices(config, {
      db,
      redis: connections.redis,
      clock,
      logger,
      customers: shop.customers,
    }),
    async close() {
      await connections.close();
      await db.$disconnect();
    },
  };
}

function conversationServices(
  config: RuntimeConfig,
  deps: {
    db: Database;
    redis: RedisConnections["redis"];
    clock: Clock;
    logger: Logger;
    customers: Shop["customers"];
  },
): ConversationServices {
  const mask = (id: bigint | number) => maskId(id, config.LOCK_HASH_KEY);
  const namespace = config.LOCK_NAMESPACE;
  return {
    languages: createLanguagePreferences({ ...deps, namespace, mask }),
    replyPrompts: createReplyPrompts({ redis: deps.redis, namespace, mask, logger: deps.logger }),
    orderMessages: createOrderMessages({ db: deps.db, clock: deps.clock }),
  };
}
