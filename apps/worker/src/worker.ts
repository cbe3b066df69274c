import type { FastifyInstance } from "fastify";
import type { Api } from "grammy";
import type { OrderMessages } from "@orderbot/conversation";
import type { Clock, OrderView } from "@orderbot/core";
import type { GroupService } from "@orderbot/core/groups";
import type { StarReconciliation } from "@orderbot/core/payments";
import { createProcessedUpdates, type Database } from "@orderbot/db";
import type { LockManager } from "@orderbot/lock";
import type { Logger, Redis, Registry } from "@orderbot/platform";
import { createBacklogCollector } from "./backlog.ts";
import type { WorkerConfig } from "./config.ts";
import { adminRefreshJob } from "./jobs/admin-refresh.ts";
import { dailyReportJob } from "./jobs/daily-report.ts";
import { expireReservationsJob, type ExpireDue } from "./jobs/expire-reservations.ts";
import type { Job } from "./jobs/job.ts";
import { outboxRelayJob } from "./jobs/outbox-relay.ts";
import { pruneOutboxJob } from "./jobs/prune-outbox.ts";
import { pruneProcessedUpdatesJob } from "./jobs/prune-processed-updates.ts";
import { reconcileStarsJob } from "./jobs/reconcile-stars.ts";
import { refundsJob } from "./jobs/refunds.ts";
import { createJobRunner, type JobRunner, type TickOutcome } from "./jobs/runner.ts";
import { createWorkerMetrics, type WorkerMetrics } from "./metrics.ts";
import { operatorChats, type OperatorChats } from "./operators/chats.ts";
import { grammyCaller, type CallApi } from "./outbox/api-call.ts";
import { createPacer, TELEGRAM_LIMITS } from "./outbox/pacer.ts";
import { createOutboxRelay, type OutboxRelay } from "./outbox/relay.ts";
import { createHealthServer } from "./server.ts";

/** The settings createWorker reads; a WorkerConfig has them all. */
export type WorkerSettings = Omit<
  WorkerConfig,
  "DATABASE_URL" | "REDIS_URL" | "LOCK_HASH_KEY" | "BOT_TOKEN" | "NODE_ENV" | "LOG_LEVEL"
>;

export interface WorkerDeps {
  config: WorkerSettings;
  db: Database;
  /** Only for /readyz: the locks have their own client. */
  redis: Pick<Redis, "ping">;
  locks: LockManager;
  /** core's `orders.expireDue`. */
  expireDue: ExpireDue;
  /** core's `orders.get`: the relay reads a paid order's items and shipping for its alert. */
  readOrder: (publicId: string) => Promise<OrderView | null>;
  /** core's `customers.markUnreachable`: the relay marks a customer who blocked the bot. */
  markUnreachable?: (userId: bigint) => Promise<unknown>;
  /** The messages showing orders (createRuntime's), which the relay edits. */
  orderMessages: OrderMessages;
  /** The shop's clock (createRuntime's): what the jobs take as "now". */
  clock: Clock;
  /** core's `shop.groups`: the admin-refresh job refreshes each group's admin list through it. */
  groups: Pick<GroupService, "list" | "refreshAdmins">;
  /**
   * core's `shop.ledger`: the reconcile-stars job compares it with Telegram's getStarTransactions
   * (scheduled when this is given: digital goods are always sold for Stars).
   */
  ledger?: StarReconciliation;
  /** grammY's Api pointed at Telegram or another Bot API server (`new Api(token, { apiRoot })`). */
  api: Api;
  logger: Logger;
  registry: Registry;
  /** Replaces the Bot API caller of the outbox relay (the benchmark counts calls). */
  callApi?: CallApi;
}

export interface Worker {
  runner: JobRunner;
  relay: OutboxRelay;
  jobs: readonly Job[];
  metrics: WorkerMetrics;
  server: FastifyInstance;
  /** Starts the job schedule; with `listen`, also the health server on HOST:WORKER_PORT. */
  start(options?: { listen?: boolean }): Promise<void>;
  /** Runs one tick of a job now. */
  runOnce(job: string): Promise<TickOutcome>;
  /** Stops scheduling, lets each running job finish its current batch (releasing its lock), closes the server. */
  stop(): Promise<void>;
}

/**
 * The whole worker, from explicit dependencies, without touching the process: main.ts owns the
 * environment, the connections and the signals; tests and the demo build workers in-process.
 *
 * @example
 * const worker = createWorker({ config, ...runtimeDeps(runtime), api, logger, registry });
 * await worker.start({ listen: true });
 * // ...
 * await worker.stop();
 */
export function createWorker(deps: WorkerDeps): Worker {
  const { config, db, locks, logger, registry } = deps;
  const metrics = createWorkerMetrics(registry);
  const chats = operatorChats(db, config.OPERATOR_GROUP_ID ?? null);
  const relay = outboxRelay(deps, metrics, chats);
  const jobs = workerJobs(deps, metrics, chats, relay);
  const runner = createJobRunner({
    locks,
    jobs,
    logger,
    metrics,
    ...(config.JOB_LOCK_TTL_MS ? { lockTtlMs: config.JOB_LOCK_TTL_MS } : {}),
  });
  const server = createHealthServer({
    checks: { database: () => db.$queryRaw`SELECT 1`, redis: () => deps.redis.ping() },
    registry,
    beforeScrape: createBacklogCollector({ db, metrics, logger }),
    logger,
    metricsToken: config.METRICS_TOKEN ?? null,
  });

  let listening = false;
  return {
    runner,
    relay,
    jobs,
    metrics,
    server,
    async start(options = {}) {
      if (options.listen) {
        await server.listen({ host: config.HOST, port: config.WORKER_PORT });
        listening = true;
      }
      runner.start();
    },
    runOnce: (job) => runner.runOnce(job),
    async stop() {
      await runner.stop();
      if (listening) await server.close();
    },
  };
}

