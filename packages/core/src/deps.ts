import type { Database } from "@orderbot/db";
import type { LockManager } from "@orderbot/lock";
import { maskId, silentLogger, type Logger, type Registry } from "@orderbot/platform";
import type { CoreConfig } from "./config.ts";
import { createCoreMetrics, type CoreMetrics } from "./metrics.ts";

/** Where "now" comes from: the system clock in production, a controlled one in tests. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** What every service is built from. One instance per process (or per test). */
export interface CoreDeps {
  db: Database;
  locks: LockManager;
  clock: Clock;
  config: CoreConfig;
  logger: Logger;
  metrics: CoreMetrics;
  /** A user or chat id as it may appear in logs and the ledger's actor column. */
  mask(id: bigint | number | string): string;
  /**
   * The id of what is being served right now (the Telegram update, the worker's job run), passed
   * to every lock so that the lock's warnings name it. Never a secret.
   */
  requestId(): string | undefined;
}

export interface CoreDepsInput {
  db: Database;
  locks: LockManager;
  config: CoreConfig;
  clock?: Clock;
  logger?: Logger;
  registry?: Registry;
  /** Reads the current request's id from the caller's async context (the bot's update scope, the worker's job run). */
  requestId?: () => string | undefined;
}

export function buildDeps(input: CoreDepsInput): CoreDeps {
  const { config } = input;
  return {
    db: input.db,
    locks: input.locks,
    config,
    clock: input.clock ?? systemClock,
    logger: (input.logger ?? silentLogger).child({ module: "core" }),
    metrics: createCoreMetrics(input.registry),
    mask: (id) => maskId(id, config.maskKey),
    requestId: input.requestId ?? (() => undefined),
  };
}
