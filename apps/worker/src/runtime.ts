// The worker's connections and shop, built one way for main.ts and for the tests' and the e2e
// suite's in-process workers: createRuntime with the worker's session settings, and what
// createWorker takes from it.
import { createRuntime, type Runtime, type RuntimeOptions } from "@orderbot/runtime";
import type { WorkerConfig } from "./config.ts";
import { currentJobRun } from "./jobs/run-scope.ts";
import type { WorkerDeps } from "./worker.ts";

export function createWorkerRuntime(
  config: WorkerConfig,
  options: Pick<RuntimeOptions, "logger" | "registry" | "locks">,
): Runtime {
  return createRuntime(config, {
    name: `worker:${config.WORKER_ID}`,
    requestId: currentJobRun,
    // A transaction a stalled worker left open is ended by PostgreSQL, and its row locks with it.
    sessionSettings:
      config.DATABASE_IDLE_TX_TIMEOUT_MS > 0
        ? { idle_in_transaction_session_timeout: config.DATABASE_IDLE_TX_TIMEOUT_MS }
        : {},
    ...options,
  });
}

/** The connections and the shop's services a worker runs on. */
export function runtimeDeps({ db, redis, locks, shop, clock, conversation }: Runtime) {
  return {
    db,
    redis,
    locks,
    clock,
    orderMessages: conversation.orderMessages,
    expireDue: shop.orders.expireDue,
    readOrder: shop.orders.get,
    markUnreachable: shop.customers.markUnreachable,
    groups: shop.groups,
    ledger: shop.ledger,
  } satisfies Partial<WorkerDeps>;
}
