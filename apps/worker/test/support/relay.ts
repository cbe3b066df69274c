// An outbox relay on a test database with nothing else behind it: no orders, no operator chats,
// a pacer at Telegram's limits, and calls that fail the test. A test overrides what it exercises.
import { Registry } from "prom-client";
import type { Database } from "@orderbot/db";
import { silentLogger } from "@orderbot/platform";
import { createWorkerMetrics } from "../../src/metrics.ts";
import { createPacer, TELEGRAM_LIMITS } from "../../src/outbox/pacer.ts";
import { createOutboxRelay, type RelayDeps } from "../../src/outbox/relay.ts";

export function testRelay(db: Database, overrides: Partial<RelayDeps> = {}) {
  return createOutboxRelay({
    db,
    readOrder: async () => null,
    orderMessages: { of: async () => null },
    callApi: async (call) => {
      throw new Error(`this test expects no ${call.method}`);
    },
    pacer: createPacer({ ...TELEGRAM_LIMITS, globalPerSecond: 30, marginMs: 0 }),
    policy: { maxAttempts: 3, baseMs: 100, maxMs: 1000 },
    options: { batchSize: 10, claimMs: 30_000, horizonMs: 2000, locale: "en", shippingOptions: [] },
    operatorChats: async () => [],
    metrics: createWorkerMetrics(new Registry()),
    logger: silentLogger,
    ...overrides,
  });
}

/** One drain, as the leader runs it, with signals nobody aborts. */
export function drainOnce(relay: ReturnType<typeof testRelay>) {
  const signal = new AbortController().signal;
  return relay.drain({ signal, leaseSignal: signal });
}