/** The outbox relay with Telegram's limits and the configured retries and batches. */
function outboxRelay(deps: WorkerDeps, metrics: WorkerMetrics, chats: OperatorChats): OutboxRelay {
  const { config } = deps;
  return createOutboxRelay({
    db: deps.db,
    readOrder: deps.readOrder,
    orderMessages: deps.orderMessages,
    callApi: deps.callApi ?? grammyCaller(deps.api),
    pacer: createPacer({
      ...TELEGRAM_LIMITS,
      groupWindowMs: config.GROUP_RATE_WINDOW_MS,
      globalPerSecond: config.OUTBOX_GLOBAL_PER_SECOND,
      marginMs: config.OUTBOX_PACING_MARGIN_MS,
    }),
    policy: {
      maxAttempts: config.OUTBOX_MAX_ATTEMPTS,
      baseMs: config.OUTBOX_RETRY_BASE_MS,
      maxMs: config.OUTBOX_RETRY_MAX_MS,
    },
    options: {
      batchSize: config.OUTBOX_BATCH_SIZE,
      claimMs: config.OUTBOX_CLAIM_MS,
      horizonMs: config.OUTBOX_HORIZON_MS,
      locale: config.NOTIFY_LOCALE,
      shippingOptions: config.SHIPPING_OPTIONS,
      ...(config.OPERATOR_GROUP_ID === undefined ? {} : { fallbackChat: config.OPERATOR_GROUP_ID }),
    },
    operatorChats: chats,
    ownerIds: config.OWNER_IDS,
    markUnreachable: deps.markUnreachable,
    metrics,
    logger: deps.logger.child({ component: "outbox" }),
  });
}

/** Every job the worker schedules; reconcile-stars only with a ledger to compare. */
function workerJobs(
  deps: WorkerDeps,
  metrics: WorkerMetrics,
  chats: OperatorChats,
  relay: OutboxRelay,
): Job[] {
  const { config, db } = deps;
  const jobs: Job[] = [
    expireReservationsJob({
      expireDue: deps.expireDue,
      metrics,
      intervalMs: config.EXPIRE_INTERVAL_MS,
      batchSize: config.EXPIRE_BATCH_SIZE,
      mode: config.EXPIRE_MODE,
      clock: () => deps.clock.now(),
    }),
    outboxRelayJob({ relay, intervalMs: config.OUTBOX_INTERVAL_MS }),
    refundsJob({
      db,
      fallbackChat: config.OPERATOR_GROUP_ID,
      intervalMs: config.REFUND_INTERVAL_MS,
    }),
    adminRefreshJob({
      groups: deps.groups,
      // The lease's signal; grammY takes it after `other`, typed as its AbortController shim's.
      getAdministrators: (chatId, signal) =>
        deps.api.getChatAdministrators(
          chatId,
          undefined,
          signal as Parameters<Api["getChatAdministrators"]>[2],
        ),
      intervalMs: config.ADMIN_REFRESH_INTERVAL_MS,
      staleMs: config.ADMIN_STALE_MS,
    }),
    dailyReportJob({
      db,
      locks: deps.locks,
      operatorChats: chats,
      intervalMs: config.REPORT_INTERVAL_MS,
      hour: config.REPORT_HOUR,
      timeZone: config.SHOP_TIME_ZONE,
      lowStockThreshold: config.LOW_STOCK_THRESHOLD,
      clock: () => deps.clock.now(),
    }),
    pruneProcessedUpdatesJob({
      processed: createProcessedUpdates(db),
      intervalMs: config.PRUNE_INTERVAL_MS,
    }),
    pruneOutboxJob({
      db,
      keepMs: config.OUTBOX_RETENTION_MS,
      intervalMs: config.PRUNE_INTERVAL_MS,
    }),
  ];
  if (deps.ledger) jobs.push(reconcileJob(deps, deps.ledger, chats));
  return jobs;
}

function reconcileJob(deps: WorkerDeps, ledger: StarReconciliation, chats: OperatorChats): Job {
  return reconcileStarsJob({
    ledger,
    botId: BigInt(deps.api.token.split(":")[0]!),
    getStarTransactions: async (offset, limit, signal) =>
      // grammY types its signal as a polyfill's; the platform's AbortSignal is what it uses.
      (
        await deps.api.getStarTransactions(
          { offset, limit },
          signal as Parameters<Api["getStarTransactions"]>[1],
        )
      ).transactions,
    operatorChats: chats,
    intervalMs: deps.config.RECONCILE_INTERVAL_MS,
    graceMs: deps.config.RECONCILE_GRACE_MS,
  });
}
